import Foundation

/// Taking in what the backend holds: another process's commit, a refresh, the contents a
/// commit read.
extension SuiteState {
    /// Starts hearing the changes the backend tells of (``StoreBackend/observeChanges(_:)``,
    /// the one way they reach the engine), from ``ensureLoaded()``: before this process first
    /// keeps anything it read, as every read, write, update and observer passes through it
    /// until then (``withLoadedLock(_:)``), and not when the suite is opened. A process that only
    /// reads or edits storage as it is now (`storedValues()`, `editStoredValues`, a tool's one
    /// command) sets up no file watch: a watch's thread, and its inotify instance, which the
    /// kernel takes about 10 ms to tear down at exit (measured), would be all it got. Contents
    /// taken in before (an edit's commit) are looked at again, as if a change had been heard at
    /// once: a write another process made before the watch began is taken in like one after.
    ///
    /// Unowned where the state lives as long as the process: a weak reference would move its
    /// reference counts to a side table, slowing every retain.
    func startObserving() {
        if isPermanent {
            backend.observeChanges { [unowned self] in reload(onlyIfChanged: true) }
        } else {
            backend.observeChanges { [weak self] in self?.reload(onlyIfChanged: true) ?? false }
        }
        if lock.withLock({ hasLoaded }) { DispatchQueue.global().async { self.reload(onlyIfChanged: true) } }
        startWatchingAdministration()
    }

    /// Reads the suite again from its backend; keys that differ take the new objects and their
    /// observers are told. With `onlyIfChanged` (a change the backend told of), a file this
    /// process wrote last is not read again, and keys written here since are kept, but by a
    /// backend that holds every write as it is made. Without it (an explicit
    /// ``DefaultsStore/refresh()``), a key the backend changed since this process last saw it
    /// replaces a write of the same key not yet flushed: the backend's is the later write.
    /// A program's backend's administrator's layer is read again first, loaded or not (its
    /// first read may have failed). Returns whether the backend held anything else than what
    /// this process knew.
    @discardableResult
    func reload(onlyIfChanged: Bool = false) -> Bool {
        var after = AfterUnlock()
        defer { after.run() }
        // Inside an update's body the commit in progress already holds the freshest contents.
        if joinableTransaction() != nil { return false }
        var administrationChanged = false
        var valuesRead = false
        if case .backend = administration { administrationChanged = rereadAdministration() }
        // Once the commit lock is given back, before observers are told; not when no values
        // were read (the suite not loaded yet, the commit lock not had): the failure waits.
        defer { if valuesRead { after.report(settleAdministrationFailure()) } }
        // A suite not loaded yet has nothing to refresh; its first read will see the file as it
        // is then (a watcher catching a file halfway written must not stand in for that read).
        if onlyIfChanged, !lock.withLock({ hasLoaded }) { return administrationChanged }
        // Serialized with commits, so an old read can never undo a newer commit.
        do {
            try commits.lock(waitingAtMost: CommitWait.lock)
        } catch {
            guard onlyIfChanged else {
                after.report(error)
                return false
            }
            // Told of a change while a commit of this process waits out a stuck lock or an
            // unreachable server: nothing was written, so no write failed; look again later.
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { self.reload(onlyIfChanged: true) }
            return false
        }
        defer { commits.unlock() }
        let contents = backend.reload(onlyIfChanged: onlyIfChanged)
        // A program's backend answers `.whole` for values it could read, else `.unchanged`.
        if case .whole = contents { valuesRead = true }
        return lock.withLock {
            var changed = false
            switch contents {
            case .whole(let values):
                changed = !Self.same(stored, values)
                if !onlyIfChanged {
                    for slot in pending.slots {
                        guard case .some(let base) = slot.pendingBase, !StoredObject.same(base, values[slot.key])
                        else { continue }
                        slot.isPending = false
                        slot.pendingBase = nil
                    }
                }
                takeIn(values, origin: .otherProcess, &after)
            case .perKey:
                // Keys no slot holds may have changed too: the next write counts the size again.
                sizeInBytes = nil
                for (key, slot) in slots where slot.isLoaded {
                    // Written through as it was made, pending or not: a different object was
                    // written after it, and is taken in however the change was heard.
                    let current = backend.object(forKey: key)
                    if !StoredObject.same(slot.object, current) {
                        slot.isPending = false
                        change(slot, to: current, origin: .otherProcess, &after)
                        changed = true
                    }
                }
            case .unchanged:
                break
            }
            return changed || administrationChanged
        }
    }

    /// Whether two suites' contents hold the same keys and values.
    static func same(_ first: [DefaultsStoredKey: StoredObject]?, _ second: [DefaultsStoredKey: StoredObject])
        -> Bool
    {
        guard let first, first.count == second.count else { return false }
        return first.allSatisfy { key, object in StoredObject.same(Optional(object), second[key]) }
    }

    /// Takes in the contents a commit found and wrote: keys changed by another process since
    /// this one loaded them, and not written here since, get the new object. Returns whether
    /// these are the first contents the suite has: the caller then settles a failed read of
    /// the administrator's layer (``settleAdministrationFailure()``), holding no lock.
    func refresh(from committed: SuiteContents, _ after: inout AfterUnlock) -> Bool {
        after.report(committed.problem)
        guard let contents = committed.values else { return false }
        let isFirst = !hasLoaded
        takeIn(contents, origin: .otherProcess, &after)
        return isFirst
    }

    /// Makes `contents` the suite's known contents: loaded keys that differ, and were not
    /// written here since, change to them.
    func takeIn(
        _ contents: [DefaultsStoredKey: StoredObject], origin: DefaultsChangeOrigin, _ after: inout AfterUnlock
    ) {
        let previous = stored
        stored = contents
        hasLoaded = true
        for (key, slot) in slots where slot.isLoaded && !slot.isPending {
            let current = contents[key]
            if !StoredObject.same(slot.object, current) { change(slot, to: current, origin: origin, &after) }
        }
        // Keys no handle here has used: observers hear of them too (a key another program
        // added or removed), compared with the contents known before.
        guard !observers.isEmpty, let previous else { return }
        for key in Set(previous.keys).union(contents.keys) where slots[key]?.isLoaded != true {
            let (old, current) = (previous[key], contents[key])
            if StoredObject.same(old, current) { continue }
            let slot = slotLocked(for: key)
            slot.object = old
            slot.objectSize = nil
            slot.isLoaded = true
            change(slot, to: current, origin: origin, &after)
        }
    }
}
