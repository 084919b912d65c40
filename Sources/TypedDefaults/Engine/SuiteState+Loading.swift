import Foundation

/// Loading the suite from its backend on first use, outside the suite's lock.
extension SuiteState {
    /// Runs `body` under `lock`, the suite loaded first as ``ensureLoaded()`` loads it: the
    /// reads, writes and sign-ups that need the suite's contents go through here.
    ///
    /// A suite once loaded stays loaded (`hasLoaded` is set under `lock` and never cleared), and
    /// for a loaded suite ``ensureLoaded()`` does nothing. So the lock that `body` takes anyway
    /// tells, by one read of `hasLoaded`: no task-local, no lookup of this thread's update, no
    /// second taking of the lock. Only a suite not loaded yet (a first use, a backend that could
    /// not be read, a use from inside its own load or from an update's body) goes through
    /// ``ensureLoaded()``, then takes the lock again. Either way `body` runs once, under the
    /// lock, after ``ensureLoaded()`` would have found nothing to do or has done it.
    ///
    /// A suite whose backend's changes are not heard yet (`isObserving`) goes through
    /// ``ensureLoaded()`` too, loaded or not, which starts hearing them: before this process
    /// first keeps anything it read (see ``startObserving()``).
    @inline(__always)
    func withLoadedLock<Result>(_ body: () -> Result) -> Result {
        if let result = lock.withLock({ hasLoaded && isObserving ? Optional(body()) : nil }) {
            return result
        }
        ensureLoaded()
        return lock.withLock(body)
    }

    /// Whether the suite is loaded, for callers that hold `lock`: it never calls the backend,
    /// which ``ensureLoaded()`` does without the lock. Inside a commit on this thread (a read or
    /// write in an update's body) the contents the commit read are the freshest, and stand in.
    func loadSuite(_ after: inout AfterUnlock) -> Bool {
        if hasLoaded { return true }
        if let whole = transactionOnThisThread?.edit.wholeBase {
            stored = whole
            hasLoaded = true
            return true
        }
        return false
    }

    /// Loads the suite from its backend on first use, without holding `lock`: a load may take
    /// seconds (a file lock, a database that does not answer) and may call back into this
    /// store, and cached reads on other threads must not wait for it. When it cannot be read,
    /// that is reported once, reads give defaults, and a later use tries again (a program's
    /// backend after a growing pause). Not from inside the engine's own load of the suite: a
    /// backend's `load()` reading its own store gets defaults.
    ///
    /// A failure to read a backend's administrator's layer is settled only by a load this call
    /// made and that read the values: a suite loaded before says nothing of whether the backend
    /// answers now, and the failure may be a refresh's in progress on another thread, which
    /// settles it itself.
    func ensureLoaded() {
        if BackendCall.loading == location { return }
        ensureAdministrationRead()
        let (due, startsObserving) = lock.withLock { () -> (Bool, Bool) in
            let startsObserving = !isObserving
            isObserving = true
            if hasLoaded || transactionOnThisThread?.edit.wholeBase != nil { return (false, startsObserving) }
            return (loads.isDue, startsObserving)
        }
        if startsObserving { startObserving() }
        guard due else { return }
        var after = AfterUnlock()
        defer { after.run() }
        let contents = BackendCall.$loading.withValue(location) { backend.loadContents() }
        defer { if !contents.isUnreadable { after.report(settleAdministrationFailure()) } }
        lock.withLock {
            // Loaded meanwhile by another thread, or taken in from a commit: that is fresher.
            guard !hasLoaded else { return }
            if contents.isUnreadable {
                if loads.loadFailed(backingOff: !backend.loadsCheaply) { after.report(contents.problem) }
                return
            }
            loads.loaded()
            stored = contents.values
            after.report(contents.problem)
            hasLoaded = true
        }
    }
}
