import Foundation

extension DefaultsStore {
    /// The value of a typed key, read and written like a dictionary's.
    ///
    /// ```swift
    /// store[.launchCount] += 1
    /// let team = store[.myTeam]
    /// store[.theme] = .dark
    /// ```
    ///
    /// The same as a ``UserDefault`` declared with the key: its default, rules and callbacks
    /// apply, and a read never fails. `+=` is a read and then a write; use ``update(_:_:)`` when
    /// another thread or process may change the key in between.
    @inlinable
    public subscript<Value>(key: DefaultsKey<Value>) -> Value {
        @inline(__always) get {
            // The binding borrowed from the key's cache for a read the cache answers.
            if let binding = key.bindings.fixedBinding(forState: ownState.serial),
                let cached = binding._withUnsafeGuaranteedRef({ $0.cachedRead(in: ownState) })
            {
                return cached
            }
            return DefaultsKey.read(key, in: ownState)
        }
        nonmutating set {
            key.binding(in: ownState).write(newValue, in: ownState, durability: durability, sizeLimit: sizeLimit)
        }
    }

    /// The value of a typed key in its own store: the ``DefaultsKey/store`` it was declared
    /// with, else ``standard``. Defaults' `Defaults[.key]`.
    ///
    /// ```swift
    /// extension DefaultsKeys {
    ///     static let accent = DefaultsKey<String>("accent", default: "blue", store: DefaultsStore(suite: "group.example"))
    /// }
    /// DefaultsStore[.accent] = "green"   // in group.example, as `@UserDefault(.accent)` reads it
    /// ```
    ///
    /// `store[.key]` reads the key in `store`, whatever store the key names.
    @inlinable
    public static subscript<Value>(key: DefaultsKey<Value>) -> Value {
        get { (key.store ?? .standard)[key] }
        set { (key.store ?? .standard)[key] = newValue }
    }

    /// Changes a key's value atomically, as ``UserDefault/update(_:)`` does.
    ///
    /// ```swift
    /// store.update(.launchCount) { $0 += 1 }
    /// ```
    ///
    /// - Parameters:
    ///   - key: the typed key whose value changes.
    ///   - body: changes, in place, the freshest stored value (or the default); what it leaves is stored.
    public func update<Value>(_ key: DefaultsKey<Value>, _ body: (inout Value) -> Void) {
        key.binding(in: state).update(in: state, within: sizeLimit, body)
    }

    /// Removes the keys' stored values, so their defaults show again.
    ///
    /// ```swift
    /// store.reset(.theme)
    /// store.reset(.theme, .fontSize, .launchCount)
    /// ```
    ///
    /// Each key's observers and `didSet` callbacks hear of its reset; the removals are committed
    /// as the store's ``Durability`` says, together when it coalesces writes.
    public func reset<each Value>(_ keys: repeat DefaultsKey<each Value>) {
        for key in repeat each keys {
            key.binding(in: state).reset(in: state, durability: durability)
        }
    }

    /// Removes the stored values of every key in `keys`, whatever their value types.
    ///
    /// ```swift
    /// let appearance: [DefaultsKeys] = [.theme, .fontSize]
    /// store.reset(appearance)
    /// ```
    public func reset(_ keys: some Sequence<DefaultsKeys>) {
        for key in keys { key.reset(in: self) }
    }

    /// Removes every key of the suite: typed keys, keys read by name, and keys this program
    /// never declared (another program's, or an older version's).
    ///
    /// ```swift
    /// store.removeAll()  // "Reset all settings"
    /// ```
    ///
    /// Observers and `didSet` callbacks hear of each key that changed, and the removals are
    /// committed together, in one write of the suite's file. A suite whose file cannot be read
    /// is left as it is (the error goes to ``DefaultsError/handler``): which keys it holds is
    /// unknown. A plain `UserDefaults` object also reads registered and global values; a key
    /// only they provide keeps its value.
    public func removeAll() {
        state.removeAll(durability: durability)
    }

    /// Whether a read of the key shows its default: nothing is stored, or the stored value equals
    /// the default (rules applied to both).
    ///
    /// ```swift
    /// if store.isDefaultValue(.theme) { print("theme not customized") }
    /// ```
    ///
    /// Stored data that cannot be read is not the default: the method returns `false`, and
    /// reports the error as a read does.
    public func isDefaultValue<Value: Equatable>(_ key: DefaultsKey<Value>) -> Bool {
        key.binding(in: state).isDefaultValue(in: state)
    }

    /// Registers the keys' defaults with `UserDefaults`, so that plain `UserDefaults` readers
    /// of the suite see them while nothing is stored.
    ///
    /// ```swift
    /// try DefaultsStore.standard.register(.launchCount, .theme)
    /// UserDefaults.standard.string(forKey: "theme")   // "system"
    /// ```
    ///
    /// Registering is optional: TypedDefaults itself always falls back to a key's default, and
    /// nothing is written to disk. A registered default is the key's default with its rules
    /// applied; a key declared with `initialValue:` registers its initial value. Registration
    /// lasts until the process ends. On Linux `UserDefaults` keeps one registration domain for
    /// the whole process, so plain readers of *every* suite see the registered values; on Apple
    /// platforms it is the domain of the store's `UserDefaults` object. An in-memory store has
    /// no plain readers and registers nothing.
    ///
    /// - Throws: ``DefaultsError/encodingFailed(key:underlying:)`` for a key whose default
    ///   cannot be encoded, or one declared with `dynamicDefault:`, which has no one value to
    ///   register. Nothing is registered then.
    public func register<each Value>(_ keys: repeat DefaultsKey<each Value>) throws(DefaultsError) {
        var objects: [DefaultsStoredKey: StoredObject] = [:]
        for key in repeat each keys {
            let binding = key.binding(in: state)
            guard let value = key.defaultSource.fixedValue else {
                throw .encodingFailed(key: key.name, underlying: DynamicDefaultNotRegistrable())
            }
            let object = try Conversion.encode(binding.applyingRules(to: value), key: key.name).get()
            // A `nil` default: nothing to register (the nil marker would show to plain readers).
            if NilMarker.depth(of: object.object) == 0 { continue }
            objects[DefaultsStoredKey(key.name)] = object
        }
        state.backend.register(objects)
    }
}

/// A default computed on each read cannot be registered: it has no one value.
struct DynamicDefaultNotRegistrable: Error, CustomStringConvertible {
    var description: String {
        "the default is computed on each read (dynamicDefault:), so it has no one value to register"
    }
}
