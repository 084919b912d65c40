import Foundation
import Testing

@testable import TypedDefaults

/// How long a test waits for something that normally takes milliseconds. Generous: under
/// ThreadSanitizer on two cores, with tests running in parallel, a task or a queue can wait
/// seconds for a thread. Passing tests never wait this long.
let patience: Double = 30

/// Gathers what observers deliver, from whatever queue they run on.
final class Collected<Element: Sendable>: @unchecked Sendable {  // `items` only under `lock`
    private let lock = NSLock()
    private var items: [Element] = []

    func append(_ item: Element) { lock.withLock { items.append(item) } }
    var all: [Element] { lock.withLock { items } }

    /// Waits until `count` items arrived, or `seconds` passed; returns what arrived.
    @discardableResult
    func wait(for count: Int, seconds: Double = patience) -> [Element] {
        let deadline = Date().addingTimeInterval(seconds)
        while all.count < count, Date() < deadline { usleep(1_000) }
        return all
    }
}

/// Waits until `condition` holds, or `seconds` passed; returns whether it held.
func eventually(seconds: Double = patience, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        usleep(1_000)
    }
    return true
}

/// `eventually` for async tests: sleeping without blocking a thread of the cooperative pool,
/// which the tasks under test need to make progress.
func eventually(seconds: Double = patience, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}

@Suite struct ObservationTests {
    @Test func everyChangeOnceInOrderWithOldAndNew() {
        let store = DefaultsStore.inMemory()
        let count = UserDefault(wrappedValue: 0, "count", store: store)
        let seen = Collected<DefaultsValueChange<Int>>()
        let observation = count.observe { seen.append($0) }
        for value in 1...100 { count.wrappedValue = value }
        let changes = seen.wait(for: 100)
        #expect(changes.map(\.newValue) == Array(1...100))
        #expect(changes.map(\.oldValue) == Array(0...99))
        #expect(changes.allSatisfy { $0.origin == .thisProcess && $0.key == "count" })
        usleep(20_000)
        #expect(seen.all.count == 100, "delivered more than once")
        observation.cancel()
    }

    @Test func changesThroughOtherHandlesAndResets() {
        let store = DefaultsStore.inMemory()
        let theme = UserDefault(wrappedValue: "system", "theme", store: store)
        let seen = Collected<String>()
        let observation = theme.observe { seen.append($0.newValue) }
        UserDefault(wrappedValue: "", "theme", store: store).wrappedValue = "dark"
        theme.update { $0 += "!" }
        theme.reset()
        #expect(seen.wait(for: 3) == ["dark", "dark!", "system"])
        _ = observation
    }

    @Test(arguments: ["with.dots", "user@host", "a.b@c.d", "@", "."])
    func keysWithDotsAndAts(_ key: String) {
        let store = DefaultsStore.inMemory()
        let value = UserDefault(wrappedValue: 0, key, store: store)
        let seen = Collected<Int>()
        let observation = value.observe { seen.append($0.newValue) }
        value.wrappedValue = 7
        #expect(seen.wait(for: 1) == [7])
        observation.cancel()
    }

    @Test func cancellingOrDroppingStopsCallbacksAndLeavesNothing() {
        let store = DefaultsStore.inMemory()
        let value = UserDefault(wrappedValue: 0, "value", store: store)
        let seen = Collected<Int>()
        let observation = value.observe { seen.append($0.newValue) }
        var dropped: DefaultsObservation? = value.observe { seen.append(-$0.newValue) }
        #expect(store.state.observers.count == 2)

        value.wrappedValue = 1
        #expect(seen.wait(for: 2).sorted() == [-1, 1])
        observation.cancel()
        observation.cancel()
        dropped = nil
        #expect(dropped == nil)
        #expect(store.state.observers.count == 0)
        value.wrappedValue = 2
        usleep(20_000)
        #expect(seen.all.count == 2)
    }

    /// A callback goes as soon as its observation is cancelled, also while the observation is
    /// still held; and an observation whose in-memory store goes hears nothing more and lets go
    /// of its callback, even when the callback holds the observation (a cycle a Combine
    /// subscription makes).
    @Test func aCancelledOrOrphanedObservationReleasesItsCallback() {
        final class Captured: Sendable {}
        weak var captured: Captured?
        let store = DefaultsStore.inMemory()
        let observation: DefaultsObservation = {
            let object = Captured()
            captured = object
            return store.observe { _ in _ = object }
        }()
        #expect(captured != nil)
        observation.cancel()
        #expect(captured == nil, "held by a cancelled observation")

        final class Holder: @unchecked Sendable {  // `observation` is set once, before any change.
            var observation: DefaultsObservation?
        }
        weak var holder: Holder?
        var orphaned: DefaultsStore? = DefaultsStore.inMemory()
        do {
            let cycle = Holder()
            holder = cycle
            cycle.observation = orphaned?.observe { _ in _ = cycle }
        }
        #expect(holder != nil, "the callback holds its observation's holder")
        orphaned = nil
        #expect(holder == nil, "kept by an observation whose store is gone")
    }

    @Test func changesWithInitialStartWithTheCurrentValue() async {
        let store = DefaultsStore.inMemory()
        let volume = UserDefault(wrappedValue: 0.5, "volume", store: store)
        volume.wrappedValue = 0.6
        // High: a task made at the default priority waits behind every test queued on the
        // cooperative pool, which under ThreadSanitizer outlasted the wait below.
        let reader = Task(priority: .high) {
            var received: [Double] = []
            for await change in volume.changes(initial: true) {
                received.append(change.newValue)
                if received.count == 3 { break }
            }
            return received
        }
        #expect(await eventually { store.state.observers.count == 1 })
        volume.wrappedValue = 0.7
        volume.wrappedValue = 0.8
        #expect(await reader.value == [0.6, 0.7, 0.8])
        #expect(await eventually { store.state.observers.count == 0 }, "the finished stream left its observer")
    }

    @Test func cancellingTheTaskEndsTheObservation() async {
        let store = DefaultsStore.inMemory()
        let volume = UserDefault(wrappedValue: 0, "volume", store: store)
        // High, as above: not queued behind the other tests.
        let reader = Task(priority: .high) { for await _ in volume.changes() {} }
        #expect(await eventually { store.state.observers.count == 1 })
        reader.cancel()
        await reader.value
        #expect(await eventually { store.state.observers.count == 0 })
    }

    @Test func aStoreObservesAnyKeyOrASetOfKeys() {
        let store = DefaultsStore.inMemory()
        let any = Collected<String>()
        let some = Collected<String>()
        let all = store.observe { any.append($0.key) }
        let chosen = store.observe(keys: ["b", "c"]) { some.append($0.key) }
        for key in ["a", "b", "c", "d"] { UserDefault(wrappedValue: 0, key, store: store).wrappedValue = 1 }
        #expect(any.wait(for: 4) == ["a", "b", "c", "d"])
        #expect(some.wait(for: 2) == ["b", "c"])
        _ = (all, chosen)
    }

    @Test(
        .plistFilesOnly("`UserDefaults` does not tell of other processes' writes (Apple's neither)"),
        .tags(.childProcess),
        .startsProcesses) func anotherProcessWritingIsNoticed() async throws
    {
        let suite = try TestSuite()
        let value = UserDefault(wrappedValue: -1, "fromChild.0", store: suite.store)
        let seen = Collected<DefaultsValueChange<Int>>()
        let observation = value.observe { seen.append($0) }
        #expect(try await Probe.run("burst", suite.name, "1", "fromChild").status == 0)
        // Within 2 s of the child's exit, with no refresh: the file watcher noticed it (the
        // fallback polls once a second).
        let changes = seen.wait(for: 1, seconds: 2)
        #expect(changes.map(\.newValue) == [0], "not noticed within 2 s")
        #expect(changes.first?.origin == .otherProcess)
        #expect(value.wrappedValue == 0)
        observation.cancel()
    }

    @Test(.tags(.childProcess), .startsProcesses) func refreshTakesInPlainWritesInThisProcess() throws {
        let suite = try TestSuite()
        let theme = UserDefault(wrappedValue: "system", "theme", store: suite.store)
        #expect(theme.wrappedValue == "system")
        let seen = Collected<String>()
        let observation = theme.observe { seen.append($0.newValue) }
        suite.plant("dark", forKey: "theme")
        suite.store.refresh()
        #expect(theme.wrappedValue == "dark")
        #expect(seen.wait(for: 1) == ["dark"])
        observation.cancel()
    }

    /// Observers added and cancelled while eight threads write: the steady ones see every
    /// change of their key in order; nothing is left registered.
    @Test func observersUnderEightThreads() throws {
        let suite = try TestSuite()
        let store = suite.store.durability(.coalesced(within: .milliseconds(1)))
        let keys = ["k.0", "k@1", "k.2", "k@3"]
        let writes = 2_000
        let steady = keys.map { _ in Collected<Int>() }
        let observations = zip(keys, steady).map { key, seen in
            UserDefault(wrappedValue: 0, key, store: store).observe { seen.append($0.newValue) }
        }

        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            if thread < keys.count {
                let wrapper = UserDefault(wrappedValue: 0, keys[thread], store: store)
                for value in 1...writes { wrapper.wrappedValue = value }
            } else {
                for round in 0..<500 {
                    let wrapper = UserDefault(wrappedValue: 0, keys[round % keys.count], store: store)
                    let transient = wrapper.observe { _ in }
                    _ = wrapper.wrappedValue
                    if round.isMultiple(of: 2) { transient.cancel() }
                }
            }
        }

        for seen in steady {
            #expect(seen.wait(for: writes) == Array(1...writes))
        }
        #expect(eventually { store.state.observers.count == keys.count })
        observations.forEach { $0.cancel() }
        #expect(store.state.observers.count == 0)
    }
}
