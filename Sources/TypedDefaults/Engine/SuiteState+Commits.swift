import Foundation

/// Commits: updates, edits and flushes, each under the commit lock and the backend's own, and
/// the retries of commits that failed.
extension SuiteState {
    /// Replaces the slot's object with what `transform` returns for the freshest stored object,
    /// atomically: under the backend's cross-process lock for a plist file. Called from inside
    /// another update's `transform` on the same thread, it joins that update's commit. An update
    /// that would take the suite past `sizeLimit` stores nothing and is reported.
    func update(
        _ slot: KeySlot, within sizeLimit: DefaultsSizeLimit, _ transform: @escaping (StoredObject?) -> StoredObject?
    ) {
        var after = AfterUnlock()
        defer { after.run() }
        ensureAdministrationRead()
        // A locked key is not updated at all: the body never runs, and nothing is committed.
        if let lockedBy = lock.withLock({ slot.managed?.lockedBy }) {
            return after.report(.locked(key: slot.key.name, path: lockedBy))
        }
        let transform = managedTransform(slot, transform)
        if let transaction = joinableTransaction() {
            transaction.take(takePending())
            let updated = transform(transaction.edit[slot.key])
            if let problem = lock.withLock({ slot.managed?.refusal(of: updated, key: slot.key.name) }),
                !StoredObject.same(updated, transaction.edit[slot.key])
            {
                return after.report(problem)
            }
            let verdict = Self.judgeUpdate(
                of: slot.key, to: updated, in: transaction.edit, within: sizeLimit, path: location)
            switch verdict {
            case .refused(let error): return after.report(error)
            case .admitted(let warning): after.report(warning)
            }
            transaction.join([slot.key: updated])
            lock.withLock { change(slot, to: updated, origin: .thisProcess, &after) }
            return
        }
        let limit = CommitWait.lock
        ensureLoaded()
        do {
            try commits.lock(waitingAtMost: limit, inAll: true)
        } catch {
            after.report(Self.updateFailure(error, key: slot.key.name))
            return
        }
        var firstContents = false
        defer { if firstContents { after.report(settleAdministrationFailure()) } }
        defer { commits.unlock() }
        let changes = takePending()
        var updated: StoredObject?
        var transaction: Transaction?
        var warningDue: DefaultsError?
        do {
            let contents = try backend.commit(changes, waitingAtMost: limit, repairing: true) {
                edit throws(DefaultsError) in
                let running = Transaction(edit: edit, retrying: transaction, changes: changes)
                transaction = running
                self.lock.withLock { self.transaction = running }
                defer { self.lock.withLock { self.transaction = nil } }
                updated = transform(edit[slot.key])
                // Writes the body made join the commit, so the update is measured with them.
                running.take(self.takePending())
                if let problem = self.lock.withLock({ slot.managed?.refusal(of: updated, key: slot.key.name) }),
                    !StoredObject.same(updated, edit[slot.key])
                {
                    throw problem
                }
                let verdict = Self.judgeUpdate(
                    of: slot.key, to: updated, in: edit, within: sizeLimit, path: self.location)
                switch verdict {
                case .refused(let error): throw error
                case .admitted(let warning): warningDue = warning
                }
                edit[slot.key] = updated
            }
            after.report(warningDue)
            lock.withLock {
                // This process's update first, so taking in the file does not mistake it for
                // another process's change.
                change(slot, to: updated, origin: .thisProcess, &after)
                firstContents = refresh(from: contents, &after)
                forgetBases(of: transaction?.changes ?? changes)
            }
        } catch {
            // Whatever nested updates and flushes joined stays pending too.
            restore(transaction?.changes ?? changes)
            after.report(Self.updateFailure(error, key: slot.key.name))
        }
    }

    /// What an update that could not commit reports: that the update was not stored, where a
    /// write failure would say the changes are kept.
    static func updateFailure(_ error: DefaultsError, key: String) -> DefaultsError {
        switch error {
        case .writeFailed(let path, let underlying), .readFailed(let path, let underlying):
            .updateFailed(key: key, path: path, underlying: underlying)
        default:
            error
        }
    }

    /// Runs `body` on the freshest contents of the suite and commits what it changed, with every
    /// pending change, under the backend's cross-process lock, in one replacement of the file.
    /// When `body` throws, nothing is written and pending changes stay pending. Observers hear
    /// of each key `body` changed. Updates and flushes that `body` makes on this suite join the
    /// commit; a commit of several keys asked for from inside an update's body throws rather
    /// than wait for the lock its own thread holds. With `committingPending` false (a dry run),
    /// pending changes are left pending and out of `body`'s view. With `repairing` false, a
    /// suite whose file does not parse is left as it is and the commit throws.
    func commitEdit(
        committingPending: Bool = true, repairing: Bool = true, _ body: @escaping SuiteEdit.Body
    ) throws(DefaultsError) {
        guard joinableTransaction() == nil else {
            throw .writeFailed(path: location, underlying: NestedCommit())
        }
        var after = AfterUnlock()
        defer { after.run() }
        ensureAdministrationRead()
        let limit = CommitWait.lock
        try commits.lock(waitingAtMost: limit, inAll: true)
        var firstContents = false
        defer { if firstContents { after.report(settleAdministrationFailure()) } }
        defer { commits.unlock() }
        let changes = committingPending ? takePending() : [:]
        var edited: [DefaultsStoredKey: StoredObject?] = [:]
        var transaction: Transaction?
        do {
            let contents = try backend.commit(changes, waitingAtMost: limit, repairing: repairing) {
                edit throws(DefaultsError) in
                let running = Transaction(edit: edit, retrying: transaction, changes: changes)
                transaction = running
                self.lock.withLock { self.transaction = running }
                defer { self.lock.withLock { self.transaction = nil } }
                try body(edit)
                // A change of a locked key, or one past its bounds, refuses the whole edit.
                if let problem = self.lock.withLock({ self.managedRefusal(of: edit) }) { throw problem }
                edited = edit.changes
            }
            lock.withLock {
                // This process's edit first, so taking in the file does not mistake it for
                // another process's change. Keys a nested update changed are current already.
                for (key, object) in edited {
                    let slot = slotLocked(for: key)
                    if !(slot.isLoaded && StoredObject.same(slot.object, object)) {
                        change(slot, to: object, origin: .thisProcess, &after)
                    }
                }
                stored?.apply(edited)
                firstContents = refresh(from: contents, &after)
                forgetBases(of: transaction?.changes ?? changes)
            }
        } catch {
            // Whatever nested updates and flushes joined stays pending too.
            restore(transaction?.changes ?? changes)
            throw error
        }
    }

    /// Commits every pending change to the backend, waiting at most `limit` seconds for other
    /// writers. Called from inside an update's `transform`, the changes join that update's
    /// commit and are written with it.
    func flush(waitingAtMost limit: TimeInterval = CommitWait.lock, atExit: Bool = false) throws(DefaultsError) {
        if let transaction = joinableTransaction() {
            transaction.take(takePending())
            return
        }
        var after = AfterUnlock()
        defer { after.run() }
        if atExit {
            // A flush already committing is waited for only where commits end within the
            // engine's bounds (a file); a program's backend keeps the exit's own bound.
            try commits.lockBeforeExit(waitingAtMost: limit, forUnderwayFlush: backend.loadsCheaply)
        } else {
            // Once the process is ending, only the flush at exit commits.
            if SuiteRegistry.isExiting { return }
            try commits.lock(waitingAtMost: limit)
            // The exit may have begun while this waited for the lock, and its flush may be
            // waiting for this one: it commits these changes, within its own bound.
            if SuiteRegistry.isExiting {
                commits.unlock()
                return
            }
        }
        var firstContents = false
        // Not at exit, where the layer no longer matters.
        defer { if firstContents, !atExit { after.report(settleAdministrationFailure()) } }
        defer { commits.unlock() }
        let changes = takePending()
        guard !changes.isEmpty else { return }
        do {
            // Underway until it gives the lock back, taking in what it committed included: an
            // exit that gave up on it then (taking in 10,000 keys outlasted the exit's 2 s under
            // ThreadSanitizer on a loaded machine) lost the writes made meanwhile.
            try commits.flushing { () throws(DefaultsError) in
                let contents = try backend.commit(changes, waitingAtMost: limit, repairing: true, edit: nil)
                lock.withLock {
                    firstContents = refresh(from: contents, &after)
                    forgetBases(of: changes)
                }
            }
        } catch {
            restore(changes)
            throw error
        }
    }

    /// The flush at exit or on a termination signal: waits less, and from inside an update's
    /// body (`exit()` called there) writes what that update's commit holds so far.
    func flushBeforeExit() {
        if let transaction = joinableTransaction() {
            transaction.take(takePending())
            do {
                try transaction.edit.writeNow()
            } catch {
                DefaultsError.report(error)
            }
            return
        }
        flushReporting(waitingAtMost: CommitWait.lockAtExit, retrying: false, atExit: true)
    }

    /// ``flush(waitingAtMost:)`` for callers with no one to throw to: errors go to the handler.
    func flushReporting(
        waitingAtMost limit: TimeInterval = CommitWait.lock, retrying: Bool = true, atExit: Bool = false
    ) {
        do {
            try flush(waitingAtMost: limit, atExit: atExit)
            lock.withLock { retries.succeeded() }
        } catch {
            // A failed commit keeps its changes pending and is retried, with a growing wait,
            // until one succeeds: a backend or disk that comes back gets them in order. Reported
            // once per run of failures.
            let (report, retryAfter) = lock.withLock {
                retries.failed(retrying: retrying, hasPending: !pending.isEmpty)
            }
            if report { DefaultsError.report(error) }
            if let retryAfter {
                DispatchQueue.global().asyncAfter(deadline: .now() + retryAfter) {
                    self.lock.withLock { self.retries.retryStarted() }
                    self.flushReporting()
                }
            }
        }
    }

    /// Takes every pending change for a commit.
    func takePending() -> [DefaultsStoredKey: StoredObject?] {
        lock.withLock { pending.takeAll() }
    }

    /// Forgets what the backend held under keys now committed. A key written again while the
    /// commit ran keeps a base, now what the commit stored: the backend holds this process's own
    /// write, which an explicit refresh must not take for a later one of another process's (it
    /// would drop the newer write, never committed, and show the older).
    func forgetBases(of changes: [DefaultsStoredKey: StoredObject?]) {
        for (key, change) in changes {
            guard let slot = slots[key] else { continue }
            let writtenAgain = slot.isPending && backend.commitsOnSchedule
            slot.pendingBase = writtenAgain ? .some(stored.map { $0[key] } ?? change) : nil
        }
    }

    /// Puts back changes whose commit failed, unless the key was written again since. Called
    /// by the commit that took them, still holding `commits`: each slot still holds its change
    /// (see `PendingChanges`).
    func restore(_ changes: [DefaultsStoredKey: StoredObject?]) {
        lock.withLock {
            for key in changes.keys {
                if let slot = slots[key], !slot.isPending { markPending(slot) }
            }
        }
    }

    /// `transform` as an update of a managed key runs it: on the value a read shows, and storing
    /// nothing of the user's when it leaves that value as it is.
    private func managedTransform(
        _ slot: KeySlot, _ transform: @escaping (StoredObject?) -> StoredObject?
    ) -> (StoredObject?) -> StoredObject? {
        guard let entry = lock.withLock({ slot.managed }) else { return transform }
        return { user in
            let shown = entry.inForce(user)
            let updated = transform(shown)
            return StoredObject.same(updated, shown) ? user : updated
        }
    }
}
