extension DefaultsStore {
    /// Calls `handler` after every change of one of `keys` (`nil`: any key) in the suite.
    ///
    /// ```swift
    /// let observation = store.observe(keys: ["theme", "volume"]) { change in
    ///     print("\(change.key) changed")
    /// }
    /// ```
    ///
    /// Changes arrive once each, in order, on a serial queue of the suite's. Read the new values
    /// through your properties. Changes to keys no handle has read or written yet in this
    /// process are not seen until one does.
    public func observe(
        keys: Set<String>? = nil, _ handler: @escaping @Sendable (DefaultsKeyChange) -> Void
    ) -> DefaultsObservation {
        state.addObserver(keys: keys) { change in
            handler(DefaultsKeyChange(key: change.key, origin: change.origin))
        }
    }

    /// Every change of one of `keys` (`nil`: any key), as an asynchronous sequence.
    ///
    /// ```swift
    /// for await change in store.changes(keys: ["theme"]) { print(change.key) }
    /// ```
    public func changes(keys: Set<String>? = nil) -> AsyncStream<DefaultsKeyChange> {
        AsyncStream { continuation in
            let observation = observe(keys: keys) { continuation.yield($0) }
            continuation.onTermination = { _ in observation.cancel() }
        }
    }

    /// Reads the suite again, taking in writes this process could not see coming: plain
    /// `UserDefaults` writes in this process (synchronized to disk on Linux), or another process's
    /// when watching is not available. Observers hear of every key that changed.
    ///
    /// ```swift
    /// UserDefaults(suiteName: "com.example.app")!.set("dark", forKey: "theme")
    /// UserDefaults(suiteName: "com.example.app")!.synchronize()
    /// store.refresh()
    /// ```
    ///
    /// Another process's writes to a suite's file are noticed by themselves on Linux (inotify),
    /// typically within milliseconds.
    public func refresh() {
        state.reload()
    }
}
