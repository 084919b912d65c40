extension DefaultsStore {
    /// Calls `handler` after every change of one of `keys` in the suite.
    ///
    /// ```swift
    /// let observation = store.observe(keys: ["theme", "volume"]) { change in
    ///     print("\(change.key) changed")
    /// }
    /// ```
    ///
    /// Changes arrive once each, in order, on a serial queue of the suite's. Read the new values
    /// through your properties, or ``storedValue(forKey:)``. Keys no handle in this process has
    /// used are heard of too when another process adds, changes or removes them in a suite's
    /// file (on Linux); through a `UserDefaults` object, only keys this process has read or
    /// written. With `initial: true`, each of `keys` is delivered first, as it is now.
    ///
    /// Keys are matched exactly, scalar for scalar (see ``DefaultsStoredKey``): an observer of
    /// `"caf\u{E9}"` does not hear of `"cafe\u{301}"`, which a suite may hold beside it.
    ///
    /// - Parameters:
    ///   - keys: the names of the keys to hear of, matched exactly: an array, a set, any sequence.
    ///   - initial: whether each key is delivered first, as it is now; `false` unless given.
    ///   - handler: called with each change, on the suite's serial queue.
    public func observe(
        keys: some Sequence<String>, initial: Bool = false,
        _ handler: @escaping @Sendable (DefaultsKeyChange) -> Void
    ) -> DefaultsObservation {
        observeKeys(Self.storedKeys(keys), initial: initial, handler)
    }

    /// Calls `handler` after every change of any key in the suite, as
    /// ``observe(keys:initial:_:)-(Sequence<String>,_,_)`` does for some; with `initial: true`,
    /// each key that holds a value is delivered first.
    ///
    /// ```swift
    /// let observation = store.observe { change in print("\(change.key) changed") }
    /// ```
    ///
    /// - Parameters:
    ///   - initial: whether each key that holds a value is delivered first; `false` unless given.
    ///   - handler: called with each change, on the suite's serial queue.
    public func observe(
        initial: Bool = false, _ handler: @escaping @Sendable (DefaultsKeyChange) -> Void
    ) -> DefaultsObservation {
        observeKeys(nil, initial: initial, handler)
    }

    /// Every change of one of `keys`, as an asynchronous sequence of what
    /// ``observe(keys:initial:_:)-(Sequence<String>,_,_)`` hands its callback.
    ///
    /// ```swift
    /// for await change in store.changes(keys: ["theme"]) { print(change.key) }
    /// ```
    ///
    /// - Parameters:
    ///   - keys: the names of the keys to hear of, matched exactly: an array, a set, any sequence.
    ///   - initial: whether the sequence starts with each key as it is now; `false` unless given.
    public func changes(keys: some Sequence<String>, initial: Bool = false) -> AsyncStream<DefaultsKeyChange> {
        let keys = Self.storedKeys(keys)
        return .observing { observeKeys(keys, initial: initial, $0) }
    }

    /// Every change of any key in the suite, as an asynchronous sequence of what
    /// ``observe(initial:_:)`` hands its callback.
    ///
    /// ```swift
    /// for await change in store.changes() { print(change.key) }
    /// ```
    ///
    /// - Parameter initial: whether the sequence starts with each key that holds a value; `false`
    ///   unless given.
    public func changes(initial: Bool = false) -> AsyncStream<DefaultsKeyChange> {
        .observing { observeKeys(nil, initial: initial, $0) }
    }

    /// The keys named `names`, each matched exactly.
    static func storedKeys(_ names: some Sequence<String>) -> Set<DefaultsStoredKey> {
        Set(names.map { DefaultsStoredKey($0) })
    }

    /// Observes `keys`, or every key when `nil`.
    func observeKeys(
        _ keys: Set<DefaultsStoredKey>?, initial: Bool, _ handler: @escaping @Sendable (DefaultsKeyChange) -> Void
    ) -> DefaultsObservation {
        state.addObserver(keys: keys, initial: initial) { change in
            handler(DefaultsKeyChange(key: change.key.name, origin: change.origin))
        }
    }

    /// Calls `handler` with the old and new value after every change of a typed key in this
    /// store, as ``UserDefault/observe(initial:_:)`` does for a property.
    ///
    /// ```swift
    /// let observation = store.observe(.theme) { change in
    ///     print("theme: \(change.oldValue) → \(change.newValue)")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - key: the typed key to observe; in this store, even when the key names another.
    ///   - initial: whether `handler` is first called with the current value, as both the old and
    ///     the new value; `false` unless given.
    ///   - handler: called with the old and new value of each change, on the suite's serial queue.
    public func observe<Value>(
        _ key: DefaultsKey<Value>, initial: Bool = false,
        _ handler: @escaping @Sendable (DefaultsValueChange<Value>) -> Void
    ) -> DefaultsObservation {
        UserDefault(key, store: self).observe(initial: initial, handler)
    }

    /// Every change of a typed key in this store, with its old and new value.
    ///
    /// ```swift
    /// for await change in store.changes(.volume) { print(change.newValue) }
    /// for await change in store.changes(.theme, initial: true) { apply(change.newValue) }
    /// ```
    ///
    /// - Parameters:
    ///   - key: the typed key to follow; in this store, even when the key names another.
    ///   - initial: whether the sequence starts with the current value, as both the old and the new
    ///     value; `false` unless given.
    public func changes<Value>(_ key: DefaultsKey<Value>, initial: Bool = false) -> AsyncStream<
        DefaultsValueChange<Value>
    > {
        .observing { observe(key, initial: initial, $0) }
    }

    /// Calls `handler` after every change of any of several typed keys, of any value types.
    ///
    /// ```swift
    /// let observation = store.observe(.theme, .fontSize) { change in
    ///     print("\(change.key) changed: redraw")
    /// }
    /// ```
    ///
    /// Read the new values through the keys (`store[.theme]`). With `initial: true`, each key is
    /// delivered first, as it is now.
    ///
    /// - Parameters:
    ///   - first: a key to observe.
    ///   - second: another key to observe.
    ///   - rest: any further keys to observe.
    ///   - initial: whether each key is delivered first, as it is now; `false` unless given.
    ///   - handler: called with each change, naming its key, on the suite's serial queue.
    public func observe<First, Second, each Rest>(
        _ first: DefaultsKey<First>, _ second: DefaultsKey<Second>, _ rest: repeat DefaultsKey<each Rest>,
        initial: Bool = false, _ handler: @escaping @Sendable (DefaultsKeyChange) -> Void
    ) -> DefaultsObservation {
        var keys: Set = [DefaultsStoredKey(first.name), DefaultsStoredKey(second.name)]
        for key in repeat each rest { keys.insert(DefaultsStoredKey(key.name)) }
        return observeKeys(keys, initial: initial, handler)
    }

    /// Every change of any of several typed keys, as an asynchronous sequence.
    ///
    /// ```swift
    /// for await change in store.changes(.theme, .fontSize) { redraw() }
    /// ```
    ///
    /// - Parameters:
    ///   - first: a key to follow.
    ///   - second: another key to follow.
    ///   - rest: any further keys to follow.
    ///   - initial: whether the sequence starts with each key as it is now; `false` unless given.
    public func changes<First, Second, each Rest>(
        _ first: DefaultsKey<First>, _ second: DefaultsKey<Second>, _ rest: repeat DefaultsKey<each Rest>,
        initial: Bool = false
    ) -> AsyncStream<DefaultsKeyChange> {
        .observing { observe(first, second, repeat each rest, initial: initial, $0) }
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
