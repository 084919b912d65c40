import Configuration
import Foundation
import Testing
import TypedDefaults
@testable import TypedDefaultsConfiguration

/// Watches give the current value, then every change the store hears of, with no polling, and
/// end cleanly.
@Suite struct WatchTests {
    /// The ints a watch of `key` delivers, collected until `done` says so or 10 s pass.
    static func watchInts(
        _ provider: DefaultsProvider, _ key: AbsoluteConfigKey, into received: Received<Int?>,
        until done: @escaping @Sendable ([Int?]) -> Bool
    ) async throws {
        try await provider.watchValue(forKey: key, type: .int) { updates in
            for await update in updates {
                guard case .int(let value)? = try? update.get().value?.content else {
                    received.append(nil)
                    if done(received.all) { return }
                    continue
                }
                received.append(value)
                if done(received.all) { return }
            }
        }
    }

    @Test func aWatchStartsWithTheCurrentValueThenEachWrite() async throws {
        let (_, store) = try Suites.make()
        let limit = DefaultsKey<Int>("limit", default: 0, store: store)
        store[limit] = 1
        let provider = try DefaultsProvider(store: store)
        let received = Received<Int?>()
        let watching = Task { try await Self.watchInts(provider, "limit", into: received) { $0.last == 3 } }
        #expect(await eventually { received.all == [1] })
        store[limit] = 2
        #expect(await eventually { received.all.last == 2 })
        store.reset(limit)  // removed: the key is absent
        #expect(await eventually { received.all.last == .some(nil) })
        store[limit] = 3
        try await watching.value
        #expect(received.all == [1, 2, nil, 3])
        #expect(provider.runningWatches == 0, "the watch ended with its handler")
    }

    /// Another process writes with the tool: the watch hears it through the file watcher, and
    /// a reader's watch too.
    @Test(.enabled(if: Tool.executable != nil || ProcessInfo.processInfo.environment["CI"] == "true"))
    func aWatchHearsTheToolWritingInAnotherProcess() async throws {
        let (suite, store) = try Suites.make()
        store[DefaultsKey<Int>("http.maxConnections", default: 0, store: store)] = 100
        try store.flush()
        let provider = try DefaultsProvider(store: store)
        let config = ConfigReader(provider: provider)
        let received = Received<Int?>()
        let watching = Task {
            try await config.watchInt(forKey: "http.maxConnections") { updates in
                for await value in updates {
                    received.append(value)
                    if value == 250 { return }
                }
            }
        }
        #expect(await eventually { received.all == [100] })
        let written = try await Tool.run(["write", suite, "http.maxConnections", "--int", "250"])
        #expect(written.status == 0, "\(written.errors)")
        try await watching.value
        #expect(received.all == [100, 250])
        #expect(config.int(forKey: "http.maxConnections") == 250)
    }

    /// Fifty watches of a few keys at once all hear one write, and end together.
    @Test func manyWatchesAtOnce() async throws {
        let (_, store) = try Suites.make()
        let keys = (0..<5).map { DefaultsKey<Int>("key\($0)", default: 0, store: store) }
        for key in keys { store[key] = 1 }
        let provider = try DefaultsProvider(store: store)
        let receivers = (0..<50).map { _ in Received<Int?>() }
        try await withThrowingTaskGroup(of: [Int?].self) { group in
            for (index, received) in receivers.enumerated() {
                group.addTask {
                    try await Self.watchInts(provider, AbsoluteConfigKey(["key\(index % 5)"]), into: received) {
                        $0.last == 2
                    }
                    return received.all
                }
            }
            // Each watch has taken its current value: a watch keeps only the newest update, so a
            // write before that would stand in for it.
            #expect(await eventually { receivers.allSatisfy { $0.all == [1] } })
            for key in keys { store[key] = 2 }
            var ended = 0
            for try await received in group {
                #expect(received.first == 1 && received.last == 2, "\(received)")
                ended += 1
            }
            #expect(ended == 50)
        }
        #expect(provider.runningWatches == 0)
    }

    /// A watch whose task is cancelled mid-stream ends and leaves no watcher behind; a provider
    /// let go of is released with its observation.
    @Test func aWatchCancelledMidStreamEnds() async throws {
        let (_, store) = try Suites.make()
        let limit = DefaultsKey<Int>("limit", default: 0, store: store)
        var provider: DefaultsProvider? = try DefaultsProvider(store: store)
        weak let released = provider
        let received = Received<Int?>()
        let watching = Task { [provider] in
            guard let provider else { return }
            try await Self.watchInts(provider, "limit", into: received) { _ in false }
        }
        #expect(await eventually { received.all.count == 1 })
        store[limit] = 5
        #expect(await eventually { received.all.last == 5 })
        watching.cancel()
        try await watching.value
        #expect(provider?.runningWatches == 0)
        provider = nil
        #expect(released == nil, "the provider and its store observation are released")
        store[limit] = 6  // no one left to tell
    }

    /// A snapshot watch gives the values now, then after each change.
    @Test func aSnapshotWatchSeesEachChange() async throws {
        let (_, store) = try Suites.make()
        let mode = DefaultsKey<String>("mode", default: "", store: store)
        store[mode] = "normal"
        let provider = try DefaultsProvider(store: store)
        let received = Received<String?>()
        let watching = Task {
            try await provider.watchSnapshot { updates in
                for await snapshot in updates {
                    let value = try? snapshot.value(forKey: "mode", type: .string).value?.content
                    if case .string(let text)? = value { received.append(text) } else { received.append(nil) }
                    if received.all.last == "maintenance" { return }
                }
            }
        }
        #expect(await eventually { received.all == ["normal"] })
        store[mode] = "maintenance"
        try await watching.value
        #expect(received.all == ["normal", "maintenance"])
    }

    /// A fetch that refreshes the provider's copy of the suite must not swallow a watch's
    /// update. With another observer of the suite taking 50 ms per change, the store's news of
    /// each write reaches the provider late, after a fetch of another key has already taken the
    /// new value into the copy: the watch must still get it, every round, and end on the value
    /// stored last.
    @Test(.timeLimit(.minutes(2))) func aFetchDoesNotSwallowAWatchsUpdate() async throws {
        let (_, store) = try Suites.make()
        let limit = DefaultsKey<Int>("limit", default: 0, store: store)
        store[limit] = 0
        let heard = Received<String>()
        let slowObserver = store.observe { change in
            Thread.sleep(forTimeInterval: 0.05)
            heard.append(change.key)
        }
        defer { slowObserver.cancel() }
        let provider = try DefaultsProvider(store: store)
        let received = Received<Int?>()
        let watching = Task { try await Self.watchInts(provider, "limit", into: received) { _ in false } }
        defer { watching.cancel() }
        #expect(await eventually { received.all == [0] })
        var missed: [Int] = []
        for round in 1...50 {
            store[limit] = round
            _ = try await provider.fetchValue(forKey: "other", type: .string)
            // The write is in the copy now; the watch hears of it, or it never will.
            if await !eventually(seconds: 10, { received.all.last == round }) {
                missed.append(round)
                break
            }
        }
        guard missed.isEmpty else {
            Issue.record("the watch stayed on an old value in round \(missed), after \(received.all)")
            return
        }
        // Every late notice of the store has arrived: the watch still ends on the value stored last.
        #expect(await eventually(seconds: 30) { heard.all.count == 50 })
        #expect(received.all.last == 50, "\(received.all)")
        #expect(try provider.value(forKey: "limit", type: .int).value?.content == .int(50))
    }

    /// `fetchValue` reads the backend first: a write another process made is there even before
    /// the file watcher tells the store.
    @Test(.enabled(if: Tool.executable != nil || ProcessInfo.processInfo.environment["CI"] == "true"))
    func fetchReadsTheBackendFirst() async throws {
        let (suite, store) = try Suites.make()
        store[DefaultsKey<String>("banner", default: "", store: store)] = "old"
        try store.flush()
        let provider = try DefaultsProvider(store: store)
        #expect(try await Tool.run(["write", suite, "banner", "new"]).status == 0)
        #expect(try await provider.fetchValue(forKey: "banner", type: .string).value?.content == .string("new"))
    }
}
