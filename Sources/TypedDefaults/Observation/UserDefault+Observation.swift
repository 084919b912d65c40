extension UserDefault where Value: Sendable {
    /// Calls `handler` with the old and new value after every change of the key: a write
    /// through any handle of the suite, a reset, or a write by another process.
    ///
    /// ```swift
    /// let observation = $theme.observe { change in
    ///     print("theme: \(change.oldValue) → \(change.newValue)")
    /// }
    /// ```
    ///
    /// Each change is delivered once, in the order the changes were made, on a serial queue of
    /// the suite's (not the thread that wrote). Keep the returned observation: callbacks stop
    /// when it is cancelled or released. Keys containing `.` or `@` work like any other.
    ///
    /// With `initial: true` the handler is first called with the current value (as both the
    /// old and the new value), then with each change, in order:
    ///
    /// ```swift
    /// let observation = $theme.observe(initial: true) { change in apply(change.newValue) }
    /// ```
    ///
    /// - Parameters:
    ///   - initial: whether `handler` is first called with the current value, as both the old and
    ///     the new value; `false` unless given.
    ///   - handler: called with the old and new value of each change, on the suite's serial queue.
    public func observe(
        initial: Bool = false, _ handler: @escaping @Sendable (DefaultsValueChange<Value>) -> Void
    ) -> DefaultsObservation {
        let (key, decode) = (key, typedDecoder())
        return store.state.addObserver(keys: [DefaultsStoredKey(key)], initial: initial) { change in
            handler(
                DefaultsValueChange(
                    key: key, oldValue: decode(change.oldObject), newValue: decode(change.newObject),
                    origin: change.origin))
        }
    }

    /// The current value, then the value after every change, as an asynchronous sequence.
    ///
    /// ```swift
    /// Task {
    ///     for await theme in $theme.values {
    ///         apply(theme)
    ///     }
    /// }
    /// ```
    ///
    /// The observation ends when the iterating task is cancelled or the sequence is dropped.
    public var values: AsyncStream<Value> {
        let decode = typedDecoder()
        return .observing { deliver in
            store.state.addObserver(keys: [DefaultsStoredKey(key)], initial: true) { change in
                deliver(decode(change.newObject))
            }
        }
    }

    /// Every change of the key with its old and new value, as an asynchronous sequence.
    ///
    /// ```swift
    /// for await change in $volume.changes where change.origin == .otherProcess {
    ///     print("another process set the volume to \(change.newValue)")
    /// }
    /// ```
    public var changes: AsyncStream<DefaultsValueChange<Value>> {
        .observing { observe($0) }
    }
}
