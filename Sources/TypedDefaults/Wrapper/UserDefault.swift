import Foundation

/// A property stored in `UserDefaults`, typed.
///
/// ```swift
/// @UserDefault("hasSeenSplashScreen") var hasSeenSplashScreen = false
/// @UserDefault("name") var name: String?
/// @UserDefault("count") var count: Int? = 42
/// @UserDefault("theme", defaults: UserDefaults(suiteName: "com.example.app")!) var theme = Theme.system
/// ```
///
/// The value may be any ``DefaultsValueConvertible`` type. It works as a stored property of a
/// struct or class, as a local variable, and as a `static` property of a `@MainActor` type.
///
/// - **The default is a fallback.** It is returned while nothing is stored and is never written,
///   so a later version of your program can change it.
/// - **Reads never fail.** Stored data that cannot be read as `Value` gives the default; the
///   error goes to ``DefaultsError/handler`` and the stored data is left untouched until you
///   assign. ``load()`` throws the error instead.
/// - **Writes that cannot be encoded are skipped** and reported; what was stored stays.
/// - **`nil` is kept.** Assigning `nil` stores an explicit `nil` when the default is not `nil`,
///   so it survives a restart; when the default is `nil` too, the key is removed. ``reset()``
///   always removes the key, bringing the default back.
/// - **Durable at exit.** On Linux `UserDefaults` writes to disk only in `synchronize()`; every
///   suite written through `@UserDefault` is synchronized when the process exits normally.
///
/// The projected value (`$name`) is the wrapper itself, for ``key``, ``hasStoredValue``,
/// ``reset()`` and ``load()``.
@propertyWrapper
public struct UserDefault<Value: DefaultsValueConvertible> {
    /// The key the value is stored under.
    public let key: String
    /// The value read while nothing is stored.
    public let defaultValue: Value
    /// The `UserDefaults` the value is stored in.
    public let defaults: UserDefaults
    /// Whether assigning `nil` should remove the key, because the default is `nil` too.
    private let removesOnNil: Bool

    /// Declares a stored property with a default value.
    ///
    /// ```swift
    /// @UserDefault("launchCount") var launchCount = 0
    /// ```
    public init(wrappedValue defaultValue: Value, _ key: String, defaults: UserDefaults = .standard) {
        self.key = key
        self.defaultValue = defaultValue
        self.defaults = defaults
        removesOnNil = (defaultValue as? any OptionalValue)?.isNil ?? false
    }

    /// Declares an optional stored property whose default is `nil`.
    ///
    /// ```swift
    /// @UserDefault("name") var name: String?
    /// ```
    public init(_ key: String, defaults: UserDefaults = .standard) where Value: ExpressibleByNilLiteral {
        self.init(wrappedValue: nil, key, defaults: defaults)
    }

    /// The stored value, or ``defaultValue`` when nothing readable is stored.
    public var wrappedValue: Value {
        get {
            do {
                return try load()
            } catch .missing {
                return defaultValue
            } catch {
                DefaultsError.report(error)
                return defaultValue
            }
        }
        nonmutating set {
            store(newValue)
        }
    }

    /// The wrapper itself: `$name.key`, `$name.reset()`, `$name.load()`.
    public var projectedValue: UserDefault<Value> {
        self
    }

    /// Whether a value is stored under the key (or provided by `UserDefaults`' registration or
    /// argument domains), as opposed to the default being shown.
    ///
    /// ```swift
    /// if !$name.hasStoredValue { print("Using the default name") }
    /// ```
    public var hasStoredValue: Bool {
        defaults.object(forKey: key) != nil
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
        guard let object = defaults.object(forKey: key) else { throw .missing(key: key) }
        do {
            return try Value(defaultsRepresentation: Value.DefaultsRepresentation(propertyListObject: object))
        } catch {
            throw DefaultsError.reading(key, error)
        }
    }

    /// Removes the stored value, so the default shows again.
    ///
    /// ```swift
    /// $theme.reset()
    /// ```
    public func reset() {
        defaults.removeObject(forKey: key)
        ExitFlush.markChanged(defaults)
    }

    private func store(_ value: Value) {
        if removesOnNil, (value as? any OptionalValue)?.isNil == true {
            reset()
            return
        }
        let object: Any
        do {
            object = try value.defaultsRepresentation().propertyListObject
        } catch {
            DefaultsError.report(.encodingFailed(key: key, underlying: error))
            return
        }
        guard StoredObject.isPropertyList(object) else {
            DefaultsError.report(.encodingFailed(key: key, underlying: NotAPropertyList(type: type(of: object))))
            return
        }
        defaults.set(object, forKey: key)
        ExitFlush.markChanged(defaults)
    }
}

/// A custom ``DefaultsValue`` produced an object `UserDefaults` cannot store (it would crash).
struct NotAPropertyList: Error, CustomStringConvertible {
    var type: Any.Type

    var description: String {
        "\(type) is not a property-list type"
    }
}
