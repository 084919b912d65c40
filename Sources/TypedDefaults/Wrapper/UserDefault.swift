import Foundation

/// A property stored in `UserDefaults`, typed.
///
/// ```swift
/// @UserDefault("hasSeenSplashScreen") var hasSeenSplashScreen = false
/// @UserDefault("name") var name: String?
/// @UserDefault("count") var count: Int? = 42
/// @UserDefault("theme", defaults: UserDefaults(suiteName: "com.example.app")!) var theme = Theme.system
/// @UserDefault("draft", store: .inMemory()) var draft = ""
/// @UserDefault(.preferredName) var preferredName          // a typed key: see DefaultsKeys
/// ```
///
/// The value may be any ``DefaultsValueConvertible`` type. It works as a stored property of a
/// struct or class, as a local variable, and as a `static` property of a `@MainActor` type, and
/// it is `Sendable` when its value is.
///
/// - **The default is a fallback.** It is returned while nothing is stored and is never written,
///   so a later version of your program can change it.
/// - **Reads never fail.** Stored data that cannot be read as `Value` gives the default; the
///   error goes to ``DefaultsError/handler`` once per stored value, and the stored data is left
///   untouched until you assign. ``load()`` throws the error instead.
/// - **Writes that cannot be encoded are skipped** and reported; what was stored stays.
/// - **`nil` is kept.** Assigning `nil` stores an explicit `nil` when the default is not `nil`,
///   so it survives a restart; when the default is `nil` too, the key is removed. ``reset()``
///   always removes the key, bringing the default back.
/// - **Shared, cached and durable** through its ``DefaultsStore``: every handle on the suite
///   sees every write at once, repeated reads do not decode again, and writes reach the disk
///   within 100 ms and at normal exit, with no `synchronize()` call.
///
/// - **Rules and callbacks.** Rules (``DefaultsRuleChaining/clamped(to:)`` and the others) apply
///   on every read and write; ``didSet(_:)`` runs after every change through any handle.
///
/// The projected value (`$name`) is the wrapper itself, for ``key``, ``hasStoredValue``,
/// ``reset()``, ``load()`` and ``update(_:)``.
@propertyWrapper
public struct UserDefault<Value: DefaultsValueConvertible> {
    /// The key the value is stored under.
    public let key: String
    /// The store the value lives in.
    public let store: DefaultsStore
    @usableFromInline let slot: KeySlot
    @usableFromInline let defaultSource: DefaultSource<Value>
    /// Applied in order to every value read and written.
    @usableFromInline let rules: [DefaultsRule<Value>]
    /// Kept alive here: the slot holds them weakly.
    let didSetHandlers: [DidSetHandler<Value>]

    private init(
        key: String, defaultSource: DefaultSource<Value>, rules: [DefaultsRule<Value>],
        didSetHandlers: [DidSetHandler<Value>], store: DefaultsStore, isTypedKey: Bool = false
    ) {
        self.key = key
        self.defaultSource = defaultSource
        self.rules = rules
        self.didSetHandlers = didSetHandlers
        self.store = store
        slot = store.state.slot(for: key, declaring: isTypedKey ? Value.self : nil)
    }

    /// Declares a stored property with a default value, in `store`.
    ///
    /// ```swift
    /// @UserDefault("launchCount") var launchCount = 0
    /// ```
    public init(wrappedValue defaultValue: Value, _ key: String, store: DefaultsStore = .standard) {
        self.init(key: key, defaultSource: .fallback(defaultValue), rules: [], didSetHandlers: [], store: store)
    }

    /// Declares a stored property with a default value, in the suite of `defaults`.
    ///
    /// ```swift
    /// @UserDefault("theme", defaults: UserDefaults(suiteName: "com.example.app")!) var theme = Theme.system
    /// ```
    public init(wrappedValue defaultValue: Value, _ key: String, defaults: UserDefaults) {
        self.init(wrappedValue: defaultValue, key, store: DefaultsStore(defaults))
    }

    /// Declares an optional stored property whose default is `nil`.
    ///
    /// ```swift
    /// @UserDefault("name") var name: String?
    /// ```
    public init(_ key: String, store: DefaultsStore = .standard) where Value: ExpressibleByNilLiteral {
        self.init(wrappedValue: nil, key, store: store)
    }

    /// Declares an optional stored property whose default is `nil`, in the suite of `defaults`.
    public init(_ key: String, defaults: UserDefaults) where Value: ExpressibleByNilLiteral {
        self.init(wrappedValue: nil, key, defaults: defaults)
    }

    /// The value read while nothing readable is stored, before rules. A key declared with
    /// `dynamicDefault:` computes it anew each time.
    @inlinable
    public var defaultValue: Value {
        defaultSource.value
    }

    /// The stored value, or ``defaultValue`` when nothing readable is stored; rules applied.
    @inlinable
    public var wrappedValue: Value {
        get {
            let value: Value
            switch store.state.cached(slot, as: Value.self) {
            case .value(let cached): value = cached
            case .nothingStored:
                switch defaultSource {
                case .fallback(let fallback): value = fallback
                case .dynamic(let makeDefault): value = makeDefault()
                case .initial: value = readThroughCache()  // stores the initial value
                }
            case .unknown: value = readThroughCache()
            }
            return rules.isEmpty ? value : applyingRules(to: value)
        }
        nonmutating set {
            write(newValue)
        }
    }

    /// `value` after each rule, in order.
    @usableFromInline
    func applyingRules(to value: Value) -> Value {
        rules.applied(to: value, defaultValue: defaultValue)
    }

    /// Whether assigning `value` should remove the key: it is `nil`, and so is the default.
    private func removes(_ value: Value) -> Bool {
        guard let value = value as? any OptionalValue, value.isNil else { return false }
        return (defaultValue as? any OptionalValue)?.isNil ?? false
    }

    /// Applies the rules, then encodes and stores `value`, or reports why it cannot be stored.
    @usableFromInline
    func write(_ value: Value) {
        let value = applyingRules(to: value)
        if removes(value) {
            reset()
            return
        }
        switch Conversion.encode(value, key: key) {
        case .success(let object):
            store.state.write(object, decoded: value, to: slot, durability: store.durability)
        case .failure(let error):
            DefaultsError.report(error)
        }
    }

    /// A read that the cache could not answer: loads, decodes, caches and reports.
    @usableFromInline
    func readThroughCache() -> Value {
        switch readStored() {
        case .missing, .cached(.failure):
            return defaultValue
        case .cached(.success(let value)), .decoded(.success(let value)):
            return value
        case .decoded(.failure(let error)):
            DefaultsError.report(error)
            return defaultValue
        }
    }

    /// Reads the stored value; for a key declared with `initialValue:` that finds nothing
    /// stored, stores the initial value first.
    private func readStored() -> SuiteState.Read<Value> {
        let read = store.state.read(slot, as: Value.self)
        guard case .missing = read, case .initial(let initialValue) = defaultSource else { return read }
        switch Conversion.encode(applyingRules(to: initialValue), key: key) {
        case .success(let object):
            // Atomic, so that of two first reads, in two threads or processes, one stores.
            store.state.update(slot) { current in current ?? object }
            return store.state.read(slot, as: Value.self)
        case .failure(let error):
            DefaultsError.report(error)
            return read
        }
    }

    /// The wrapper itself: `$name.key`, `$name.reset()`, `$name.load()`.
    public var projectedValue: UserDefault<Value> {
        self
    }

    /// Whether a value is stored under the key, as opposed to the default being shown.
    ///
    /// ```swift
    /// if !$name.hasStoredValue { print("Using the default name") }
    /// ```
    public var hasStoredValue: Bool {
        store.state.hasObject(slot)
    }

    /// Reads the stored value, rules applied, throwing where a plain read would fall back to
    /// the default.
    ///
    /// ```swift
    /// do { let layout = try $layout.load() } catch { print(error) }
    /// ```
    ///
    /// - Throws: ``DefaultsError/missing(key:)`` when nothing is stored,
    ///   ``DefaultsError/typeMismatch(key:expected:found:)`` or
    ///   ``DefaultsError/corrupt(key:underlying:)`` when what is stored cannot be read.
    public func load() throws(DefaultsError) -> Value {
        switch readStored() {
        case .missing: throw .missing(key: key)
        case .cached(let result), .decoded(let result): return applyingRules(to: try result.get())
        }
    }

    /// Removes the stored value, so the default shows again.
    ///
    /// ```swift
    /// $theme.reset()
    /// ```
    public func reset() {
        store.state.write(nil, decoded: defaultValue, to: slot, durability: store.durability)
    }

    /// Changes the value atomically: `body` gets the freshest stored value and what it leaves
    /// is stored, with no write from another handle, thread or process in between.
    ///
    /// ```swift
    /// $launchCount.update { $0 += 1 }
    /// ```
    ///
    /// On Linux the suite's file is locked, re-read and rewritten around `body`, so two
    /// processes incrementing one counter lose no increment; this makes each update cost a file
    /// write (about a millisecond with a few keys). On Apple platforms it is atomic within the
    /// process. Stored data that cannot be read is reported and `body` starts from the default.
    /// Rules apply to the value `body` starts from and to the value it leaves.
    public func update(_ body: (inout Value) -> Void) {
        // Reported after the update: it runs under the suite's locks, which a handler might need.
        var problems: [DefaultsError] = []
        withoutActuallyEscaping(body) { body in
            store.state.update(slot) { current in
                var value = defaultValue
                if let current {
                    switch Conversion.decode(current, as: Value.self, key: key) {
                    case .success(let stored): value = stored
                    case .failure(let error): problems.append(error)
                    }
                }
                value = applyingRules(to: value)
                body(&value)
                value = applyingRules(to: value)
                if removes(value) { return nil }
                switch Conversion.encode(value, key: key) {
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
}

extension UserDefault: Sendable where Value: Sendable {}

extension UserDefault where Value: Sendable {
    /// Declares a stored property for a typed key, with the key's default and rules; the key's
    /// `didSet` callbacks apply in `store` from now on.
    ///
    /// ```swift
    /// extension DefaultsKeys {
    ///     static let preferredName = DefaultsKey<String>("preferredName", default: "Bobbie Wasabi")
    /// }
    /// @UserDefault(.preferredName) var preferredName
    /// ```
    public init(_ key: DefaultsKey<Value>, store: DefaultsStore = .standard) {
        self.init(
            key: key.name, defaultSource: key.defaultSource, rules: key.rules, didSetHandlers: key.didSetHandlers,
            store: store, isTypedKey: true)
        bindDidSetHandlers(replacing: false)
    }

    /// The same property with a callback run after every change of its value: a write through
    /// any handle of the key in the store (this one, a copy, another property or subscript on
    /// the same key), a reset, or a write by another process.
    ///
    /// ```swift
    /// struct Player {
    ///     @UserDefault var volume: Double
    ///     init() {
    ///         _volume = UserDefault(wrappedValue: 0.5, "volume").didSet { new, old in
    ///             print("volume \(old) → \(new)")
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// The callback runs on the thread that made the change, right after it, with no lock held,
    /// so it may read and write settings. A reset passes the default as the new value. The
    /// callback lives as long as this property or a copy of it does.
    public func didSet(_ body: @escaping @Sendable (_ newValue: Value, _ oldValue: Value) -> Void) -> UserDefault<Value>
    {
        let withCallback = UserDefault(
            key: key, defaultSource: defaultSource, rules: rules,
            didSetHandlers: didSetHandlers + [DidSetHandler(body)],
            store: store)
        withCallback.bindDidSetHandlers(replacing: true)
        return withCallback
    }

    /// Decodes a stored object as a read of this property sees it, for observers.
    func typedDecoder() -> @Sendable (PropertyList?) -> Value {
        let (key, defaultSource, rules) = (key, defaultSource, rules)
        return { Self.decodeAsRead($0, key: key, defaultSource: defaultSource, rules: rules) }
    }
}

extension UserDefault: DefaultsRuleChaining {
    /// The same property with `rule` applied after the existing rules.
    ///
    /// ```swift
    /// _retries = UserDefault(wrappedValue: 3, "retries").adding(.validate { $0 >= 0 })
    /// ```
    public func adding(_ rule: DefaultsRule<Value>) -> UserDefault<Value> {
        let ruled = UserDefault(
            key: key, defaultSource: defaultSource, rules: rules + [rule], didSetHandlers: didSetHandlers,
            store: store)
        ruled.bindDidSetHandlers(replacing: true)
        return ruled
    }
}

extension UserDefault {
    /// Binds the `didSet` handlers to the slot, decoding values as this property reads them.
    /// `replacing` rebinds handlers bound before, as when rules were added since.
    fileprivate func bindDidSetHandlers(replacing: Bool) {
        guard !didSetHandlers.isEmpty else { return }
        let (key, defaultSource, rules) = (key, defaultSource, rules)
        let decode = { (object: PropertyList?) in
            Self.decodeAsRead(object, key: key, defaultSource: defaultSource, rules: rules)
        }
        let callbacks = didSetHandlers.map { handler in
            let body = handler.body
            return (
                owner: handler as AnyObject,
                call: { (change: SlotChange) in body(decode(change.newObject), decode(change.oldObject)) }
            )
        }
        store.state.bind(callbacks, to: slot, replacing: replacing)
    }

    /// A stored object as a read sees it: the default when missing or unreadable, rules applied.
    fileprivate static func decodeAsRead(
        _ object: PropertyList?, key: String, defaultSource: DefaultSource<Value>, rules: [DefaultsRule<Value>]
    ) -> Value {
        var value = defaultSource.value
        if let object, case .success(let stored) = Conversion.decode(object, as: Value.self, key: key) {
            value = stored
        }
        return rules.applied(to: value, defaultValue: defaultSource.value)
    }
}
