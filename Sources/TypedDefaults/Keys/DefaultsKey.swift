/// A key declared once with its value type, its default, its rules and its callbacks.
///
/// ```swift
/// extension DefaultsKeys {
///     static let launchCount = DefaultsKey<Int>("launchCount", default: 0)
///     static let volume = DefaultsKey<Double>("volume", default: 0.5).clamped(to: 0...1)
///     static let installDate = DefaultsKey<Date>("installDate", initialValue: Date())
///     static let greeting = DefaultsKey<String>("greeting", dynamicDefault: { "Good \(partOfDay())" })
/// }
///
/// @UserDefault(.launchCount) var launchCount
/// store[.volume] = 0.8
/// ```
///
/// Three kinds of default, each explicit:
/// - `default:` a **fallback**, returned while nothing is stored and never written, so a later
///   version of your program can change it. ``DefaultsStore/register(_:)`` can also show it to
///   plain `UserDefaults` readers.
/// - `dynamicDefault:` a fallback **computed on every read** that finds nothing stored.
/// - `initialValue:` **stored by the first read** that finds nothing stored, so it stays fixed
///   from then on, across restarts and in every process (an install date, a generated
///   identifier).
///
/// A key can carry the store it lives in, so that every property, setting and observation of it
/// uses that store without naming it (an explicit `store:` still wins):
///
/// ```swift
/// extension DefaultsStore {
///     static let appGroup = DefaultsStore(suite: "group.com.example.shared")
/// }
/// extension DefaultsKeys {
///     static let sharedCount = DefaultsKey<Int>("sharedCount", default: 0, store: .appGroup)
/// }
/// @UserDefault(.sharedCount) var sharedCount  // in the app group's suite
/// ```
///
/// Keys are `Hashable` by name and store, so they can be kept in sets and used as dictionary keys.
///
/// Reading or writing a key with a value of another type does not compile. Using one name with
/// two value types in one suite is reported to ``DefaultsError/handler`` as
/// ``DefaultsError/keyTypeConflict(key:types:)`` when the second is first used there; the same
/// name may hold different types in different suites.
// @unchecked Sendable is sound: every stored property is a `let` of a Sendable type (`Value` is
// Sendable, and so are the default, the rules and the callbacks); the superclass has none.
public final class DefaultsKey<Value: DefaultsValueConvertible & Sendable>: DefaultsKeys, @unchecked Sendable {
    /// The store the key lives in, used wherever the key is used without a store; `nil` for a key
    /// used in ``DefaultsStore/standard`` unless another store is named at the use.
    public let store: DefaultsStore?
    let defaultSource: DefaultSource<Value>
    let rules: [DefaultsRule<Value>]
    let didSetHandlers: [DidSetHandler<Value>]
    /// The key bound in the stores it was used with.
    @usableFromInline let bindings = BindingCache<Value>()

    private init(
        name: String, store: DefaultsStore?, defaultSource: DefaultSource<Value>, rules: [DefaultsRule<Value>],
        didSetHandlers: [DidSetHandler<Value>]
    ) {
        self.store = store
        self.defaultSource = defaultSource
        self.rules = rules
        self.didSetHandlers = didSetHandlers
        super.init(name: name)
    }

    /// A key whose default is a fallback: read while nothing is stored, never written.
    ///
    /// ```swift
    /// static let theme = DefaultsKey<Theme>("theme", default: .system)
    /// ```
    ///
    /// - Parameters:
    ///   - name: the name the value is stored under.
    ///   - defaultValue: the value read while nothing is stored; it is never written, so a later
    ///     release can change it.
    ///   - store: the store the key lives in, used by every property, setting and observation of
    ///     the key that names no other; `nil` (the default) for `.standard`.
    public convenience init(_ name: String, default defaultValue: Value, store: DefaultsStore? = nil) {
        self.init(name: name, store: store, defaultSource: .fallback(defaultValue), rules: [], didSetHandlers: [])
    }

    /// A key whose default is computed by `makeDefault` on each read that finds nothing stored.
    ///
    /// ```swift
    /// static let deadline = DefaultsKey<Date>("deadline", dynamicDefault: { Date() + 3600 })
    /// ```
    ///
    /// - Parameters:
    ///   - name: the name the value is stored under.
    ///   - makeDefault: called on each read that finds nothing stored; what it returns is never stored.
    ///   - store: the store the key lives in, used by every property, setting and observation of
    ///     the key that names no other; `nil` (the default) for `.standard`.
    public convenience init(
        _ name: String, dynamicDefault makeDefault: @escaping @Sendable () -> Value, store: DefaultsStore? = nil
    ) {
        self.init(name: name, store: store, defaultSource: .dynamic(makeDefault), rules: [], didSetHandlers: [])
    }

    /// A key whose first read, finding nothing stored, stores `initialValue` and returns it.
    ///
    /// ```swift
    /// static let installID = DefaultsKey<UUID>("installID", initialValue: UUID())
    /// ```
    ///
    /// The value is stored atomically: when two processes read the key for the first time at
    /// once, both end up with the one that was stored first. Stored data that cannot be read is
    /// never replaced by it.
    ///
    /// - Parameters:
    ///   - name: the name the value is stored under.
    ///   - initialValue: the value the first read stores when it finds nothing stored.
    ///   - store: the store the key lives in, used by every property, setting and observation of
    ///     the key that names no other; `nil` (the default) for `.standard`.
    public convenience init(_ name: String, initialValue: Value, store: DefaultsStore? = nil) {
        self.init(name: name, store: store, defaultSource: .initial(initialValue), rules: [], didSetHandlers: [])
    }

    /// An optional key whose default is `nil`.
    ///
    /// ```swift
    /// static let myTeam = DefaultsKey<NFLTeam?>("myNFLTeam")
    /// ```
    ///
    /// - Parameters:
    ///   - name: the name the value is stored under.
    ///   - store: the store the key lives in, used by every property, setting and observation of
    ///     the key that names no other; `nil` (the default) for `.standard`.
    public convenience init(_ name: String, store: DefaultsStore? = nil) where Value: ExpressibleByNilLiteral {
        self.init(name, default: nil, store: store)
    }

    /// What a read returns while nothing readable is stored: the default with the rules
    /// applied. It differs from the default as declared only where a rule changes the default:
    /// `.whenNil(use:)` on a `nil` default, or a default outside `clamped(to:)`.
    public var defaultValue: Value {
        let declared = defaultSource.value
        return rules.applied(to: declared, defaultValue: declared)
    }

    /// The default as declared, before rules. A key declared with `dynamicDefault:` computes it
    /// anew each time.
    var declaredDefaultValue: Value {
        defaultSource.value
    }

    /// The same key with `rule` applied after the existing rules.
    ///
    /// ```swift
    /// static let even = DefaultsKey<Int>("even", default: 0).adding(DefaultsRule { value, _ in value - value % 2 })
    /// ```
    public func adding(_ rule: DefaultsRule<Value>) -> DefaultsKey<Value> {
        DefaultsKey(
            name: name, store: store, defaultSource: defaultSource, rules: rules + [rule],
            didSetHandlers: didSetHandlers)
    }

    /// The same key with a callback run after every change of its value in a store where the
    /// key is used: a write through any handle (a property declared with this key or with its
    /// name, a subscript, another copy), a reset, or a write by another process.
    ///
    /// ```swift
    /// static let theme = DefaultsKey<Theme>("theme", default: .system).didSet { new, old in
    ///     print("theme changed from \(old) to \(new)")
    /// }
    /// ```
    ///
    /// The callback runs on the thread that made the change, right after it, with no lock held,
    /// so it may read and write settings. A reset passes the default as the new value. Values
    /// are passed as a read sees them: rules applied, and the default for a value not stored or
    /// unreadable. It applies in a store from the first time the key is used there (by a
    /// property, a subscript or ``DefaultsStore/register(_:)``).
    public func didSet(_ body: @escaping @Sendable (_ newValue: Value, _ oldValue: Value) -> Void) -> DefaultsKey<Value>
    {
        DefaultsKey(
            name: name, store: store, defaultSource: defaultSource, rules: rules,
            didSetHandlers: didSetHandlers + [DidSetHandler(body)])
    }

    override var keyStore: DefaultsStore? { store }

    override func reset(in store: DefaultsStore) {
        store.reset(self)
    }

    override package func schemaDeclaration(storedIn fallback: DefaultsStore) -> (any SchemaDeclaration)? {
        typedSchemaDeclaration(storedIn: fallback)
    }
}

extension DefaultsKey: DefaultsRuleChaining {}

extension DefaultsKey {
    /// The key bound to its slot in `state`, made and its callbacks bound on first use there.
    @inlinable
    func binding(in state: SuiteState) -> KeyBinding<Value> {
        bindings.withBinding(forState: state.serial) { $0 } ?? makeBinding(in: state)
    }

    /// A read of `key` in `state` that the cache did not answer: out of line, and static (the
    /// caller's `self` register stays as it is), so that the subscript's cached path ends in a
    /// jump here and saves no registers.
    @usableFromInline @inline(never)
    static func read(_ key: DefaultsKey, in state: SuiteState) -> Value {
        key.binding(in: state).read(in: state)
    }

    @usableFromInline
    func makeBinding(in state: SuiteState) -> KeyBinding<Value> {
        let binding = KeyBinding(
            key: name, defaultSource: defaultSource, rules: rules, didSetHandlers: didSetHandlers, in: state,
            isTypedKey: true)
        binding.bindDidSetHandlers(in: state, replacing: false)
        return bindings.keep(binding, isPermanent: state.isPermanent)
    }
}

/// Where a default comes from: a fixed fallback, a closure called on each read, or an initial
/// value that the first read stores.
@usableFromInline enum DefaultSource<Value> {
    case fallback(Value)
    case dynamic(@Sendable () -> Value)
    case initial(Value)

    @inlinable
    var value: Value {
        switch self {
        case .fallback(let value), .initial(let value): value
        case .dynamic(let make): make()
        }
    }

    /// The one value of a default that is not computed on each read.
    var fixedValue: Value? {
        switch self {
        case .fallback(let value), .initial(let value): value
        case .dynamic: nil
        }
    }
}

extension DefaultSource: Sendable where Value: Sendable {}

/// A `didSet` callback, shared by every copy of the key or property that declares it; its
/// identity is what binds it to a store's key once.
final class DidSetHandler<Value>: Sendable {
    let body: @Sendable (_ newValue: Value, _ oldValue: Value) -> Void

    init(_ body: @escaping @Sendable (_ newValue: Value, _ oldValue: Value) -> Void) {
        self.body = body
    }
}
