#if Macros
    @_exported import Observation
    @_exported import TypedDefaults
    @_exported import TypedDefaultsSecrets

    /// Makes a class's stored properties settings: each `var` with a default is kept in `store`
    /// under its name (after `prefix`), and the class is `Observable`.
    ///
    /// ```swift
    /// @ObservableSettings final class AppSettings: Sendable {
    ///     static let shared = AppSettings()
    ///     var theme = Theme.light                        // stored under "theme"
    ///     var launchCount = 0
    ///     var nickname: String?                          // nil until set
    ///     @SettingKey("colour-scheme") var scheme = Scheme.auto
    ///     @SettingKey(.volume) var volume: Double        // a typed key's default, rules and callbacks
    ///     @SettingInfo(title: "Font size", range: 8...72, step: 2) var fontSize = 12
    ///     @SettingIgnored var lastScreen = ""             // an ordinary property
    ///     @SettingSecret var apiToken: String?            // in the keyring
    /// }
    /// ```
    ///
    /// - **What each property becomes.** A `let` handle named with a `$` (`$theme`, a
    ///   `UserDefault`, or a `Setting` with ``SettingInfo(title:info:)``) and
    ///   accessors that read and write it: `settings.theme = .dark` is stored at once, and
    ///   `settings.$theme.reset()` brings the default back.
    /// - **Sendable.** The class keeps only those `let`s, so it can be declared `Sendable`
    ///   without `@unchecked` when every value is.
    /// - **Observable.** `withObservationTracking` and SwiftUI hear every change of a key: from
    ///   this instance, another instance, any other handle, and another process.
    /// - **A catalog.** The class is a `SettingsCatalog`: its settings and
    ///   secrets are listed, and published with `DefaultsSchema.publish(_:keys:)`.
    /// - **Callbacks.** A typed key's `didSet` runs after every change, never when the object is
    ///   made or first read.
    ///
    /// - Parameters:
    ///   - prefix: put before each property's name to make its key; not before a ``SettingKey(_:)-64hoh``.
    ///   - store: the store every setting of the class lives in; `.standard` unless given.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @attached(memberAttribute)
    @attached(member, names: named(_settingsStore))
    @attached(extension, conformances: Observable, SettingsCatalog)
    public macro ObservableSettings(prefix: String = "", store: DefaultsStore = .standard) =
        #externalMacro(module: "TypedDefaultsMacrosPlugin", type: "ObservableSettingsMacro")

    /// Stores the property under `name`, in place of its own name (and the class's prefix).
    ///
    /// ```swift
    /// @SettingKey("colour-scheme") var scheme = Scheme.auto
    /// ```
    @attached(peer)
    public macro SettingKey(_ name: String) =
        #externalMacro(module: "TypedDefaultsMacrosPlugin", type: "SettingMarkerMacro")

    /// Stores the property as `key` says: its name, default, rules and callbacks (and its store,
    /// unless the class names one). The property is declared with its type and no default.
    ///
    /// ```swift
    /// extension DefaultsKeys {
    ///     static let volume = DefaultsKey<Double>("volume", default: 0.5).clamped(to: 0...1)
    /// }
    /// @SettingKey(.volume) var volume: Double
    /// ```
    @attached(peer)
    public macro SettingKey<Value: DefaultsValueConvertible & Sendable>(_ key: DefaultsKey<Value>) =
        #externalMacro(module: "TypedDefaultsMacrosPlugin", type: "SettingMarkerMacro")

    /// Leaves the property as it is written: not stored, not observed.
    @attached(peer)
    public macro SettingIgnored() = #externalMacro(module: "TypedDefaultsMacrosPlugin", type: "SettingMarkerMacro")

    /// Makes the property a `Setting` with a title and an explanation, for a
    /// settings screen, the catalog and the settings page.
    ///
    /// ```swift
    /// @SettingInfo(title: "Shuffle", info: "Plays the queue in random order") var shuffle = false
    /// ```
    @attached(peer)
    public macro SettingInfo(title: String? = nil, info: String = "") =
        #externalMacro(module: "TypedDefaultsMacrosPlugin", type: "SettingMarkerMacro")

    /// Makes the property a `Setting` kept within `range` and stepped by `step`.
    ///
    /// ```swift
    /// @SettingInfo(title: "Volume", range: 0.0...1.0, step: 0.1) var volume = 0.5
    /// ```
    @attached(peer)
    public macro SettingInfo<Value: Comparable>(
        title: String? = nil, info: String = "", range: ClosedRange<Value>, step: Value? = nil
    ) = #externalMacro(module: "TypedDefaultsMacrosPlugin", type: "SettingMarkerMacro")

    /// Makes the property a `Setting` that takes only one of `options`. The
    /// first option names its type, as the attribute is checked apart from the property:
    /// `options: [Theme.light, .dark]`.
    ///
    /// ```swift
    /// @SettingInfo(title: "Quality", options: [240, 480, 720, 1080]) var quality = 720
    /// ```
    @attached(peer)
    public macro SettingInfo<Value>(title: String? = nil, info: String = "", options: [Value]) =
        #externalMacro(module: "TypedDefaultsMacrosPlugin", type: "SettingMarkerMacro")

    /// Makes the property a secret, kept in the system's keyring (a `Secret` of
    /// TypedDefaultsSecrets, the handle `$name`) and filed under the class's store: the item's
    /// service and the schema are the store's suite's, unless `service` is given. The property
    /// is declared `String?`, with no default; the keyring is asked at each read, and the class
    /// does not observe it.
    ///
    /// ```swift
    /// @SettingSecret var apiToken: String?                          // the key "apiToken"
    /// @SettingSecret("openAIToken", title: "OpenAI token") var token: String?
    /// ```
    ///
    /// - Parameters:
    ///   - key: the secret's key; the class's prefix and the property's name unless given.
    ///   - service: the item's service, in place of the store's suite's name.
    ///   - keyring: where it is kept; the system's keyring unless given.
    ///   - title: what a settings page calls it; the key unless given.
    ///   - info: a sentence a settings page shows under the title; none unless given.
    @attached(peer)
    public macro SettingSecret(
        _ key: String? = nil, service: String? = nil, keyring: (any Keyring)? = nil, title: String = "",
        info: String = ""
    ) = #externalMacro(module: "TypedDefaultsMacrosPlugin", type: "SettingMarkerMacro")

    /// What ``ObservableSettings(prefix:store:)`` puts on each property it stores; not written by hand.
    @attached(accessor, names: named(init), named(get), named(set))
    @attached(peer, names: prefixed(`$`))
    public macro _StoredSetting(prefix: String = "", store: DefaultsStore = .standard) =
        #externalMacro(module: "TypedDefaultsMacrosPlugin", type: "StoredSettingMacro")

    extension UserDefault {
        /// The value, its read reported to observation tracking: what an
        /// ``ObservableSettings(prefix:store:)`` property's getter calls.
        @inlinable
        public func _value(observedBy object: AnyObject) -> Value {
            value(observedBy: object)
        }
    }

    extension Setting {
        /// The value, its read reported to observation tracking: what an
        /// ``ObservableSettings(prefix:store:)`` property's getter calls.
        @inlinable
        public func _value(observedBy object: AnyObject) -> Value {
            property.value(observedBy: object)
        }
    }
#endif
