/// A type whose stored ``Setting`` properties can be listed, to build a settings screen or a
/// command-line listing without naming each one.
///
/// ```swift
/// struct AppSettings: SettingsCatalog {
///     @Setting(.theme, title: "Theme") var theme
///     @Setting("fontSize", title: "Font size", range: 8...72, step: 2) var fontSize = 12
/// }
///
/// for setting in AppSettings().catalog {
///     print("\(setting.title) (\(setting.key), \(setting.type)): \(setting.formattedValue)")
/// }
/// ```
///
/// The catalog lists every `Setting` stored in the type, in declaration order (a class's
/// superclass first), and the settings of any stored property that is itself a catalog.
public protocol SettingsCatalog {}

extension SettingsCatalog {
    /// Every setting declared in the catalog, as it is now.
    public var catalog: [SettingDescription] {
        SettingsCatalogListing.settings(in: Mirror(reflecting: self))
    }
}

/// Finds a catalog's settings by reflection.
enum SettingsCatalogListing {
    static func settings(in mirror: Mirror) -> [SettingDescription] {
        let inherited = mirror.superclassMirror.map(settings(in:)) ?? []
        return inherited
            + mirror.children.flatMap { child -> [SettingDescription] in
                switch child.value {
                case let setting as any DescribableSetting: [setting.settingDescription]
                case let nested as any SettingsCatalog: nested.catalog
                default: []
                }
            }
    }
}

/// A setting that can describe itself without its value type being known.
protocol DescribableSetting {
    var settingDescription: SettingDescription { get }
    var schemaEntry: (key: DefaultsSchema.Key, store: DefaultsStore) { get }
}

extension Setting: DescribableSetting {
    var settingDescription: SettingDescription {
        let value = wrappedValue
        let kind: SettingDescription.Kind
        if let options = declaredOptions {
            let selected = options.position(value)
            kind = .choice(
                options: options.values.enumerated().map { index, option in
                    SettingDescription.Option(
                        value: DefaultsStoredValue(storing: option, key: key), title: formatted(option),
                        isSelected: index == selected)
                })
        } else if Value.self == Bool.self {
            kind = .flag
        } else if let stepping {
            kind = .number(min: formatted(stepping.min), max: formatted(stepping.max), step: "\(stepping.step)")
        } else {
            kind = .value
        }
        return SettingDescription(
            key: key, type: String(describing: Value.self), title: title, info: info,
            formattedDefaultValue: formatted(defaultValue), formattedValue: formatted(value),
            hasStoredValue: hasStoredValue,
            kind: kind)
    }
}
