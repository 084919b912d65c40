import Foundation
import TypedDefaults

/// A suite of its own for one benchmark, and the files to remove when it ends.
final class BenchmarkSuite: Sendable {
    let name: String
    /// The engine's store for the suite.
    let store: DefaultsStore
    /// Plain `UserDefaults` for the suite, for raw baselines.
    let defaults: SharedDefaults

    init(_ label: String) throws {
        let sanitized = label.filter { $0.isLetter || $0.isNumber }
        name = "typeddefaults-benchmarks.\(sanitized).\(UUID().uuidString)"
        defaults = SharedDefaults(try UserDefaults.suite(named: name))
        store = try DefaultsStore(suiteName: name)
    }

    /// Flushes what is pending, then removes the suite's plist, its lock file and anything
    /// else named after it.
    func remove() throws {
        try store.flush()
        guard let plist = store.fileURL else {
            defaults.defaults.removePersistentDomain(forName: name)
            return
        }
        let folder = plist.deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix(plist.lastPathComponent) {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }
}

/// `UserDefaults` handed to a benchmark closure, which must be Sendable.
// @unchecked Sendable is sound: UserDefaults is thread-safe on Apple platforms and guards each
// suite with a lock in corelibs Foundation; it is only not annotated Sendable on Linux.
struct SharedDefaults: @unchecked Sendable {
    let defaults: UserDefaults

    init(_ defaults: UserDefaults) {
        self.defaults = defaults
    }
}
