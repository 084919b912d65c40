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

extension DefaultsStore {
    /// The current value of a typed key in this store, then its value after every change.
    @available(*, deprecated, message: "use changes(_:initial: true) and read each change's newValue")
    public func values<Value>(_ key: DefaultsKey<Value>) -> AsyncStream<Value> {
        UserDefault(key, store: self).currentThenChangedValues
    }
}

extension UserDefault where Value: Sendable {
    /// The current value, then the value after every change.
    @available(*, deprecated, message: "use changes(initial: true) and read each change's newValue")
    public var values: AsyncStream<Value> { currentThenChangedValues }

    /// Every change of the key with its old and new value.
    @available(*, deprecated, renamed: "changes(initial:)")
    public var changes: AsyncStream<DefaultsValueChange<Value>> { changes(initial: false) }

    /// The values the deprecated `values` sequences yield: the current one, then each new one.
    fileprivate var currentThenChangedValues: AsyncStream<Value> {
        let decode = typedDecoder()
        return .observing { deliver in
            store.state.addObserver(keys: [DefaultsStoredKey(key)], initial: true) { change in
                deliver(decode(change.newObject))
            }
        }
    }
}

extension Setting {
    /// Removes the stored value, so the default shows again.
    @available(*, deprecated, message: "use property.reset()")
    public func reset() { property.reset() }

    /// Calls `handler` after every change of the value.
    @available(*, deprecated, message: "use property.observe(initial:_:)")
    public func observe(
        initial: Bool = false, _ handler: @escaping @Sendable (DefaultsValueChange<Value>) -> Void
    ) -> DefaultsObservation {
        property.observe(initial: initial, handler)
    }

    /// The current value, then the value after every change.
    @available(*, deprecated, message: "use property.changes(initial: true) and read each change's newValue")
    public var values: AsyncStream<Value> { property.currentThenChangedValues }
}

extension Setting where Value == Bool {
    /// Whether the flag is on.
    @available(*, deprecated, renamed: "wrappedValue")
    public var isOn: Bool { wrappedValue }
}

extension SettingDescription {
    /// The value's type, as Swift writes it.
    @available(*, deprecated, renamed: "swiftType")
    public var type: String { swiftType }

    /// A description with every field given.
    @available(*, deprecated, message: "pass the type as swiftType:")
    public init(
        key: String, type: String, title: String, info: String, formattedDefaultValue: String, formattedValue: String,
        hasStoredValue: Bool, kind: Kind
    ) {
        self.init(
            key: key, swiftType: type, title: title, info: info, formattedDefaultValue: formattedDefaultValue,
            formattedValue: formattedValue, hasStoredValue: hasStoredValue, kind: kind)
    }
}

extension DefaultsStore {
    /// The key under which a suite records the last migration step it ran.
    @available(*, deprecated, renamed: "migrationVersionKey")
    public static var schemaVersionKey: String { migrationVersionKey }

    /// How many migration steps the suite has run.
    @available(*, deprecated, renamed: "migrationVersion")
    public var schemaVersion: Int { migrationVersion }
}
