import Foundation

extension DefaultsStore {
    /// Whether a write of `key` can be stored: `false` when an administrator locked it (see
    /// <doc:ManagedSettings>). Observers of the key hear when this changes, and so does
    /// observation tracking: a view that disables its control reads it again.
    ///
    /// ```swift
    /// Toggle("Send usage data", isOn: $telemetry).disabled(!store.isWritable(.telemetry))
    /// ```
    public func isWritable<Value>(_ key: DefaultsKey<Value>) -> Bool {
        key.binding(in: state).isWritable(in: state)
    }

    /// Where the value a read of `key` gives came from: a lock, the user, the administrator's
    /// default or the code.
    ///
    /// ```swift
    /// if case .locked(let file) = store.valueSource(of: .telemetry) { print("managed in \(file)") }
    /// ```
    public func valueSource<Value>(of key: DefaultsKey<Value>) -> DefaultsValueSource {
        key.binding(in: state).valueSource(in: state)
    }

    /// The user's own value of `key`, rules applied, even while a lock shows another: `nil`
    /// when the user has none, or what is stored cannot be read.
    ///
    /// ```swift
    /// let mine = store.userValue(of: .updateChannel)   // kept under the lock, back when it goes
    /// ```
    public func userValue<Value>(of key: DefaultsKey<Value>) -> Value? {
        key.binding(in: state).userValue(in: state)
    }

    /// The administrator's default of `key`, rules applied: `nil` when none is set.
    ///
    /// ```swift
    /// let suggested = store.administratorDefault(of: .updateChannel) ?? DefaultsKeys.updateChannel.defaultValue
    /// ```
    public func administratorDefault<Value>(of key: DefaultsKey<Value>) -> Value? {
        key.binding(in: state).administratorDefault(in: state)
    }

    /// A store of its own in memory, as ``inMemory()`` makes, managed by `administration`: for
    /// previews and tests of the read-only paths of a managed suite.
    ///
    /// ```swift
    /// var administration = DefaultsAdministration()
    /// administration.lock(.telemetry, to: false)
    /// let store = DefaultsStore.inMemory(administration: administration)
    /// ```
    public static func inMemory(administration: DefaultsAdministration) -> DefaultsStore {
        let state = SuiteRegistry.unlistedState(
            backend: MemoryBackend(), label: "memory", administration: .given(administration.layer))
        return DefaultsStore(state: state, durability: .immediate)
    }
}

extension UserDefault {
    /// Whether a write can be stored: `false` when an administrator locked the key. See
    /// ``DefaultsStore/isWritable(_:)``.
    ///
    /// ```swift
    /// Toggle("Send usage data", isOn: $telemetry).disabled(!$telemetry.isWritable)
    /// ```
    public var isWritable: Bool {
        let state = store.state
        return keyBinding.bound(to: state).isWritable(in: state)
    }

    /// Where the value a read gives came from. See ``DefaultsStore/valueSource(of:)``.
    public var valueSource: DefaultsValueSource {
        let state = store.state
        return keyBinding.bound(to: state).valueSource(in: state)
    }

    /// The user's own value, even while a lock shows another. See ``DefaultsStore/userValue(of:)``.
    public var userValue: Value? {
        let state = store.state
        return keyBinding.bound(to: state).userValue(in: state)
    }

    /// The administrator's default, `nil` when none is set. See
    /// ``DefaultsStore/administratorDefault(of:)``.
    public var administratorDefault: Value? {
        let state = store.state
        return keyBinding.bound(to: state).administratorDefault(in: state)
    }
}

extension KeyBinding {
    func isWritable(in state: SuiteState) -> Bool {
        state.managedState(of: slot).entry?.lockedBy == nil
    }

    func valueSource(in state: SuiteState) -> DefaultsValueSource {
        var (entry, user) = state.managedState(of: slot)
        // A value that cannot be read is none: a read gives the next layer down.
        if let object = user, case .failure = Conversion.decode(object, as: Value.self, key: key) { user = nil }
        if let entry { return entry.source(user: user) }
        return user == nil ? .codeDefault : .user
    }

    func userValue(in state: SuiteState) -> Value? {
        state.managedState(of: slot).user.flatMap(decoded)
    }

    func administratorDefault(in state: SuiteState) -> Value? {
        state.managedState(of: slot).entry?.administratorDefault.flatMap(decoded)
    }

    /// `object` decoded and with rules applied; `nil` when it cannot be read.
    private func decoded(_ object: StoredObject) -> Value? {
        guard case .success(let value) = Conversion.decode(object, as: Value.self, key: key) else { return nil }
        return applyingRules(to: value)
    }

    /// What a read gives when the object in force cannot be decoded: the layers under the
    /// user's, as when the user has no value. Not cached: the failure is, for `load()` to throw.
    /// `value` as stored, moved inside `bound` and read back; `value` itself when it is inside, or
    /// the bound cannot judge it.
    static func moved(_ value: Value, inside bound: ManagedBound, key: String) -> Value {
        guard case .success(let object) = Conversion.encode(value, key: key), let clamped = bound.clamped(object),
            case .success(let inside) = Conversion.decode(clamped, as: Value.self, key: key)
        else { return value }
        return inside
    }

    func valueUnderUnreadable(in state: SuiteState) -> Value {
        if let object = state.lock.withLock({ slot.managed?.inForce(nil) }),
            case .success(let value) = Conversion.decode(object, as: Value.self, key: key)
        {
            return value
        }
        return defaultInForce(in: state, caching: false)
    }

    /// The default a read gives when no layer holds a value: the code's, moved inside an
    /// administrator's range where one excludes it; with `caching`, cached as a read's decode is.
    func defaultInForce(in state: SuiteState, caching: Bool = true) -> Value {
        let value = defaultSource.value
        guard let (bound, generation) = state.lock.withLock({ slot.managed?.bound.map { ($0, slot.generation) } })
        else { return value }
        let inForce = Self.moved(value, inside: bound, key: key)
        guard caching else { return inForce }
        state.lock.withLock {
            if slot.generation == generation, slot.isLoaded {
                slot.cache(Result<Value, DefaultsError>.success(inForce))
            }
        }
        return inForce
    }
}

/// What an administrator set for one key, and where the value a read gives came from: for
/// programs that handle keys by name (a command line, a settings page, a configuration
/// provider). See ``DefaultsStore/administration(ofKey:)``.
public struct DefaultsKeyAdministration: Sendable, Hashable {
    /// Where the value a read gives came from.
    public let source: DefaultsValueSource
    /// The file that locks the key, if one does.
    public let lockedBy: String?
    /// The administrator's value: the default under the user's, or the one a lock fixes.
    public let administratorDefault: DefaultsStoredValue?
    /// The file that sets ``administratorDefault``.
    public let administratorDefaultSource: String?
    /// The values the administrator allows, in words ("1 to 50", "one of \"stable\", \"beta\""),
    /// if narrowed.
    public let bounds: String?
    /// The file that narrows them.
    public let boundsSource: String?
    /// The value a read gives, as stored, where a layer holds one: the lock's or the
    /// administrator's value, or the user's moved inside the bounds. `nil` when the code's
    /// default is read (or what is in force is no property-list value).
    public let valueInForce: DefaultsStoredValue?

    /// Whether a write of the key can be stored.
    public var isWritable: Bool { lockedBy == nil }
}

extension DefaultsStore {
    /// What an administrator set for the key named `key`, scalar for scalar as stored, and
    /// where its value comes from.
    ///
    /// ```swift
    /// let telemetry = store.administration(ofKey: "telemetry")
    /// if let file = telemetry.lockedBy { print("Managed by your administrator (\(file))") }
    /// ```
    public func administration(ofKey key: String) -> DefaultsKeyAdministration {
        let state = self.state
        let (entry, user) = state.managedState(of: state.slot(for: key))
        let source = entry?.source(user: user) ?? (user == nil ? .codeDefault : .user)
        return DefaultsKeyAdministration(
            source: source, lockedBy: entry?.lockedBy,
            administratorDefault: entry?.administratorDefault.flatMap { DefaultsStoredValue(plistObject: $0.object) },
            administratorDefaultSource: entry?.administratorDefault == nil ? nil : entry?.defaultSource,
            bounds: entry?.bound?.description, boundsSource: entry?.bound == nil ? nil : entry?.boundSource,
            valueInForce: (entry.map { $0.inForce(user) } ?? user).flatMap {
                DefaultsStoredValue(plistObject: $0.object)
            })
    }

    /// The keys an administrator set a default, a lock or bounds for by name, in order (keys a
    /// prefix locks are not listed: ask ``administration(ofKey:)`` of a key).
    ///
    /// ```swift
    /// for key in store.administeredKeys() { print(key, store.administration(ofKey: key.name).source) }
    /// ```
    public func administeredKeys() -> [DefaultsStoredKey] {
        let state = self.state
        state.ensureAdministrationRead()
        return state.lock.withLock {
            guard let managed = state.managed else { return [] }
            return Set(managed.defaults.keys).union(managed.locks.keys).union(managed.bounds.keys).sorted()
        }
    }
}
