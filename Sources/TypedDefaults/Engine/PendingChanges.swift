import Foundation

/// A suite's changes not yet committed: the slots whose objects are pending
/// (`KeySlot.isPending`), and whether a flush is scheduled. Touched only under the suite's lock.
///
/// The slots are a list, not a dictionary by key: a write appends at most once per commit and
/// hashes nothing. A pending change is always the slot's current object: a slot's object changes
/// only by a write, which makes it pending, or by a commit, refresh or update, which hold the
/// suite's commit lock. So a commit that fails, still holding that lock, can put back what it
/// took by marking the slots pending again.
struct PendingChanges {
    /// The slots listed: pending ones, and some whose changes were dropped since.
    private var listed: [KeySlot] = []
    private var flushScheduled = false

    /// Whether any change is pending.
    var isEmpty: Bool { !listed.contains { $0.isPending } }

    /// The slots whose changes are pending.
    var slots: [KeySlot] { listed.filter(\.isPending) }

    /// Makes `slot`'s object a pending change.
    mutating func mark(_ slot: KeySlot) {
        slot.isPending = true
        guard !slot.isListedPending else { return }
        slot.isListedPending = true
        listed.append(slot)
    }

    /// Takes every pending change for a commit; no flush is scheduled after.
    mutating func takeAll() -> [DefaultsStoredKey: StoredObject?] {
        var changes: [DefaultsStoredKey: StoredObject?] = [:]
        for slot in listed {
            slot.isListedPending = false
            if slot.isPending {
                changes[slot.key] = .some(slot.object)
                slot.isPending = false
            }
        }
        listed.removeAll(keepingCapacity: listed.count <= 64)
        flushScheduled = false
        return changes
    }

    /// Whether and when to flush after a write: `nil` when a flush is already due, `.some(nil)`
    /// for now, `.some(delay)` for later.
    mutating func scheduleFlush(_ durability: Durability) -> TimeInterval?? {
        switch durability.window {
        case nil:
            return .some(nil)
        case let window? where !flushScheduled:
            flushScheduled = true
            return .some(window)
        default:
            return nil
        }
    }
}
