import Foundation

/// Loading the suite from its backend on first use, outside the suite's lock.
extension SuiteState {
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
    func ensureLoaded() {
        if BackendCall.loading == location { return }
        let due = lock.withLock { () -> Bool in
            if hasLoaded || transactionOnThisThread?.edit.wholeBase != nil { return false }
            return loads.isDue
        }
        guard due else { return }
        var after = AfterUnlock()
        defer { after.run() }
        let contents = BackendCall.$loading.withValue(location) { backend.load() }
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
