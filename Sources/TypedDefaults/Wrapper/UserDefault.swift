import Foundation

/// A property stored in `UserDefaults`, typed.
///
/// ```swift
/// @UserDefault("hasSeenSplashScreen") var hasSeenSplashScreen = false
/// @UserDefault("name") var name: String?
/// @UserDefault("count") var count: Int? = 42
/// @UserDefault("theme", defaults: UserDefaults(suiteName: "com.example.app")!) var theme = Theme.system
/// @UserDefault("draft", store: .inMemory()) var draft = ""
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
/// The projected value (`$name`) is the wrapper itself, for ``key``, ``hasStoredValue``,
/// ``reset()``, ``load()`` and ``update(_:)``.
@propertyWrapper
public struct UserDefault<Value: DefaultsValueConvertible> {
    /// The key the value is stored under.
    public let key: String
    /// The value read while nothing is stored.
    public let defaultValue: Value
    /// The store the value lives in.
    public let store: DefaultsStore
    @usableFromInline let slot: KeySlot
    /// Whether assigning `nil` should remove the key, because the default is `nil` too.
    private let removesOnNil: Bool

    /// Declares a stored property with a default value, in `store`.
    ///
    /// ```swift
    /// @UserDefault("launchCount") var launchCount = 0
    /// ```
    public init(wrappedValue defaultValue: Value, _ key: String, store: DefaultsStore = .standard) {
        self.key = key
        self.defaultValue = defaultValue
        self.store = store
        slot = store.state.slot(for: key)
        removesOnNil = (defaultValue as? any OptionalValue)?.isNil ?? false
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

    /// The stored value, or ``defaultValue`` when nothing readable is stored.
    @inlinable
    public var wrappedValue: Value {
        get {
            store.state.cachedValue(slot, as: Value.self) ?? readThroughCache()
        }
        nonmutating set {
            write(newValue)
        }
    }

    /// Encodes and stores `value`, or reports why it cannot be stored.
    @usableFromInline
    func write(_ value: Value) {
        if removesOnNil, (value as? any OptionalValue)?.isNil == true {
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
        switch store.state.read(slot, as: Value.self) {
        case .missing, .cached(.failure):
            return defaultValue
        case .cached(.success(let value)), .decoded(.success(let value)):
            return value
        case .decoded(.failure(let error)):
            DefaultsError.report(error)
            return defaultValue
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

    /// Reads the stored value, throwing where a plain read would fall back to the default.
    ///
    /// ```swift
    /// do { let layout = try $layout.load() } catch { print(error) }
    /// ```
    ///
    /// - Throws: ``DefaultsError/missing(key:)`` when nothing is stored,
    ///   ``DefaultsError/typeMismatch(key:expected:found:)`` or
    ///   ``DefaultsError/corrupt(key:underlying:)`` when what is stored cannot be read.
    public func load() throws(DefaultsError) -> Value {
        switch store.state.read(slot, as: Value.self) {
        case .missing: throw .missing(key: key)
        case .cached(let result), .decoded(let result): return try result.get()
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
                body(&value)
                if removesOnNil, (value as? any OptionalValue)?.isNil == true { return nil }
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
