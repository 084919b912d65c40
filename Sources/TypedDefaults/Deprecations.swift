import Foundation

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

/// Any property-list value, as an untyped `Any`: a second spelling of ``DefaultsStoredValue``,
/// which is `Sendable`, `Hashable`, and refuses a value that is not a property list when it is
/// made rather than when it is written.
@available(*, deprecated, message: "store a DefaultsStoredValue: DefaultsStoredValue(propertyListObject:)")
public struct DefaultsPropertyList: DefaultsValue {
    /// The property-list object: a string, number, boolean, `Data`, `Date`, or an array or
    /// `String`-keyed dictionary of these.
    public let object: Any

    /// A value holding `object`, refused when written if it is not a property list.
    public init(_ object: Any) {
        self.object = object
    }

    public init(_propertyListObject object: Any) {
        self.object = object
    }

    public var _propertyListObject: Any { object }
}

extension UserDefault {
    /// Declares a stored property with a default value, in the suite of `defaults`.
    @available(*, deprecated, message: "pass store: DefaultsStore(defaults)")
    public init(wrappedValue defaultValue: Value, _ key: String, defaults: UserDefaults) {
        self.init(wrappedValue: defaultValue, key, store: DefaultsStore(defaults))
    }

    /// Declares an optional stored property whose default is `nil`, in the suite of `defaults`.
    @available(*, deprecated, message: "pass store: DefaultsStore(defaults)")
    public init(_ key: String, defaults: UserDefaults) where Value: ExpressibleByNilLiteral {
        self.init(wrappedValue: nil, key, store: DefaultsStore(defaults))
    }
}

extension DefaultsRule where Value: Sendable {
    /// Replaces a value for which `condition` holds with `replacement`.
    @available(*, deprecated, message: "chain .ensure(when:use:) on the key or property")
    public static func ensure(when condition: @escaping @Sendable (Value) -> Bool, use replacement: Value) -> Self {
        .replacing(when: condition, with: replacement)
    }

    /// Replaces a value that `isValid` rejects with the default.
    @available(*, deprecated, message: "chain .validate(_:) on the key or property")
    public static func validate(_ isValid: @escaping @Sendable (Value) -> Bool) -> Self {
        .defaultUnless(isValid)
    }

    /// Brings a value outside `range` to the nearer bound.
    @available(*, deprecated, message: "chain .clamped(to:) on the key or property")
    public static func clamped(to range: ClosedRange<Value>) -> Self where Value: Comparable {
        .nearestBound(in: range)
    }

    /// Replaces `nil` with `replacement`.
    @available(*, deprecated, message: "chain .whenNil(use:) on the key or property")
    public static func whenNil<Wrapped: Sendable>(use replacement: Wrapped) -> Self where Value == Wrapped? {
        .replacingNil(with: replacement)
    }
}

extension DefaultsMigration {
    /// A step of your own, with the stored objects of the whole suite as `Any`.
    @available(*, deprecated, message: "use editStoredValues(_:_:), whose body edits DefaultsStoredValues")
    public static func custom(
        _ summary: String, _ body: @escaping @Sendable (inout DefaultsMigrationValues) throws -> Void
    ) -> DefaultsMigration {
        DefaultsMigration(summary) { work in
            var values = DefaultsMigrationValues(work: work)
            try body(&values)
            work = try values.checkedWork()
        }
    }
}

/// The stored objects of a suite as `Any`, as a ``DefaultsMigration/custom(_:_:)`` step reads
/// and changes them.
@available(
    *, deprecated, message: "use DefaultsMigration.editStoredValues(_:_:), whose body edits DefaultsStoredValues"
)
public struct DefaultsMigrationValues {
    private(set) var work: MigrationWork

    init(work: MigrationWork) {
        self.work = work
    }

    /// Every key the suite holds, with this step's changes.
    public var keys: [String] {
        work.keys.sorted().map(\.name)
    }

    /// The stored object for `key` (`nil` when nothing is stored); set `nil` to remove it.
    public subscript(key: String) -> Any? {
        get { work[key]?.object }
        set { work[key] = newValue.map(StoredObject.init) }
    }

    /// The work, once every object this step stored is a property list.
    func checkedWork() throws -> MigrationWork {
        for (key, object) in work.changes {
            guard let object = object?.object else { continue }
            if let problem = StoredObject.storageProblem(object) {
                throw DefaultsError.encodingFailed(key: key.name, underlying: problem.error(valueType: nil))
            }
        }
        return work
    }
}

/// A collection with the usual `init<S: Sequence>(_:)`; that initializer already satisfies
/// ``ExpressibleByArray``, the one protocol for a collection rebuilt from its elements.
@available(*, deprecated, renamed: "ExpressibleByArray")
public protocol ExpressibleBySequence: ExpressibleByArray {
    /// Creates the collection from a sequence of its elements.
    init<S: Sequence>(_ elements: S) where S.Element == Element
}

@available(*, deprecated, renamed: "ExpressibleByArray")
extension ExpressibleBySequence {
    /// Creates the collection from its elements, through its sequence initializer.
    public init(_ elements: [Element]) {
        // Pass a non-Array sequence so the generic initializer is chosen, not this one.
        self.init(elements[...])
    }
}
