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
                    key: key, oldValue: decode(change.oldObject, change.oldBound),
                    newValue: decode(change.newObject, change.newBound),
                    origin: change.origin))
        }
    }

    /// Every change of the key with its old and new value, as an asynchronous sequence: what
    /// ``observe(initial:_:)`` hands its handler, one element each.
    ///
    /// ```swift
    /// for await change in $volume.changes() where change.origin == .otherProcess {
    ///     print("another process set the volume to \(change.newValue)")
    /// }
    /// for await change in $theme.changes(initial: true) { apply(change.newValue) }
    /// ```
    ///
    /// The observation ends when the iterating task is cancelled or the sequence is dropped.
    ///
    /// - Parameter initial: whether the sequence starts with the current value, as both the old
    ///   and the new value; `false` unless given.
    public func changes(initial: Bool = false) -> AsyncStream<DefaultsValueChange<Value>> {
        .observing { observe(initial: initial, $0) }
    }
}

extension UserDefault {
    /// The value, its read reported to observation tracking when `object`, which declares the
    /// property, is `Observable`: the read of a class property, for a handle the class keeps in
    /// a `let` (what the settings macro expands to).
    @inlinable
    package func value(observedBy object: AnyObject) -> Value {
        let handle = handle
        if !handle.isOutsideObservable { handle.noteObservedRead(of: object) }
        return handle.binding.read(in: handle.store.ownState)
    }
}
