import Foundation
import TypedDefaultsStorage

/// The suites in use in this process, one ``SuiteState`` each, flushed at normal exit.
enum SuiteRegistry {
    /// How a suite is told apart from others.
    enum Identity: Hashable {
        /// A plist file, by path: every handle on that file shares the state.
        case file(String)
        /// A suite kept through `UserDefaults`, by name: every handle on it shares the state.
        case named(String)
        /// A `UserDefaults` object whose suite is not known, by identity.
        case defaults(ObjectIdentifier)
        /// A program's ``DefaultsBackend``, by its location.
        case backend(String)
    }

    private static let suites = Locked<[Identity: SuiteState]>([:])

    private static let exitFlushInstalled: Void = {
        atexit { SuiteRegistry.flushAllBeforeExit() }
        // libdispatch creates the descriptor behind its timers when the first one is armed, and
        // kills the process if none is left then. A coalesced flush arms one on the first write,
        // which could come when the process has run out of descriptors: arm one now.
        DispatchQueue.global().asyncAfter(deadline: .now()) {}
    }()

    /// The state for `identity`, made on first use over the backend `make` gives, and kept for
    /// the life of the process.
    static func state(
        for identity: Identity, label: String, fileURL: URL? = nil, administration: AdministrationSource? = nil,
        backend make: () -> any StoreBackend
    ) -> SuiteState {
        _ = exitFlushInstalled
        return suites.withLock { suites in
            if let state = suites[identity] { return state }
            let state = SuiteState(backend: make(), label: label, fileURL: fileURL, administration: administration)
            suites[identity] = state
            return state
        }
    }

    /// A state no other handle finds, released with the last that holds it: an in-memory
    /// store's, or a test's copy of a suite.
    static func unlistedState(
        backend: any StoreBackend, label: String, fileURL: URL? = nil, isCopy: Bool = false,
        administration: AdministrationSource? = nil
    ) -> SuiteState {
        SuiteState(
            backend: backend, label: label, fileURL: fileURL, isPermanent: false, isCopy: isCopy,
            administration: administration)
    }

    private static let exiting = Locked(false)

    /// Whether the process is ending: flushes on schedule and retries no longer start, so that
    /// the flush at exit is not kept waiting behind them.
    static var isExiting: Bool { exiting.withLock { $0 } }

    /// Commits every suite's pending changes as the process ends (at exit, or on a termination
    /// signal), each waiting at most ``CommitWait/lockAtExit`` for a lock; errors go to the
    /// handler.
    static func flushAllBeforeExit() {
        exiting.withLock { $0 = true }
        for state in suites.withLock({ Array($0.values) }) {
            state.flushBeforeExit()
        }
    }
}
