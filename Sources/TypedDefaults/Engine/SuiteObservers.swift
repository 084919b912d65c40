import Foundation
import TypedDefaultsStorage

/// A change to one key of a suite, as the engine sees it: stored objects, not typed values.
struct SlotChange: Sendable {
    let key: DefaultsStoredKey
    let oldObject: StoredObject?
    let newObject: StoredObject?
    let origin: DefaultsChangeOrigin
    /// An administrator's bounds of the key before and after, which a decode of a missing
    /// object applies to the default, as a read does.
    var oldBound: ManagedBound? = nil
    var newBound: ManagedBound? = nil
}

/// The observers of one suite, and the serial queue that delivers changes to them in the
/// order the changes were made.
// @unchecked Sendable is sound: `entries` and `nextID` are only touched while holding `lock`
// (so they skip the dynamic exclusivity checks); `entryCount` is an atomic word; `queue` is a
// serial DispatchQueue, itself thread-safe.
final class SuiteObservers: @unchecked Sendable {
    final class Entry: Sendable {
        let id: UInt64
        /// The keys observed, or `nil` for every key.
        let keys: Set<DefaultsStoredKey>?
        /// The callback, until the entry is deactivated: dropped then, so that what it captured
        /// goes even while the observation itself is still held.
        private let callback: Locked<(@Sendable (SlotChange) -> Void)?>

        init(id: UInt64, keys: Set<DefaultsStoredKey>?, deliver: @escaping @Sendable (SlotChange) -> Void) {
            self.id = id
            self.keys = keys
            self.callback = Locked(deliver)
        }

        /// Calls the callback with `change`, unless the entry was deactivated.
        func deliver(_ change: SlotChange) {
            callback.read { $0 }?(change)
        }

        func deactivate() {
            // Released after the lock is given back: what the callback captured may do anything
            // as it goes.
            let dropped = callback.withLock { $0.take() }
            _ = dropped
        }
    }

    private let lock = SuiteLock()
    @exclusivity(unchecked) private var entries: [UInt64: Entry] = [:]
    @exclusivity(unchecked) private var nextID: UInt64 = 0
    /// `entries.count`, read without the lock: every write asks whether anyone observes.
    private let entryCount = AtomicWord(0)
    let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: "TypedDefaults.observers.\(label)")
    }

    /// Whether no one observes. Observers are added under the suite's lock, which a write
    /// holds as it asks, so a write never misses an observer added before it.
    var isEmpty: Bool { count == 0 }

    var count: Int { Int(entryCount.load()) }

    /// Publishes `entries.count` for ``count``; called under the lock.
    private func entriesChanged() {
        entryCount.store(UInt(entries.count))
    }

    func add(keys: Set<DefaultsStoredKey>?, deliver: @escaping @Sendable (SlotChange) -> Void) -> Entry {
        lock.withLock {
            nextID += 1
            let entry = Entry(id: nextID, keys: keys, deliver: deliver)
            entries[entry.id] = entry
            entriesChanged()
            return entry
        }
    }

    /// Stops deliveries to `entry`, including any already queued.
    func remove(_ entry: Entry) {
        entry.deactivate()
        lock.withLock {
            _ = entries.removeValue(forKey: entry.id)
            entriesChanged()
        }
    }

    /// Stops every delivery, when the suite goes: an observation that outlives its suite (of an
    /// in-memory store) hears nothing more, and what its callback captured is released.
    func removeAll() {
        let removed = lock.withLock {
            let removed = Array(entries.values)
            entries.removeAll()
            entriesChanged()
            return removed
        }
        for entry in removed { entry.deactivate() }
    }

    /// Queues `change` for every observer of its key. Called under the suite's lock, so the
    /// queue receives changes in the order they were made.
    func enqueue(_ change: SlotChange) {
        let matching = lock.withLock { entries.values.filter { $0.keys?.contains(change.key) ?? true } }
        guard !matching.isEmpty else { return }
        queue.async {
            for entry in matching { entry.deliver(change) }
        }
    }

    /// Queues a delivery to `entry` alone, after every change queued before it.
    func enqueue(_ change: SlotChange, to entry: Entry) {
        queue.async {
            entry.deliver(change)
        }
    }
}
