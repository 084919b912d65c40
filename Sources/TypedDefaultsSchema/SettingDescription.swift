import TypedDefaults

extension SettingsCatalog {
    /// Every setting declared in the catalog, as it is now, in declaration order.
    ///
    /// ```swift
    /// for setting in AppSettings().catalog {
    ///     print("\(setting.title) (\(setting.key), \(setting.swiftType)): \(setting.formattedValue)")
    /// }
    /// ```
    public var catalog: [SettingDescription] {
        SettingsCatalogListing.entries(in: Mirror(reflecting: self)).map(SettingDescription.init)
    }
}

/// One entry of a `SettingsCatalog`'s ``TypedDefaults/SettingsCatalog/catalog``: what a
/// settings screen or listing needs to show a setting, whatever its value type.
///
/// ```swift
/// for setting in settings.catalog {
///     let source = setting.hasStoredValue ? "stored" : "default"
///     print("\(setting.key) = \(setting.formattedValue) (\(source))")
/// }
/// ```
public struct SettingDescription: Sendable, Hashable {
    /// What kind of control fits the setting. A minor version may add a kind: a `switch` that
    /// names every case ends with `@unknown default`.
    @nonexhaustive
    public enum Kind: Sendable, Hashable {
        /// A `Bool`: a switch.
        case flag
        /// A number declared with bounds and a step: a stepper or a slider. The bounds are
        /// formatted as the value is.
        case number(min: String, max: String, step: String)
        /// A setting with options (an enum's cases, or a declared list): a picker, or a stepper
        /// through them. The options are in the order the setting steps through them.
        case choice(options: [Option])
        /// Anything else.
        case value
    }

    /// One option of a ``Kind/choice(options:)`` setting.
    ///
    /// ```swift
    /// if case .choice(let options) = setting.kind {
    ///     for option in options { print(option.isSelected ? "●" : "○", option.title) }
    /// }
    /// ```
    public struct Option: Sendable, Hashable {
        /// The option as the suite stores it, so that a screen or tool that picks it can write
        /// it (`DefaultsStore.editStoredValues(_:)`); `nil` for a value that cannot be
        /// stored as a property list value. Two options with equal titles differ here.
        public let value: DefaultsStoredValue?
        /// The option, formatted as the setting formats its value.
        public let title: String
        /// Whether the setting's value is this option now.
        public let isSelected: Bool

        init(value: DefaultsStoredValue?, title: String, isSelected: Bool) {
            self.value = value
            self.title = title
            self.isSelected = isSelected
        }
    }

    /// The key the value is stored under.
    public let key: String
    /// The value's type, as Swift writes it: `Int`, `Optional<String>`, `Theme`; named as
    /// ``DefaultsSchema/Key/swiftType`` names it.
    public let swiftType: String
    /// The setting's title.
    public let title: String
    /// The setting's info text; empty when none was given.
    public let info: String
    /// The default, formatted as ``formattedValue`` is.
    public let formattedDefaultValue: String
    /// The current value, formatted.
    public let formattedValue: String
    /// Whether a value is stored, as opposed to the default being shown.
    public let hasStoredValue: Bool
    /// What kind of control fits the setting.
    public let kind: Kind

    init(
        key: String, swiftType: String, title: String, info: String, formattedDefaultValue: String,
        formattedValue: String, hasStoredValue: Bool, kind: Kind
    ) {
        self.key = key
        self.swiftType = swiftType
        self.title = title
        self.info = info
        self.formattedDefaultValue = formattedDefaultValue
        self.formattedValue = formattedValue
        self.hasStoredValue = hasStoredValue
        self.kind = kind
    }

    init(_ entry: CatalogEntry) {
        let kind: Kind =
            switch entry.kind {
            case .flag: .flag
            case .number(let min, let max, let step): .number(min: min, max: max, step: step)
            case .choice(let options):
                .choice(
                    options: options.map { Option(value: $0.value, title: $0.title, isSelected: $0.isSelected) })
            case .value: .value
            }
        self.init(
            key: entry.key, swiftType: entry.swiftType, title: entry.title, info: entry.info,
            formattedDefaultValue: entry.formattedDefaultValue, formattedValue: entry.formattedValue,
            hasStoredValue: entry.hasStoredValue, kind: kind)
    }
}
