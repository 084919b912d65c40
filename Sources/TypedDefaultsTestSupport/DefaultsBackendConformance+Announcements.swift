import Foundation
import TypedDefaults

/// A backend may call its change handler at any moment: from inside its own `load()`, or right
/// after its own `commit()`, on the thread the engine called it on. These checks make the
/// backend under test do both, and hold a store on it to a bound: before the engine deferred
/// such calls, the first did not return at all and the second stalled every write for 5 s.
extension DefaultsBackendConformance {
    static func announcedFromLoad(_ backend: any DefaultsBackend) throws {
        let check = "a change announced from inside load() is taken in, and nothing hangs"
        let announcing = Announcing(backend, after: .load)
        let store = DefaultsStore(backend: announcing, durability: .immediate)
        let count = DefaultsKey<Int>("count", default: 0, store: store)
        // Everything the check reads of the store is read on the thread that may hang.
        let read = try finishes(within: 10, check) {
            // The first observer loads the suite; so does a refresh.
            let observation = store.observe(keys: ["count"]) { _ in }
            store[count] = 1
            store.update(count) { $0 += 1 }
            store.refresh()
            observation.cancel()
            return store[count]
        }
        try expect(read == 2, check, "the store read \(read) after writing 1 and adding 1")
        let loaded = try backend.load()
        try expect(loaded["count"] == .integer(2), check, "load() gave \(loaded)")
        try expect(announcing.announcements > 0, check, "the store never loaded through the backend")
    }

    static func announcedAfterCommit(_ backend: any DefaultsBackend) throws {
        let check = "a change announced right after commit() holds back no write"
        let announcing = Announcing(backend, after: .commit)
        let store = DefaultsStore(backend: announcing, durability: .immediate)
        let count = DefaultsKey<Int>("count", default: 0, store: store)
        try finishes(within: 10, check) {
            for round in 0..<5 {
                store[count] = round * 10
                store.update(count) { $0 += 1 }
            }
        }
        let loaded = try backend.load()
        try expect(loaded["count"] == .integer(41), check, "after 5 writes and updates, load() gave \(loaded)")
        try expect(announcing.announcements >= 10, check, "\(announcing.announcements) commits announced")
    }

    /// Runs `body` on a thread of its own and returns what it returned, or fails the check if it
    /// has not ended in `seconds`. The thread is then left to its fate (it waits on a lock it
    /// holds), and the store is not touched again.
    @discardableResult
    private static func finishes<Result: Sendable>(
        within seconds: TimeInterval, _ check: String, _ body: @escaping @Sendable () -> Result
    ) throws -> Result {
        let done = DispatchSemaphore(value: 0)
        let result = Box<Result>()
        Thread.detachNewThread {
            result.set(body())
            done.signal()
        }
        guard done.wait(timeout: .now() + seconds) == .success, let value = result.value else {
            throw Failure(
                check: check,
                problem:
                    "the store's calls had not returned after \(Int(seconds)) s: a lock waited on by the thread that holds it"
            )
        }
        return value
    }

    /// A value handed from one thread to another.
    private final class Box<Value: Sendable>: @unchecked Sendable {  // `stored` only under `lock`.
        private let lock = NSLock()
        private var stored: Value?

        func set(_ value: Value) { lock.withLock { stored = value } }
        var value: Value? { lock.withLock { stored } }
    }

    /// The backend under test, calling the store's change handler itself, synchronously, at the
    /// end of each `load()` or `commit()`, before it returns.
    private final class Announcing: DefaultsBackend, @unchecked Sendable {  // `handlers`, `count` only under `lock`.
        enum Moment {
            case load, commit
        }

        private let inner: any DefaultsBackend
        private let moment: Moment
        private let lock = NSLock()
        private var handlers: [@Sendable () -> Void] = []
        private var count = 0

        init(_ inner: any DefaultsBackend, after moment: Moment) {
            self.inner = inner
            self.moment = moment
            // A location of its own: a store on it must not share the state of a store made
            // on another backend of the same location.
            location = "\(inner.location) (announcing after \(moment), \(UUID().uuidString))"
        }

        let location: String
        var announcements: Int { lock.withLock { count } }

        func load() throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] {
            let values = try inner.load()
            if moment == .load { announce() }
            return values
        }

        func commit(
            _ changes: [DefaultsStoredKey: DefaultsStoredValue?], before deadline: ContinuousClock.Instant,
            edit: (inout [DefaultsStoredKey: DefaultsStoredValue]) throws(DefaultsError) -> Void
        ) throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] {
            let values = try inner.commit(changes, before: deadline, edit: edit)
            if moment == .commit { announce() }
            return values
        }

        func observeChanges(_ changed: @escaping @Sendable () -> Void) {
            lock.withLock { handlers.append(changed) }
            inner.observeChanges(changed)
        }

        func check(_ value: DefaultsStoredValue, forKey key: DefaultsStoredKey) throws(DefaultsError) {
            try inner.check(value, forKey: key)
        }

        private func announce() {
            let handlers = lock.withLock {
                count += 1
                return self.handlers
            }
            for handler in handlers { handler() }
        }
    }
}
