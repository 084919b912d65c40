/// A key's name, default, rules and callbacks bound to its slot in one suite: what every
/// `UserDefault`, `Setting` and `store[.key]` reads and writes through.
///
/// One object, so that a handle is a reference and a state, cheap to copy: a `UserDefault`
/// declared in a class is copied on every read of the property. It holds no reference to its
/// suite's state (the caller passes it), so a typed key can keep bindings for the stores it was
/// used with (`DefaultsKey.binding(in:)`) without keeping those stores alive.
@usableFromInline final class KeyBinding<Value: DefaultsValueConvertible> {
    @usableFromInline let key: String
    @usableFromInline let slot: KeySlot
    /// The ``SuiteState/serial`` of the state the slot belongs to.
    @usableFromInline let serial: UInt64
    @usableFromInline let defaultSource: DefaultSource<Value>
    /// Applied in order to every value read and written.
    @usableFromInline let rules: [DefaultsRule<Value>]
    /// Kept alive here: the slot holds them weakly.
    let didSetHandlers: [DidSetHandler<Value>]
    /// `ObjectIdentifier(Value.self)`, found once: what a cached read compares.
    @usableFromInline let valueType = ObjectIdentifier(Value.self)
    /// Whether the binding declares its value type, as a typed key's does.
    let declaresType: Bool
    /// What a write of `Value` takes, found once here, not with dynamic casts on every write.
    private let writing: Writing

    private enum Writing {
        /// A value stored as one of the library's native types.
        case value
        /// A value stored as an `Int`, `Bool`, `Double`, `String` or `Data`: its representation is
        /// its object, always a property list, whose size its type tells.
        case ownObject
        /// An `Optional` stored so, whose `nil` may remove the key.
        case optional
        /// A value stored as a `DefaultsValue` of the app's own, which would not read back; an
        /// optional one may still remove the key.
        case refused(isOptional: Bool)
    }

    /// Binds `key` in `state`. `declaring` a typed key's value type lets the state report one
    /// name used with two types.
    init(
        key: String, defaultSource: DefaultSource<Value>, rules: [DefaultsRule<Value>],
        didSetHandlers: [DidSetHandler<Value>], in state: SuiteState, isTypedKey: Bool
    ) {
        self.key = key
        self.defaultSource = defaultSource
        self.rules = rules
        self.didSetHandlers = didSetHandlers
        declaresType = isTypedKey
        let isOptional = Value.self is any OptionalValue.Type
        writing =
            if !Value.DefaultsRepresentation.isBridged {
                .refused(isOptional: isOptional)
            } else if isOptional {
                .optional
            } else {
                StoredObject.isOwnObject(Value.DefaultsRepresentation.self) ? .ownObject : .value
            }
        slot = state.slot(for: key, declaring: isTypedKey ? Value.self : nil)
        serial = state.serial
    }

    /// The stored value, or the default when nothing readable is stored; rules applied.
    /// Inlined into the caller, where `Value` is concrete: a cached read is a lock, a type
    /// comparison and a copy.
    @inlinable
    func read(in state: SuiteState) -> Value {
        let value: Value
        switch state.cached(slot, as: Value.self) {
        case .value(let cached): value = cached
        case .nothingStored:
            switch defaultSource {
            case .fallback(let fallback): value = fallback
            case .dynamic(let makeDefault): value = makeDefault()
            case .initial: value = readThroughCache(in: state)  // stores the initial value
            }
        case .unknown: value = readThroughCache(in: state)
        }
        return rules.isEmpty ? value : applyingRules(to: value)
    }

    /// What a read returns when the cache answers it and nothing else has to run (no rule, no
    /// default to compute): `nil` otherwise, and the caller reads with ``read(in:)``. Calls
    /// nothing that could run the program's code, so a caller may hold the binding unretained
    /// across it.
    @inlinable @inline(__always)
    func cachedRead(in state: SuiteState) -> Value? {
        guard rules.isEmpty else { return nil }
        // A value the snapshot holds is read from it alone, without the lock; any other from
        // the cache under the lock, both inlined. A type of which the snapshot holds every
        // value takes the lock out of line.
        let isNothingStored: Bool
        if CacheSnapshot.holds(Value.self, identifiedBy: valueType),
            let found = state.snapshot(of: slot, as: Value.self, identifiedBy: valueType)
        {
            switch found {
            case .value(let cached): return cached
            case .nothingStored: isNothingStored = true
            case .unknown: return nil
            }
        } else if CacheSnapshot.holdsEveryValue(of: Value.self) {
            return nil
        } else {
            let found = state.cachedValueUnderLock(slot, as: Value.self, identifiedBy: valueType)
            if let value = found.value { return value }
            isNothingStored = found.isNothingStored
        }
        guard isNothingStored, case .fallback(let fallback) = defaultSource else { return nil }
        return fallback
    }

    /// `value` after each rule, in order.
    @usableFromInline
    func applyingRules(to value: Value) -> Value {
        rules.applied(to: value, defaultValue: defaultSource.value)
    }

    /// Whether assigning `value` should remove the key: it is `nil`, and so is the default. For
    /// an optional `Value` only, as ``writing`` tells.
    private func removes(_ value: Value) -> Bool {
        guard let value = value as? any OptionalValue, value.isNil else { return false }
        return (defaultSource.value as? any OptionalValue)?.isNil ?? false
    }

    /// Applies the rules, then encodes and stores `value`, or reports why it cannot be stored.
    /// Inlined, so the decode it caches is made where `Value` is concrete.
    @inlinable
    func write(_ value: Value, in state: SuiteState, durability: Durability, sizeLimit: DefaultsSizeLimit) {
        let value = rules.isEmpty ? value : applyingRules(to: value)
        store(
            value, decoded: CachedDecode(value), size: ScalarSize.of(value), in: state,
            durability: durability, sizeLimit: sizeLimit)
    }

    /// Encodes and stores `value`, caching `decoded` as its decode. `size` is the stored
    /// object's, when the caller measured it where `Value` is concrete.
    @usableFromInline
    func store(
        _ value: Value, decoded: CachedDecode, size: Int? = nil, in state: SuiteState, durability: Durability,
        sizeLimit: DefaultsSizeLimit
    ) {
        if _slowPath(state.mayBeIsolated), let copy = IsolatedSuites.copy(standingFor: state) {
            return bound(to: copy).store(
                value, decoded: decoded, size: size, in: copy, durability: durability, sizeLimit: sizeLimit)
        }
        switch writing {
        case .value: break
        case .ownObject:
            // What `Conversion.encodeNative` stores for these types, without its checks of an
            // object of unknown type: a dynamic cast, a walk and a measure on every write.
            let representation: Value.DefaultsRepresentation
            do {
                representation = try value.defaultsRepresentation()
            } catch {
                DefaultsError.report(.encodingFailed(key: key, underlying: error))
                return
            }
            state.write(
                ownObject: representation, objectSize: size ?? StoredObject.size(ofTyped: representation),
                caching: decoded, to: slot, durability: durability, sizeLimit: sizeLimit)
            return
        case .optional:
            if removes(value) {
                reset(in: state, durability: durability)
                return
            }
        case .refused(let isOptional):
            if isOptional, removes(value) {
                reset(in: state, durability: durability)
            } else {
                DefaultsError.report(NotANativeType.refusing(Value.DefaultsRepresentation.self, key: key))
            }
            return
        }
        switch Conversion.encodeNative(value, key: key) {
        case .success(let object):
            state.write(object, caching: decoded, to: slot, durability: durability, sizeLimit: sizeLimit)
        case .failure(let error):
            DefaultsError.report(error)
        }
    }

    /// A read that the cache could not answer: loads, decodes, caches and reports.
    @usableFromInline
    func readThroughCache(in state: SuiteState) -> Value {
        if _slowPath(state.mayBeIsolated), let copy = IsolatedSuites.copy(standingFor: state) {
            return bound(to: copy).read(in: copy)
        }
        switch readStored(in: state) {
        case .missing:
            return defaultInForce(in: state)
        case .cached(.failure):
            return valueUnderUnreadable(in: state)
        case .cached(.success(let value)), .decoded(.success(let value)):
            return value
        case .decoded(.failure(let error)):
            DefaultsError.report(error)
            return valueUnderUnreadable(in: state)
        }
    }

    /// Reads the stored value; for a key declared with `initialValue:` that finds nothing
    /// stored, stores the initial value first.
    private func readStored(in state: SuiteState) -> SuiteState.Read<Value> {
        let read = state.read(slot, as: Value.self)
        guard case .missing = read, case .initial(let initialValue) = defaultSource else { return read }
        // Not while the suite cannot be read, nor again after the store refused it: the
        // initial value shows, and the failure was reported once. Nor for a locked key, nor
        // one outside an administrator's bounds: a read writes nothing the store would refuse.
        guard state.mayStoreInitialValue(slot) else { return read }
        switch Conversion.encode(applyingRules(to: initialValue), key: key) {
        case .success(let object):
            guard state.admitsInitialValue(object, in: slot) else { return read }
            // Atomic, so that of two first reads, in two threads or processes, one stores.
            state.update(slot, within: .none) { current in current ?? object }
            let stored = state.read(slot, as: Value.self)
            if case .missing = stored { state.initialValueNotStored(slot) }
            return stored
        case .failure(let error):
            DefaultsError.report(error)
            return read
        }
    }

    /// Whether a read shows the default: nothing is stored, or what is stored reads, rules
    /// applied, as the default does. Stored data that cannot be read is not the default (and is
    /// reported, as a read reports it).
    func isDefaultValue(in state: SuiteState) -> Bool where Value: Equatable {
        let stored: Value
        switch state.read(slot, as: Value.self) {
        case .missing: return true
        case .cached(.failure): return false
        case .decoded(.failure(let error)):
            DefaultsError.report(error)
            return false
        case .cached(.success(let value)), .decoded(.success(let value)): stored = value
        }
        return applyingRules(to: stored) == applyingRules(to: defaultSource.value)
    }

    /// The stored value with rules applied, or the error a plain read would fall back from. A
    /// decode failure is thrown, not reported: the next plain read reports it.
    func load(in state: SuiteState) throws(DefaultsError) -> Value {
        switch readStored(in: state) {
        case .missing:
            throw .missingValue(key: key)
        case .cached(let result):
            return applyingRules(to: try result.get())
        case .decoded(let result):
            if case .failure = result { state.leaveFailureUnreported(slot) }
            return applyingRules(to: try result.get())
        }
    }

    /// Removes the stored value.
    func reset(in state: SuiteState, durability: Durability) {
        state.write(nil, caching: nil, to: slot, durability: durability, sizeLimit: .none)
    }

    /// Whether a value is stored under the key.
    func hasStoredValue(in state: SuiteState) -> Bool {
        state.hasObject(slot)
    }

    /// Changes the value atomically: see ``UserDefault/update(_:)``.
    func update(in state: SuiteState, within sizeLimit: DefaultsSizeLimit, _ body: (inout Value) -> Void) {
        // A type that would not read back is refused before anything is committed.
        if case .refused = writing {
            DefaultsError.report(NotANativeType.refusing(Value.DefaultsRepresentation.self, key: key))
            return
        }
        // Reported after the update: it runs under the suite's locks, which a handler might need.
        var problems: [DefaultsError] = []
        withoutActuallyEscaping(body) { body in
            state.update(slot, within: sizeLimit) { current in
                // With nothing stored, the body starts from what a read shows: the default
                // moved inside an administrator's range, which its result is judged by.
                var value = current == nil ? self.defaultInForce(in: state, caching: false) : self.defaultSource.value
                if let current {
                    switch Conversion.decode(current, as: Value.self, key: self.key) {
                    case .success(let stored): value = stored
                    case .failure(let error): problems.append(error)
                    }
                }
                value = self.applyingRules(to: value)
                body(&value)
                value = self.applyingRules(to: value)
                if case .optional = self.writing, self.removes(value) { return nil }
                switch Conversion.encode(value, key: self.key) {
                case .success(let object):
                    return object
                case .failure(let error):
                    problems.append(error)
                    return current
                }
            }
        }
        problems.forEach(DefaultsError.report)
    }

    /// Decodes a stored object as a read sees it: the default when missing or unreadable, rules
    /// applied. The function holds the key, default and rules but not this binding, for
    /// callbacks kept by the slot: holding the binding would keep its `didSet` handlers alive.
    func readDecoder() -> (StoredObject?, ManagedBound?) -> Value {
        let (key, defaultSource, rules) = (key, defaultSource, rules)
        return { Self.decodeAsRead($0, bound: $1, key: key, defaultSource: defaultSource, rules: rules) }
    }

    /// A stored object as a read sees it; with nothing in force under an administrator's
    /// `bound`, the default moved inside it, as ``defaultInForce(in:caching:)`` gives it.
    fileprivate static func decodeAsRead(
        _ object: StoredObject?, bound: ManagedBound?, key: String, defaultSource: DefaultSource<Value>,
        rules: [DefaultsRule<Value>]
    ) -> Value {
        var value = defaultSource.value
        if let object {
            if case .success(let stored) = Conversion.decode(object, as: Value.self, key: key) { value = stored }
        } else if let bound {
            value = moved(value, inside: bound, key: key)
        }
        return rules.applied(to: value, defaultValue: defaultSource.value)
    }

    /// Binds the `didSet` callbacks to the slot, decoding values as this binding reads them.
    /// `replacing` rebinds callbacks bound before, as when rules were added since.
    func bindDidSetHandlers(in state: SuiteState, replacing: Bool) {
        guard !didSetHandlers.isEmpty else { return }
        let decode = readDecoder()
        let callbacks = didSetHandlers.map { handler in
            let body = handler.body
            return (
                owner: handler as AnyObject,
                call: { (change: SlotChange) in
                    body(decode(change.newObject, change.newBound), decode(change.oldObject, change.oldBound))
                }
            )
        }
        state.bind(callbacks, to: slot, replacing: replacing)
    }
}

// @unchecked Sendable is sound: every stored property is a `let`; the slot is Sendable, and the
// default, rules and callbacks are Sendable when `Value` is.
extension KeyBinding: @unchecked Sendable where Value: Sendable {}

extension KeyBinding where Value: Sendable {
    /// ``readDecoder()`` for observers, which run on another thread.
    func sendableReadDecoder() -> @Sendable (StoredObject?, ManagedBound?) -> Value {
        let (key, defaultSource, rules) = (key, defaultSource, rules)
        return { Self.decodeAsRead($0, bound: $1, key: key, defaultSource: defaultSource, rules: rules) }
    }
}
