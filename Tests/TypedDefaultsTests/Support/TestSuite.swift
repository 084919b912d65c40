import Foundation
import Testing

@testable import TypedDefaults

/// For tests of corelibs Foundation's behaviour, which Apple platforms do not share.
#if os(Linux)
    let isLinux = true
#else
    let isLinux = false
#endif

/// Counts events, from any thread.
final class Counter: @unchecked Sendable {  // `count` is only touched under `lock`.
    private let lock = NSLock()
    private var count = 0

    /// Counts one more and returns the count.
    @discardableResult
    func increment() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }

    var value: Int { lock.withLock { count } }
}

/// A suite of its own for one test, removed with its plist when the test ends.
final class TestSuite {
    let name: String
    let defaults: UserDefaults
    /// The engine's store for the same suite.
    let store: DefaultsStore

    init(_ label: String = #function) throws {
        let sanitized = label.filter { $0.isLetter || $0.isNumber || $0 == "." }
        name = "typeddefaults-tests.\(sanitized).\(UUID().uuidString)"
        defaults = try UserDefaults.suite(named: name)
        store = DefaultsStore(defaults)
    }

    /// Stores `object` with plain `UserDefaults` and writes it to disk, where the engine reads
    /// it when it first loads the suite (raw writes bypass the engine otherwise).
    func plant(_ object: Any, forKey key: String) {
        defaults.set(object, forKey: key)
        defaults.synchronize()
    }

    /// What plain `UserDefaults` reads for `key` once the engine has flushed.
    func flushedObject(forKey key: String) throws -> Any? {
        try store.flush()
        return defaults.object(forKey: key)
    }

    /// Where corelibs Foundation keeps the suite.
    var plistURL: URL {
        let config =
            ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
        return config.appendingPathComponent("\(name).plist")
    }

    /// The suite's file as it is on disk after a flush, to check that stored data was left
    /// untouched.
    func fileBytes() throws -> Data? {
        try store.flush()
        return FileManager.default.contents(atPath: plistURL.path)
    }

    // Flushes first, so no pending write recreates the file after it is deleted; deletes the
    // files rather than calling removePersistentDomain(forName:), which takes 15 s on a suite of
    // 10,000 keys in corelibs Foundation.
    deinit {
        try? store.flush()
        TestSuite.removeFiles(of: plistURL)
    }

    /// Removes a suite's plist, its lock file, its published schema, any corrupt copies
    /// preserved beside it, and the hidden temporary a writer killed mid-write left: every file
    /// named after the suite.
    static func removeFiles(of plist: URL) {
        let folder = plist.deletingLastPathComponent()
        let suitePrefix = plist.deletingPathExtension().lastPathComponent + "."
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix(suitePrefix) || name.hasPrefix("." + suitePrefix) {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }
}

/// Whether this test process runs under ThreadSanitizer (`swift test --sanitize=thread`), whose
/// runtime is then linked in; so is every helper program the build made.
let isThreadSanitized = dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil

/// Writes `bytes` to `url` as a file someone left there a minute ago. A store takes an empty or
/// unparsable suite file for what it is only once it has been left as it is for 10 s (before
/// that, another program may be halfway through writing it); one dated earlier is read at once.
func writeAtRest(_ bytes: Data, to url: URL) throws {
    try bytes.write(to: url)
    try leaveAtRest(url)
}

/// Dates the file at `url` a minute back, as ``writeAtRest(_:to:)`` does.
func leaveAtRest(_ url: URL) throws {
    try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: url.path)
}

/// Whether named suites are kept in the engine's plist files, not through `UserDefaults`.
let suitesAreFiles = SuiteStorage.current == .plistFile

extension Trait where Self == ConditionTrait {
    /// For a test of a promise only the engine's own plist files keep, which a suite kept
    /// through a `UserDefaults` object (Apple platforms, and Linux with
    /// `TYPEDDEFAULTS_SUITE_STORAGE=userdefaults`) does not: skipped there, saying `reason`.
    static func plistFilesOnly(_ reason: Comment) -> Self {
        .enabled(if: SuiteStorage.current == .plistFile, Comment(rawValue: "plist files only: \(reason.rawValue)"))
    }
}
