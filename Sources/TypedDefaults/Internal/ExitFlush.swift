import Foundation

/// Writes every `UserDefaults` changed through TypedDefaults to disk at normal process exit.
///
/// corelibs Foundation writes a suite only in `synchronize()`: a value set without it is lost
/// when the process exits, however long it runs. Registering the suites that were written and
/// synchronizing them from an `atexit` handler makes an assignment through `@UserDefault`
/// durable across a normal exit (returning from `main` or calling `exit`) without a disk write
/// on every set.
enum ExitFlush {
    /// The suites written since the last flush, by identity.
    private static let pending = Locked<[ObjectIdentifier: SharedDefaults]>([:])

    private static let handlerInstalled: Void = {
        atexit { ExitFlush.flush() }
    }()

    /// Records that `defaults` has changes that must reach the disk before exit.
    static func markChanged(_ defaults: UserDefaults) {
        _ = handlerInstalled
        pending.withLock { $0[ObjectIdentifier(defaults)] = SharedDefaults(defaults) }
    }

    /// Synchronizes every suite written since the last flush.
    static func flush() {
        let suites = pending.withLock { suites in
            defer { suites.removeAll() }
            return suites
        }
        for suite in suites.values {
            suite.defaults.synchronize()
        }
    }
}

/// A `UserDefaults` that may cross threads.
// @unchecked Sendable is sound: Apple documents UserDefaults as thread-safe, and corelibs
// Foundation guards each suite's state with a lock inside CFPreferences; the class is only not
// annotated Sendable on Linux. Nothing here mutates the reference itself.
struct SharedDefaults: @unchecked Sendable {
    let defaults: UserDefaults

    init(_ defaults: UserDefaults) {
        self.defaults = defaults
    }
}
