import Foundation
import Testing
import TypedDefaults

/// The store called from inside itself: from an update's body, and from `didSet` callbacks.
/// Each call works, and none waits for a lock its own thread holds.
@Suite struct ReentrancyTests {
    func contents(of suite: TestSuite) throws -> [String: Any] {
        let data = try #require(FileManager.default.contents(atPath: suite.plistURL.path))
        return try #require(PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    }

    /// A nested update, an immediate write, a flush and the first read of an `initialValue:`
    /// key, all inside an update's body, join its commit and are on disk when it returns.
    @Test(.hangGuard) func insideAnUpdateEverythingJoinsItsCommit() throws {
        let suite = try TestSuite()
        let store = suite.store
        let a = UserDefault(wrappedValue: 0, "a", store: store)
        let b = UserDefault(wrappedValue: 0, "b", store: store)
        let immediate = UserDefault(wrappedValue: 0, "c", store: store.durability(.immediate))
        let installed = UserDefault(DefaultsKey<String>("installedInsideUpdate", initialValue: "first"), store: store)

        a.update { value in
            value = 1
            b.update { $0 = 2 }
            #expect(b.wrappedValue == 2)
            immediate.wrappedValue = 3
            #expect(throws: Never.self) { try store.flush() }
            #expect(installed.wrappedValue == "first")
            store.refresh()  // returns at once: the commit holds the freshest contents
            a.update { $0 += 100 }  // the outer update's result is stored last
        }
        #expect(a.wrappedValue == 1 && b.wrappedValue == 2 && immediate.wrappedValue == 3)
        let stored = try contents(of: suite)
        #expect(stored["a"] as? Int == 1)
        #expect(stored["b"] as? Int == 2)
        #expect(stored["c"] as? Int == 3)
        #expect(stored["installedInsideUpdate"] as? String == "first")

        // Everything still works afterwards, from another thread too.
        DispatchQueue.global().sync { a.update { $0 += 1 } }
        try store.flush()
        #expect(try contents(of: suite)["a"] as? Int == 2)
    }

    @Test(.hangGuard) func nestedUpdatesInMemory() {
        let store = DefaultsStore.inMemory()
        let a = UserDefault(wrappedValue: 0, "a", store: store)
        let b = UserDefault(wrappedValue: 0, "b", store: store)
        a.update { value in
            b.update { inner in
                inner = 5
                a.update { $0 = 7 }
            }
            value += b.wrappedValue
        }
        #expect(a.wrappedValue == 5)
        #expect(b.wrappedValue == 5)
    }

    /// `exit()` from inside an update's body ends the process; what was written before the
    /// update, and what nested updates wrote, are on disk.
    @Test(.tags(.childProcess), .startsProcesses, .hangGuard)
    func exitInsideAnUpdateEndsTheProcessAndKeepsTheWrites() async throws {
        let suite = try TestSuite()
        let run = try await Probe.run("exitInsideUpdate", suite.name)
        #expect(run.status == 0, "\(run.errors)")
        let stored = try contents(of: suite)
        #expect(stored["before"] as? Int == 1)
        #expect(stored["nested"] as? Int == 2)
        #expect(stored["counter"] == nil, "the update that never returned stored nothing")
    }

    /// A callback that clamps its own key: the clamping write is applied and observed, and
    /// does not call the callback again.
    @Test(.hangGuard) func aDidSetThatWritesItsOwnKeyRunsOnce() async throws {
        let store = DefaultsStore.inMemory()
        let calls = Counter()
        let observed = Counter()
        let observation = store.observe(keys: ["level"]) { _ in observed.increment() }
        defer { observation.cancel() }
        let level = UserDefault(wrappedValue: 0, "level", store: store).didSet { new, _ in
            calls.increment()
            if new > 10 { UserDefault(wrappedValue: 0, "level", store: store).wrappedValue = 10 }
        }
        level.wrappedValue = 50
        #expect(level.wrappedValue == 10)
        #expect(calls.value == 1)
        level.wrappedValue = 5
        #expect(calls.value == 2)
        let deadline = Date().addingTimeInterval(30)
        while observed.value < 3, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(observed.value == 3, "50, the clamp to 10, then 5")
    }

    /// Two callbacks that write each other's key end after one round each.
    @Test(.hangGuard) func callbacksThatWriteEachOthersKeysEnd() {
        let store = DefaultsStore.inMemory()
        let calls = Counter()
        let ping = UserDefault(wrappedValue: 0, "ping", store: store).didSet { new, _ in
            calls.increment()
            UserDefault(wrappedValue: 0, "pong", store: store).wrappedValue = new + 1
        }
        let pong = UserDefault(wrappedValue: 0, "pong", store: store).didSet { new, _ in
            calls.increment()
            UserDefault(wrappedValue: 0, "ping", store: store).wrappedValue = new + 1
        }
        ping.wrappedValue = 1
        #expect(calls.value == 2)
        #expect(ping.wrappedValue == 3)
        #expect(pong.wrappedValue == 2)
    }
}
