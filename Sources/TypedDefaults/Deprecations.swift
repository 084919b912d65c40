// Spellings kept so that code written against earlier versions still compiles, each with a
// warning that names its replacement. They go in the next major version.

extension DefaultsStore {
    /// Calls `handler` after every change of one of `keys`, or of any key when `keys` is `nil`.
    @available(
        *, deprecated,
        message: "pass the keys as any sequence to observe(keys:initial:_:), or call observe(initial:_:) for every key"
    )
    public func observe(
        keys: [String]?, initial: Bool = false, _ handler: @escaping @Sendable (DefaultsKeyChange) -> Void
    ) -> DefaultsObservation {
        observeKeys(keys.map(Self.storedKeys), initial: initial, handler)
    }

    /// Every change of one of `keys`, or of any key when `keys` is `nil`.
    @available(
        *, deprecated,
        message: "pass the keys as any sequence to changes(keys:initial:), or call changes(initial:) for every key"
    )
    public func changes(keys: [String]?, initial: Bool = false) -> AsyncStream<DefaultsKeyChange> {
        let keys = keys.map(Self.storedKeys)
        return .observing { observeKeys(keys, initial: initial, $0) }
    }
}
