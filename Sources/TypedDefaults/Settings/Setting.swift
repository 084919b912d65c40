/// A stored value with what a settings screen shows about it: a title, an info text and a
/// formatter. Numbers can carry bounds and a step, flags can be toggled, and an enum's cases
/// (or any list of values) are options to step through or pick from.
///
/// ```swift
/// struct PlayerSettings: SettingsCatalog {
///     @Setting(.volume, title: "Volume", range: 0...1, step: 0.1, format: { "\(Int($0 * 100)) %" })
///     var volume
///     @Setting("shuffle", title: "Shuffle", info: "Play tracks in random order") var shuffle = false
///     @Setting("repeat", title: "Repeat") var repeatMode = RepeatMode.off   // enum RepeatMode: CaseIterable
/// }
///
/// let settings = PlayerSettings()
/// settings.$volume.increase()
/// settings.$shuffle.toggle()
/// settings.$repeatMode.increase(wrapping: true)    // .off → .one → .all → .off
/// print(settings.$volume.formattedValue)    // "60 %"
/// ```
///
/// A setting is a ``UserDefault`` underneath (``property``): it is read, written, shared,
/// cached and observed the same way, and `$setting` gives the setting itself, through which the
/// property's own properties read: `$volume.key`, `$volume.hasStoredValue`. A change is observed,
/// and the value reset, through the property: `$volume.property.changes()`,
/// `$volume.property.reset()`.
@propertyWrapper @dynamicMemberLookup
public struct Setting<Value: DefaultsValueConvertible & Sendable>: Sendable {
    /// Everything the setting holds, behind one reference: a setting declared in a class is
    /// copied on each read, and copying a reference costs one retain and release.
    @usableFromInline let details: SettingDetails<Value>

    /// The bounds and step a numeric setting was declared with.
    struct Stepping: Sendable {
        let min: Value
        let max: Value
        let step: Value
    }

    /// A setting with `options` declared, or, for a `CaseIterable & Equatable` value, every
    /// case (with a rule for a type whose values can be none of them); `stepping` for a number
    /// declared with bounds.
    init(
        property: UserDefault<Value>, title: String?, info: String, format: (@Sendable (Value) -> String)?,
        stepping: Stepping? = nil, options: Options? = nil
    ) {
        var property = property
        var options = options
        if options == nil, let everyCase = Options.everyCase(of: Value.self) {
            options = everyCase
            if everyCase.admitsOtherValues { property = property.adding(everyCase.rule) }
        }
        details = SettingDetails(
            property: property, title: title ?? property.key, info: info,
            format: format ?? { ValueDescription.describe($0) }, stepping: stepping, options: options)
    }

    /// The stored property behind the setting.
    public var property: UserDefault<Value> { details.property }
    /// A short name for the setting, as a settings screen shows it.
    public var title: String { details.title }
    /// A longer explanation; empty when none was given.
    public var info: String { details.info }
    /// The bounds and step of a number, when it was declared with them.
    var stepping: Stepping? { details.stepping }
    /// The values the setting steps through, when it has options.
    var declaredOptions: Options? { details.options }

    /// A setting for a typed key, with the key's default, rules and callbacks.
    ///
    /// ```swift
    /// @Setting(.theme, title: "Theme", info: "The colors of every window") var theme
    /// ```
    ///
    /// Without a `title`, the setting is titled with the key's name. Without a `format`, a
    /// value is shown as its description, an optional unwrapped and `nil` as `nil`.
    ///
    /// - Parameters:
    ///   - key: the typed key, with its default, rules and callbacks.
    ///   - title: the short name a settings screen shows; the key's name unless given.
    ///   - info: a longer explanation; empty unless given.
    ///   - format: formats a value for people; unless given, a value shows as its description.
    ///   - store: the store the value lives in; if `nil` (the default), the key's store, else `.standard`.
    public init(
        _ key: DefaultsKey<Value>, title: String? = nil, info: String = "",
        format: (@Sendable (Value) -> String)? = nil, store: DefaultsStore? = nil
    ) {
        self.init(property: UserDefault(key, store: store), title: title, info: info, format: format)
    }

    /// A setting stored under `key`, with a default value.
    ///
    /// ```swift
    /// @Setting("userName", title: "Name") var userName = "Ada"
    /// ```
    ///
    /// - Parameters:
    ///   - defaultValue: the value read while nothing is stored; it is never written.
    ///   - key: the name the value is stored under.
    ///   - title: the short name a settings screen shows; the key's name unless given.
    ///   - info: a longer explanation; empty unless given.
    ///   - format: formats a value for people; unless given, a value shows as its description.
    ///   - store: the store the value lives in; `.standard` unless given.
    public init(
        wrappedValue defaultValue: Value, _ key: String, title: String? = nil, info: String = "",
        format: (@Sendable (Value) -> String)? = nil, store: DefaultsStore = .standard
    ) {
        self.init(
            property: UserDefault(wrappedValue: defaultValue, key, store: store), title: title, info: info,
            format: format)
    }

    /// An optional setting stored under `key`, whose default is `nil`.
    ///
    /// ```swift
    /// @Setting("nickname", title: "Nickname") var nickname: String?
    /// ```
    ///
    /// - Parameters:
    ///   - key: the name the value is stored under.
    ///   - title: the short name a settings screen shows; the key's name unless given.
    ///   - info: a longer explanation; empty unless given.
    ///   - format: formats a value for people; unless given, a value shows as its description.
    ///   - store: the store the value lives in; `.standard` unless given.
    public init(
        _ key: String, title: String? = nil, info: String = "", format: (@Sendable (Value) -> String)? = nil,
        store: DefaultsStore = .standard
    ) where Value: ExpressibleByNilLiteral {
        self.init(wrappedValue: nil, key, title: title, info: info, format: format, store: store)
    }

    /// The stored value, or the default; rules applied.
    @inlinable
    public var wrappedValue: Value {
        get { details.property.wrappedValue }
        nonmutating set { details.property.wrappedValue = newValue }
    }

    /// The setting as a stored property of a class: tracked by `withObservationTracking` and
    /// SwiftUI when the class is `Observable`, as ``UserDefault`` is.
    ///
    /// ```swift
    /// @Observable final class PlayerScreen {
    ///     @ObservationIgnored @Setting("volume", title: "Volume") var volume = 0.5
    /// }
    /// ```
    @inlinable
    public static subscript<Object: AnyObject>(
        _enclosingInstance object: Object, wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Setting<Value>>
    ) -> Value {
        // Always inlined: only there does the key path to the wrapper fold into a field access
        // (measured: a read that projects the key path at run time costs some 900 instructions).
        // Written out in `UserDefault` and `Setting` alike. A read the cache answers borrows
        // the handle; any other jumps to `PropertyHandle.read(_:of:)`, which retains it.
        @inline(__always) get {
            // Borrowed, as `UserDefault` borrows its handle.
            let cached = Unmanaged.passUnretained(object[keyPath: storageKeyPath].details)
                ._withUnsafeGuaranteedRef { $0.property.handle.cachedRead() }
            if let cached { return cached }
            return PropertyHandle.read(
                Unmanaged.passUnretained(object[keyPath: storageKeyPath].details.property.handle), of: object)
        }
        @inline(__always) set {
            object[keyPath: storageKeyPath].details.property.wrappedValue = newValue
        }
    }

    /// The setting itself: `$volume.increase()`, `$volume.formattedValue`.
    public var projectedValue: Setting<Value> {
        self
    }

    /// What the setting's ``property`` tells, read through the setting: `$volume.key`,
    /// `$volume.defaultValue`, `$volume.hasStoredValue`, `$volume.isDefaultValue`,
    /// `$volume.store`. Its methods are called on the property: `$volume.property.reset()`,
    /// `$volume.property.changes()`.
    public subscript<Member>(dynamicMember member: KeyPath<UserDefault<Value>, Member>) -> Member {
        details.property[keyPath: member]
    }

    /// The current value, formatted for people.
    ///
    /// ```swift
    /// print("\(settings.$volume.title): \(settings.$volume.formattedValue)")   // "Volume: 60 %"
    /// ```
    public var formattedValue: String { details.format(wrappedValue) }

    /// Any value of the setting, formatted as ``formattedValue`` formats the current one.
    ///
    /// ```swift
    /// for await change in settings.$volume.property.changes() {
    ///     print(settings.$volume.formatted(change.newValue))
    /// }
    /// ```
    public func formatted(_ value: Value) -> String { details.format(value) }
}

/// What a ``Setting`` holds.
@usableFromInline final class SettingDetails<Value: DefaultsValueConvertible & Sendable>: Sendable {
    @usableFromInline let property: UserDefault<Value>
    let title: String
    let info: String
    let format: @Sendable (Value) -> String
    let stepping: Setting<Value>.Stepping?
    let options: Setting<Value>.Options?

    init(
        property: UserDefault<Value>, title: String, info: String, format: @escaping @Sendable (Value) -> String,
        stepping: Setting<Value>.Stepping?, options: Setting<Value>.Options?
    ) {
        self.property = property
        self.title = title
        self.info = info
        self.format = format
        self.stepping = stepping
        self.options = options
    }
}
