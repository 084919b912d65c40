import Foundation

/// Observers signing up for a suite's changes.
extension SuiteState {
    /// Registers `deliver` for changes of `keys` (`nil`: every key). With `initial`, each key's
    /// current object is delivered first (for `nil`, each key that holds one), in order with
    /// the changes that follow.
    func addObserver(
        keys: Set<DefaultsStoredKey>?, initial: Bool = false, deliver: @escaping @Sendable (SlotChange) -> Void
    ) -> DefaultsObservation {
        var after = AfterUnlock()
        defer { after.run() }
        return withLoadedLock {
            // Loaded now, so the first change can name the old value (for an observer of every
            // key, so that another process's change of any key is told from what it was).
            for key in keys ?? [] { _ = loadedObject(slotLocked(for: key), &after) }
            if keys == nil { _ = loadSuite(&after) }
            let entry = observers.add(keys: keys, deliver: deliver)
            if initial {
                let initialKeys: [DefaultsStoredKey]
                if let keys {
                    initialKeys = keys.sorted()
                } else if loadSuite(&after) {
                    initialKeys = knownKeys().sorted()
                } else {
                    initialKeys = []
                }
                for key in initialKeys {
                    // As a read sees it: an administrator's lock or default in place of the user's.
                    let slot = slotLocked(for: key)
                    let current = objectInForce(slot, &after)
                    if keys == nil, current == nil { continue }
                    let bound = slot.managed?.bound
                    observers.enqueue(
                        SlotChange(
                            key: key, oldObject: current, newObject: current, origin: .thisProcess, oldBound: bound,
                            newBound: bound), to: entry)
                }
            }
            return DefaultsObservation(observers: observers, entry: entry)
        }
    }
}
