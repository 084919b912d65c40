import Combine
import Foundation
import Testing

@testable import TypedDefaults
@testable import TypedDefaultsStorage

/// What a publisher sent, from whatever queue it sent it on.
final class Received<Element: Sendable>: @unchecked Sendable {  // `items` only under `lock`.
    private let lock = NSLock()
    private var items: [Element] = []

    func append(_ item: Element) { lock.withLock { items.append(item) } }
    var all: [Element] { lock.withLock { items } }
}

/// Waits until `condition` holds or 30 s passed (generous, for a loaded machine; passing tests
/// never wait so long); whether it held.
func eventually(_ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(30)
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}

/// Every error reported through `DefaultsError.handler` while the tests run; each test looks
/// only at its own keys, so tests running at once do not see each other's.
enum Reported {
    private static let errors = Locked<[DefaultsError]>([])
    private static let installed: Void = {
        DefaultsError.handler = { error in errors.withLock { $0.append(error) } }
    }()

    static func install() { installed }
    static func errors(forKey key: String) -> [DefaultsError] { errors.withLock { $0 }.filter { $0.key == key } }
}

/// A subscriber that asks for values a few at a time, as a slow consumer does, and notes
/// whether each value came on its store's queue.
final class Asking<Value: Sendable>: Subscriber, @unchecked Sendable {  // Its vars only under `lock`.
    typealias Input = Value
    typealias Failure = Never
    private let lock = NSLock()
    private var values: [Value] = []
    private var onQueue: [Bool] = []
    private var subscription: (any Subscription)?
    private let first: Int
    private let cancelAtOnce: Bool
    private let store: DefaultsStore?
    /// Runs before each value is kept.
    private let onReceive: @Sendable (Value) -> Void

    init(
        first: Int, cancelAtOnce: Bool = false, store: DefaultsStore? = nil,
        onReceive: @escaping @Sendable (Value) -> Void = { _ in }
    ) {
        (self.first, self.cancelAtOnce, self.store, self.onReceive) = (first, cancelAtOnce, store, onReceive)
    }

    var received: [Value] { lock.withLock { values } }
    /// Whether each value came on the queue of `store`.
    var receivedOnQueue: [Bool] { lock.withLock { onQueue } }

    func receive(subscription: any Subscription) {
        if cancelAtOnce {
            subscription.cancel()
            return
        }
        lock.withLock { self.subscription = subscription }
        subscription.request(.max(first))
    }

    func receive(_ input: Value) -> Subscribers.Demand {
        onReceive(input)
        let queued = store.map(isOnSuiteQueue) ?? false
        lock.withLock {
            values.append(input)
            onQueue.append(queued)
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}

    func ask(for count: Int) { lock.withLock { subscription }?.request(.max(count)) }
    func cancel() { lock.withLock { subscription }?.cancel() }
}

private let suiteQueueMark = DispatchSpecificKey<ObjectIdentifier>()

/// Marks the queue `store`'s observers are called on, for ``isOnSuiteQueue(_:)``.
func markSuiteQueue(of store: DefaultsStore) {
    store.state.observers.queue.setSpecific(key: suiteQueueMark, value: ObjectIdentifier(store.state))
}

func isOnSuiteQueue(_ store: DefaultsStore) -> Bool {
    DispatchQueue.getSpecific(key: suiteQueueMark) == ObjectIdentifier(store.state)
}

/// Waits until the suite's queue has sent every change made before: the queue sends in order,
/// so once a later change of a key of its own is heard, the earlier ones were sent.
func fence(_ store: DefaultsStore) async {
    let key = DefaultsKey<Int>("fence.\(UUID())", default: 0)
    let heard = Received<Int>()
    let observation = store.observe(key) { heard.append($0.newValue) }
    store[key] = 1
    #expect(await eventually { heard.all == [1] })
    observation.cancel()
}

final class Mixer {
    @UserDefault var volume: Int

    init(store: DefaultsStore) {
        _volume = UserDefault(wrappedValue: 3, "volume", store: store)
    }
}

enum Theme: String, DefaultsValueConvertible { case light, dark, system }

@Suite struct PublisherTests {
    @Test func aPropertysPublisherSendsTheCurrentValueThenEachChangeInOrder() async {
        let mixer = Mixer(store: .inMemory())
        let received = Received<Int>()
        let subscription = mixer.$volume.publisher.sink { received.append($0) }
        for volume in 4...50 { mixer.volume = volume }
        #expect(await eventually { received.all.count == 48 }, "\(received.all)")
        #expect(received.all == Array(3...50))
        subscription.cancel()
    }

    @Test func aKeysPublisherSendsTheCurrentValueThenEachChange() async {
        let store = DefaultsStore.inMemory()
        let theme = DefaultsKey<Theme>("theme", default: .system)
        store[theme] = .dark
        let received = Received<Theme>()
        let subscription = store.publisher(theme).sink { received.append($0) }
        store[theme] = .light
        store.reset(theme)
        #expect(await eventually { received.all.count == 3 }, "\(received.all)")
        #expect(received.all == [.dark, .light, .system], "removing the value sends the default")
        subscription.cancel()
    }

    @Test func writesFromManyThreadsAreEachSentOnceAndTheLastIsTheStoredValue() async {
        let store = DefaultsStore.inMemory()
        let counter = DefaultsKey<Int>("counter", default: 0)
        let received = Received<Int>()
        let subscription = store.publisher(counter).sink { received.append($0) }
        #expect(await eventually { received.all == [0] }, "\(received.all)")
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for step in 1...25 { store[counter] = thread * 100 + step }
        }
        #expect(await eventually { received.all.count == 1 + 200 }, "\(received.all)")
        #expect(Set(received.all.dropFirst()).count == 200)
        #expect(received.all.last == store[counter])
        subscription.cancel()
    }

    @Test func eachSubscriptionStartsWithTheValueCurrentWhenItSubscribes() async {
        let store = DefaultsStore.inMemory()
        let name = DefaultsKey<String>("name", default: "")
        let publisher = store.publisher(name)
        let first = Received<String>()
        let firstSubscription = publisher.sink { first.append($0) }
        store[name] = "Ada"
        #expect(await eventually { first.all == ["", "Ada"] }, "\(first.all)")
        let second = Received<String>()
        let secondSubscription = publisher.sink { second.append($0) }
        #expect(await eventually { second.all == ["Ada"] }, "\(second.all)")
        store[name] = "Grace"
        #expect(
            await eventually { first.all == ["", "Ada", "Grace"] && second.all == ["Ada", "Grace"] }, "\(first.all)")
        firstSubscription.cancel()
        secondSubscription.cancel()
    }

    @Test func cancellingEndsTheObservationAndNothingIsSentAfter() async {
        let store = DefaultsStore.inMemory()
        let limit = DefaultsKey<Int>("limit", default: 1)
        let received = Received<Int>()
        let subscription = store.publisher(limit).sink { received.append($0) }
        #expect(await eventually { received.all == [1] }, "\(received.all)")
        #expect(store.state.observers.count == 1)
        subscription.cancel()
        #expect(store.state.observers.count == 0)
        store[limit] = 2
        // A change the observation would have sent goes through the suite's queue: once a later
        // observer hears of it, an earlier one would have been sent it already.
        let later = Received<Int>()
        let check = store.publisher(limit).sink { later.append($0) }
        store[limit] = 3
        #expect(await eventually { later.all.last == 3 }, "\(later.all)")
        #expect(received.all == [1])
        check.cancel()
    }

    /// A subscriber that asks for one value, then for one more once the value changed three
    /// times, gets the current value, then the latest: none of what it did not ask for is kept.
    @Test func aSubscriberThatAsksForLessGetsTheLatestValueWhenItAsks() async {
        let store = DefaultsStore.inMemory()
        let level = DefaultsKey<Int>("level", default: 0)
        let fence = DefaultsKey<Int>("fence", default: 0)
        let subscriber = Asking<Int>(first: 1)
        store.publisher(level).subscribe(subscriber)
        #expect(await eventually { subscriber.received == [0] }, "\(subscriber.received)")
        for value in 1...3 { store[level] = value }
        // The suite's queue sends changes in order: once a later change of another key is
        // heard, the three were sent to the subscription.
        let heard = Received<Int>()
        let fenceSubscription = store.publisher(fence).sink { heard.append($0) }
        store[fence] = 1
        #expect(await eventually { heard.all.last == 1 }, "\(heard.all)")
        #expect(subscriber.received == [0], "nothing was sent beyond what was asked for")
        subscriber.ask(for: 1)
        #expect(await eventually { subscriber.received == [0, 3] }, "\(subscriber.received)")
        store[level] = 4
        subscriber.ask(for: 1)
        #expect(await eventually { subscriber.received == [0, 3, 4] }, "\(subscriber.received)")
        subscriber.cancel()
        fenceSubscription.cancel()
    }

    /// A value a subscriber asks for from another thread comes on the suite's queue all the
    /// same, as the documentation promises, so that a subscriber never runs on two threads.
    @Test func valuesAskedForFromAnotherThreadComeOnTheSuitesQueue() async {
        let store = DefaultsStore.inMemory()
        markSuiteQueue(of: store)
        let level = DefaultsKey<Int>("level", default: 0)
        let subscriber = Asking<Int>(first: 0, store: store)
        store.publisher(level).subscribe(subscriber)
        for value in 1...5 { store[level] = value }
        await fence(store)
        subscriber.ask(for: 1)
        #expect(await eventually { subscriber.received == [5] }, "\(subscriber.received)")
        subscriber.ask(for: 2)
        for value in 6...8 { store[level] = value }
        await fence(store)
        subscriber.ask(for: 1)
        #expect(await eventually { subscriber.received == [5, 6, 7, 8] }, "\(subscriber.received)")
        #expect(subscriber.receivedOnQueue == [true, true, true, true])
        subscriber.cancel()
    }

    /// While a subscriber is slow with one value, changes pile up; it asked for one more, so
    /// it gets the next, and when it asks again, the latest, not the oldest left over.
    @Test func askingAgainAfterASlowValueGetsTheLatest() async {
        let store = DefaultsStore.inMemory()
        let level = DefaultsKey<Int>("level", default: 0)
        let (entered, gate) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let subscriber = Asking<Int>(first: 2) { value in
            if value == 0 {
                entered.signal()
                gate.wait()
            }
        }
        store.publisher(level).subscribe(subscriber)
        #expect(entered.wait(timeout: .now() + 30) == .success)
        for value in 1...5 { store[level] = value }
        gate.signal()
        await fence(store)
        #expect(subscriber.received == [0, 1])
        subscriber.ask(for: 1)
        #expect(await eventually { subscriber.received == [0, 1, 5] }, "\(subscriber.received)")
        subscriber.cancel()
    }

    /// As with a subject, a subscription lasts until it is cancelled, also for a subscriber that
    /// does not keep it.
    @Test func aSubscriberThatDoesNotKeepItsSubscriptionStillGetsEveryValue() async {
        let store = DefaultsStore.inMemory()
        let level = DefaultsKey<Int>("level", default: 0)
        let received = Received<Int>()
        store.publisher(level).subscribe(
            AnySubscriber<Int, Never>(
                receiveSubscription: { $0.request(.unlimited) },
                receiveValue: { value in
                    received.append(value)
                    return .none
                }))
        store[level] = 1
        #expect(await eventually { received.all == [0, 1] }, "\(received.all)")
    }

    /// A subscription never cancelled, of an in-memory store that goes: what it holds goes too.
    @Test func aSubscriptionWhoseStoreIsGoneIsReleased() async {
        weak var kept: Received<Int>?
        var store: DefaultsStore? = DefaultsStore.inMemory()
        do {
            let received = Received<Int>()
            kept = received
            store?.publisher(DefaultsKey<Int>("level", default: 0)).subscribe(
                AnySubscriber<Int, Never>(
                    receiveSubscription: { $0.request(.unlimited) },
                    receiveValue: { value in
                        received.append(value)
                        return .none
                    }))
            #expect(await eventually { received.all == [0] })
        }
        #expect(kept != nil, "the subscription lasts while its store does")
        store = nil
        #expect(await eventually { kept == nil }, "the subscription outlived its store")
    }

    @Test func aSubscriberThatCancelsAsItSubscribesLeavesNoObserver() async {
        let store = DefaultsStore.inMemory()
        let level = DefaultsKey<Int>("level", default: 0)
        let subscriber = Asking<Int>(first: 0, cancelAtOnce: true)
        store.publisher(level).subscribe(subscriber)
        #expect(store.state.observers.count == 0)
        store[level] = 1
        try? await Task.sleep(for: .milliseconds(50))
        #expect(subscriber.received.isEmpty)
    }

    /// Another program replaces the suite's file, as a careful writer does (a new file, then a
    /// rename): the store hears of it and the publisher sends the value it wrote; a value of the
    /// wrong type sends the default, is reported, and leaves the file as it was.
    @Test func anotherProgramsWritesAreSentAndAMismatchSendsTheDefault() async throws {
        Reported.install()
        let name = "combine.otherProgram.\(UUID())"
        let store = try DefaultsStore(suiteName: name)
        let file = try #require(store.fileURL)
        defer { try? FileManager.default.removeItem(at: file) }
        let key = "retries.\(UUID())"
        let retries = DefaultsKey<Int>(key, default: 2)
        let received = Received<Int>()
        let subscription = store.publisher(retries).sink { received.append($0) }
        #expect(await eventually { received.all == [2] }, "\(received.all)")

        try writeFromPython(["\(key)": 7], to: file)
        #expect(await eventually { received.all == [2, 7] }, "\(received.all)")

        try writeFromPython(["\(key)": "seven"], to: file)
        #expect(await eventually { received.all == [2, 7, 2] }, "\(received.all)")
        let bytes = try Data(contentsOf: file)
        #expect(store[retries] == 2)
        #expect(Reported.errors(forKey: key).contains { if case .typeMismatch = $0 { true } else { false } })
        #expect(try Data(contentsOf: file) == bytes, "the mismatched value stays stored")
        subscription.cancel()
    }
}

/// Writes `values` as the whole suite file, as Python's `plistlib` writes it: to a file beside
/// it, then renamed over it.
func writeFromPython(_ values: [String: Any], to file: URL) throws {
    let json = String(decoding: try JSONSerialization.data(withJSONObject: values), as: UTF8.self)
    let script = """
        import json, os, plistlib, sys
        path = sys.argv[1]
        with open(path + ".new", "wb") as out:
            plistlib.dump(json.loads(sys.argv[2]), out)
        os.replace(path + ".new", path)
        """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, file.path, json]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
}
