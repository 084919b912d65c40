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
    /// The key's binding and the store, behind one reference: a property declared in a class
    /// is copied on each read, and copying a reference costs one retain and release.
    @usableFromInline let handle: PropertyHandle<Value>

    @usableFromInline init(binding: KeyBinding<Value>, store: DefaultsStore) {
        handle = PropertyHandle(binding: binding, store: store)
    }

    /// The store the value lives in.
    public var store: DefaultsStore {
        handle.store
    }

    @usableFromInline var keyBinding: KeyBinding<Value> {
        handle.binding
    }

    private init(
        key: String, defaultSource: DefaultSource<Value>, rules: [DefaultsRule<Value>],
        didSetHandlers: [DidSetHandler<Value>], store: DefaultsStore
    ) {
        self.init(
            binding: KeyBinding(
                key: key, defaultSource: defaultSource, rules: rules, didSetHandlers: didSetHandlers,
                in: store.ownState,
                isTypedKey: false),
            store: store)
    }

    /// The key the value is stored under.
    public var key: String {
        keyBinding.key
    }

    /// Declares a stored property with a default value, in `store`.
    ///
    /// ```swift
    /// @UserDefault("launchCount") var launchCount = 0
    /// ```
    ///
    /// - Parameters:
    ///   - defaultValue: the value read while nothing is stored; it is never written.
    ///   - key: the name the value is stored under.
    ///   - store: the store the value lives in; `.standard` unless given.
    public init(wrappedValue defaultValue: Value, _ key: String, store: DefaultsStore = .standard) {
        self.init(key: key, defaultSource: .fallback(defaultValue), rules: [], didSetHandlers: [], store: store)
    }

    /// Declares an optional stored property whose default is `nil`.
    ///
    /// ```swift
    /// @UserDefault("name") var name: String?
    /// ```
    ///
    /// - Parameters:
    ///   - key: the name the value is stored under.
    ///   - store: the store the value lives in; `.standard` unless given.
    public init(_ key: String, store: DefaultsStore = .standard) where Value: ExpressibleByNilLiteral {
        self.init(wrappedValue: nil, key, store: store)
    }

    /// What a read returns while nothing readable is stored: the default with the rules
    /// applied. It differs from the default as declared only where a rule changes the default:
    /// `.whenNil(use:)` on a `nil` default, or a default outside `clamped(to:)`.
    public var defaultValue: Value {
        applyingRules(to: declaredDefaultValue)
    }

    /// The default as declared, before rules. A key declared with `dynamicDefault:` computes it
    /// anew each time.
    var declaredDefaultValue: Value {
        keyBinding.defaultSource.value
    }

    /// The stored value, or ``defaultValue`` when nothing readable is stored; rules applied.
    @inlinable
    public var wrappedValue: Value {
        get { handle.binding.read(in: handle.store.ownState) }
        nonmutating set {
            handle.binding.write(
                newValue, in: handle.store.ownState, durability: handle.store.durability,
                sizeLimit: handle.store.sizeLimit)
        }
    }

    /// The property as a stored property of a class: read and written as ``wrappedValue`` is,
    /// and, when the class is `Observable` (`@Observable`, or a plain `Observable` class),
    /// tracked by `withObservationTracking` and SwiftUI as its own properties are.
    ///
    /// ```swift
    /// @Observable final class PlayerModel {
    ///     @ObservationIgnored @UserDefault("volume") var volume = 0.5
    /// }
    /// ```
    ///
    /// A change through any handle of the key, a reset, a migration or another process's write
    /// reports a change of the property.
    @inlinable
    public static subscript<Object: AnyObject>(
        _enclosingInstance object: Object, wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, UserDefault<Value>>
    ) -> Value {
        // Always inlined: only there does the key path to the wrapper fold into a field access
        // (measured: a read that projects the key path at run time costs some 900 instructions).
        // Written out in `UserDefault` and `Setting` alike. A read the cache answers borrows
        // the handle; any other jumps to `PropertyHandle.read(_:of:)`, which retains it.
        @inline(__always) get {
            // Borrowed: a cached read runs none of the program's code, so nothing can reassign
            // the property and release the handle under it.
            let cached = Unmanaged.passUnretained(object[keyPath: storageKeyPath].handle)
                ._withUnsafeGuaranteedRef { $0.cachedRead() }
            if let cached { return cached }
            return PropertyHandle.read(Unmanaged.passUnretained(object[keyPath: storageKeyPath].handle), of: object)
        }
        @inline(__always) set {
            let handle = object[keyPath: storageKeyPath].handle
            handle.binding.write(
                newValue, in: handle.store.ownState, durability: handle.store.durability,
                sizeLimit: handle.store.sizeLimit)
        }
    }

    /// `value` after each rule, in order.
    func applyingRules(to value: Value) -> Value {
        keyBinding.applyingRules(to: value)
    }

    /// Binds the callbacks in the suite, replacing those bound before by a handle of the key,
    /// and in the running test's copy of it, if any.
    fileprivate func bindDidSetHandlers() {
        keyBinding.bindDidSetHandlers(in: store.ownState, replacing: true)
        let state = store.state
        if state !== store.ownState { keyBinding.bound(to: state).bindDidSetHandlers(in: state, replacing: true) }
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
        let state = store.state
        return keyBinding.bound(to: state).hasStoredValue(in: state)
    }

    /// Reads the stored value, rules applied, throwing where a plain read would fall back to
    /// the default.
    ///
    /// ```swift
    /// do { let layout = try $layout.load() } catch { print(error) }
    /// ```
    ///
    /// - Throws: ``DefaultsError/missingValue(key:)`` when nothing is stored,
    ///   ``DefaultsError/typeMismatch(key:expected:found:)`` or
    ///   ``DefaultsError/corrupt(key:underlying:)`` when what is stored cannot be read.
    public func load() throws(DefaultsError) -> Value {
        let state = store.state
        return try keyBinding.bound(to: state).load(in: state)
    }

    /// Removes the stored value, so the default shows again.
    ///
    /// ```swift
    /// $theme.reset()
    /// ```
    public func reset() {
        let state = store.state
        keyBinding.bound(to: state).reset(in: state, durability: store.durability)
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
    /// Rules apply to the value `body` starts from and to the value it leaves. On a backend
    /// shared through a server (``DefaultsBackend``), an update whose connection is lost waits
    /// for the server to come back, as long as the backend says (PostgreSQL: 15 s), and `body`
    /// runs again on the freshest value; a longer outage reports
    /// ``DefaultsError/updateFailed(key:path:underlying:)`` and stores nothing. So does a lock
    /// held past 5 s by a stopped process.
    public func update(_ body: (inout Value) -> Void) {
        let state = store.state
        keyBinding.bound(to: state).update(in: state, within: store.sizeLimit, body)
    }
}

extension UserDefault: Sendable where Value: Sendable {}

extension UserDefault where Value: Equatable {
    /// Whether a read shows the default: nothing is stored, or the stored value equals the
    /// default (rules applied to both). Stored data that cannot be read is not the default, and
    /// is reported as a read reports it.
    ///
    /// ```swift
    /// if $theme.isDefaultValue { print("theme not customized") }
    /// ```
    public var isDefaultValue: Bool {
        let state = store.state
        return keyBinding.bound(to: state).isDefaultValue(in: state)
    }
}

/// What a ``UserDefault`` holds: its key's binding and its store, and, for a property of an
/// `Observable` object, what reports its reads and changes to observation tracking.
@usableFromInline final class PropertyHandle<Value: DefaultsValueConvertible> {
    @usableFromInline let binding: KeyBinding<Value>
    @usableFromInline let store: DefaultsStore

    /// Whether the object the property is declared in is `Observable`: `unknown` until the
    /// first read through the object. Checked once: a failing `is Observable` cast costs some
    /// 300 instructions, several reads' worth.
    @usableFromInline let enclosing = AtomicWord(Enclosing.unknown.rawValue)
    /// The `PropertyObservation` of a property of an `Observable` object (typed `AnyObject`
    /// for the platforms without Observation); guarded by the suite's lock.
    @exclusivity(unchecked) private var observation: AnyObject?

    @usableFromInline enum Enclosing: UInt {
        case unknown, plain, observable
    }

    init(binding: KeyBinding<Value>, store: DefaultsStore) {
        self.binding = binding
        self.store = store
    }

    /// What a read returns when the cache answers it, for a property known to be outside an
    /// `Observable` object: see ``KeyBinding/cachedRead(in:)``.
    @inlinable @inline(__always)
    func cachedRead() -> Value? {
        guard isOutsideObservable else { return nil }
        return binding.cachedRead(in: store.ownState)
    }

    /// A read of the property declared in `object` that the cache did not answer. Out of line,
    /// given the handle unretained (it retains it before it runs anything): so the getter ends
    /// in a jump here, and its cached path saves no registers.
    @usableFromInline @inline(never)
    static func read(_ handle: Unmanaged<PropertyHandle>, of object: AnyObject) -> Value {
        let handle = handle.takeUnretainedValue()
        if !handle.isOutsideObservable { handle.noteObservedRead(of: object) }
        return handle.binding.read(in: handle.store.ownState)
    }

    /// Whether the property is known to be declared in an object that is not `Observable`, so
    /// that a read through the object has nothing to report. Inlined: one load and a compare.
    @inlinable
    var isOutsideObservable: Bool {
        enclosing.load() == Enclosing.plain.rawValue
    }

    /// Registers a read of the property, declared in `object`, with observation tracking when
    /// the object is `Observable`; learns whether it is on the first read.
    @usableFromInline
    func noteObservedRead(of object: AnyObject) {
        guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else {
            setEnclosing(.plain)
            return
        }
        let own = store.ownState
        let (observation, isNew) = own.lock.withLock { () -> (PropertyObservation?, Bool) in
            if let existing = self.observation {
                return (unsafeDowncast(existing, to: PropertyObservation.self), false)
            }
            let made = PropertyObservation.make(for: object)
            self.observation = made
            return (made, true)
        }
        guard let observation else {
            setEnclosing(.plain)
            return
        }
        if isNew {
            own.bind(observation.callback, to: binding.slot, replacing: false, tracksObservation: true)
            setEnclosing(.observable)
        }
        if _slowPath(own.mayBeIsolated) {
            // In a test's copy of the suite, bound there too: once, however often it is read.
            let state = store.state
            if state !== own {
                state.bind(
                    observation.callback, to: binding.bound(to: state).slot, replacing: false, tracksObservation: true)
            }
        }
        observation.recordAccess()
    }

    private func setEnclosing(_ kind: Enclosing) {
        enclosing.store(kind.rawValue)
    }
}

// @unchecked Sendable is sound: `binding` and `store` are `let`s of types that are Sendable
// when `Value` is; `enclosing` is an atomic word; `observation` is guarded by the lock of the
// suite's own state, set once, and itself Sendable.
extension PropertyHandle: @unchecked Sendable where Value: Sendable {}

extension UserDefault where Value: Sendable {
    /// Declares a stored property for a typed key, with the key's default and rules; the key's
    /// `didSet` callbacks apply in the store from now on.
    ///
    /// ```swift
    /// extension DefaultsKeys {
    ///     static let preferredName = DefaultsKey<String>("preferredName", default: "Bobbie Wasabi")
    /// }
    /// @UserDefault(.preferredName) var preferredName
    /// ```
    ///
    /// The store is `store` when given, else the key's own ``DefaultsKey/store``, else
    /// ``DefaultsStore/standard``.
    ///
    /// - Parameters:
    ///   - key: the typed key, with its default, rules and callbacks.
    ///   - store: the store the value lives in; if `nil` (the default), the key's store, else `.standard`.
    public init(_ key: DefaultsKey<Value>, store: DefaultsStore? = nil) {
        let store = store ?? key.store ?? .standard
        self.init(binding: key.binding(in: store.ownState), store: store)
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
            key: key, defaultSource: keyBinding.defaultSource, rules: keyBinding.rules,
            didSetHandlers: keyBinding.didSetHandlers + [DidSetHandler(body)], store: store)
        withCallback.bindDidSetHandlers()
        return withCallback
    }

    /// Decodes a stored object as a read of this property sees it, for observers.
    func typedDecoder() -> @Sendable (StoredObject?, ManagedBound?) -> Value {
        keyBinding.sendableReadDecoder()
    }
}

extension UserDefault: DefaultsRuleChaining {
    /// The same property with `rule` applied after the existing rules.
    ///
    /// ```swift
    /// _retries = UserDefault(wrappedValue: 3, "retries").adding(DefaultsRule { value, _ in max(value, 0) })
    /// ```
    public func adding(_ rule: DefaultsRule<Value>) -> UserDefault<Value> {
        let ruled = UserDefault(
            key: key, defaultSource: keyBinding.defaultSource, rules: keyBinding.rules + [rule],
            didSetHandlers: keyBinding.didSetHandlers, store: store)
        ruled.bindDidSetHandlers()
        return ruled
    }
}
