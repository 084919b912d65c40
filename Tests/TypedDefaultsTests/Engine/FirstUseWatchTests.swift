import Foundation
import Testing

@testable import TypedDefaults

#if canImport(Glibc)
    import Glibc
#endif

/// A suite hears of other processes' writes from its first read, write or observation on,
/// though its file watcher starts only then, not when the suite is opened (a process that only
/// reads or edits storage as it is now sets up no watch).
@Suite struct FirstUseWatchTests {
    /// An edit takes the file in before any watch; a write another process makes then, before
    /// the first read starts the watch, is still heard.
    @Test(.plistFilesOnly("`UserDefaults` does not tell of other processes' writes (Apple's neither)"), .hangGuard)
    func aWriteMadeBeforeTheWatchBeganIsHeard() async throws {
        guard isLinux else { return }
        let suite = try TestSuite()
        try suite.store.editStoredValues { $0["count"] = .integer(1) }
        // Another process's write: a new file renamed over the suite's.
        let data = try PropertyListSerialization.data(fromPropertyList: ["count": 2], format: .xml, options: 0)
        let other = suite.plistURL.appendingPathExtension("other")
        try data.write(to: other)
        #expect(rename(other.path, suite.plistURL.path) == 0)
        let count = DefaultsKey<Int>("count", default: 0, store: suite.store)
        let deadline = ContinuousClock.now + .seconds(10)
        while suite.store[count] != 2, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(suite.store[count] == 2, "the write made before the first read is taken in")
    }

    /// Opened by name, a suite holds its file as opened through `UserDefaults`: one state.
    @Test func aSuiteOpenedByNameIsTheOneItsUserDefaultsOpens() throws {
        guard isLinux else { return }
        let suite = try TestSuite()
        let byName = try DefaultsStore(suiteName: suite.name)
        #expect(byName.fileURL == suite.store.fileURL)
        byName[DefaultsKey<Int>("shared", default: 0)] = 7
        #expect(suite.store[DefaultsKey<Int>("shared", default: 0)] == 7)
        #expect(throws: DefaultsError.self) { try DefaultsStore(suiteName: "../escape") }
    }
}
