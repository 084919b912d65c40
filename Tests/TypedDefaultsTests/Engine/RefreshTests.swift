import Foundation
import Testing

@testable import TypedDefaults

/// An explicit refresh takes another process's later write over one of this process's not yet
/// flushed, and never this process's own committed write over its newer one.
@Suite struct RefreshTests {
    /// A write made while a flush of the same key commits stays pending after the flush; the
    /// suite then holds this process's earlier write, which a refresh must not mistake for
    /// another process's (it dropped the newer write, never to be committed, and the key read
    /// the older: a history run found it).
    @Test func aRefreshKeepsAWriteMadeWhileTheKeyWasCommitted() throws {
        let suite = try TestSuite()
        let store = suite.store.durability(.coalesced(within: .seconds(60)))
        let key = DefaultsKey<String?>("own", default: nil, store: store)
        store[key] = "first"
        // Another holder of the suite's lock file keeps the flush waiting once it has taken
        // "first" (flock locks of two descriptors exclude each other in one process too).
        let holder = open(suite.plistURL.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        try #require(holder >= 0)
        defer { close(holder) }
        try #require(flock(holder, LOCK_EX) == 0)
        let flushed = DispatchSemaphore(value: 0)
        Thread {
            try? store.flush()
            flushed.signal()
        }.start()
        let deadline = ContinuousClock.now + .seconds(30)
        let state = suite.store.state
        while state.lock.withLock({ !state.pending.isEmpty }), ContinuousClock.now < deadline {
            usleep(1_000)
        }
        store[key] = "second"
        flock(holder, LOCK_UN)
        flushed.wait()

        store.refresh()
        #expect(store[key] == "second")
        #expect(try suite.flushedObject(forKey: "own") as? String == "second")
    }

    /// A backend that writes every change through at once (a `UserDefaults` object) holds this
    /// process's pending write already: when it holds another object as a change is heard, that
    /// object was written after it, and the store takes it in rather than keep its own.
    @Test func aHeardChangeTakesInALaterPlainWriteOverAPendingWrittenThroughOne() throws {
        let suite = try TestSuite()
        let state = SuiteRegistry.unlistedState(
            backend: UserDefaultsBackend(defaults: SharedDefaults(suite.defaults)), label: "defaults")
        let store = DefaultsStore(state: state, durability: .coalesced(within: .seconds(60)))
        defer { try? store.flush() }
        let key = DefaultsKey<String?>("shared", default: nil, store: store)
        store[key] = "ours"
        #expect(state.lock.withLock { !state.pending.isEmpty })
        suite.defaults.set("theirs", forKey: "shared")

        state.reload(onlyIfChanged: true)
        #expect(store[key] == "theirs")
    }
}
