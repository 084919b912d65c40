/// A type whose stored ``Setting`` properties can be listed, to build a settings screen or a
/// command-line listing without naming each one, and to publish their schema.
///
/// ```swift
/// struct AppSettings: SettingsCatalog {
///     @Setting(.theme, title: "Theme") var theme
///     @Setting("fontSize", title: "Font size", range: 8...72, step: 2) var fontSize = 12
/// }
/// ```
///
/// The listing, `catalog`, and the schema a catalog publishes come with `TypedDefaultsSchema`,
/// as the descriptions tools read: an app that only declares its settings needs nothing more
/// than this conformance. A catalog holds every `Setting` and every `UserDefault` stored in the
/// type, in declaration order (a class's superclass first), and the settings of any stored
/// property that is itself a catalog. A `UserDefault` is listed as a setting titled with its
/// key; declare a `Setting` to give it a title, info, a range or options.
public protocol SettingsCatalog {}

/// What a catalog lists of one setting, whatever its value type. `TypedDefaultsSchema` gives it
/// to users as its `SettingDescription`; the core only gathers it.
package struct CatalogEntry: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        case flag
        case number(min: String, max: String, step: String)
        case choice(options: [Option])
        case value
    }

    package struct Option: Sendable, Hashable {
        package let value: DefaultsStoredValue?
        package let title: String
        package let isSelected: Bool
    }

    package let key: String
    package let swiftType: String
    package let title: String
    package let info: String
    package let formattedDefaultValue: String
    package let formattedValue: String
    package let hasStoredValue: Bool
    package let kind: Kind
}

/// Finds a catalog's settings by reflection.
package enum SettingsCatalogListing {
    /// The entries of a catalog's settings, superclasses' first, nested catalogs' in place.
    package static func entries(in mirror: Mirror) -> [CatalogEntry] {
        settings(in: mirror).map(\.catalogEntry)
    }

    /// A catalog's settings, superclasses' first, nested catalogs' in place: what both its
    /// listing and its schema describe.
    static func settings(in mirror: Mirror) -> [any DescribableSetting] {
        members(of: mirror) { $0 as? any DescribableSetting }
    }

    /// What `pick` takes of a catalog's stored properties, superclasses' first, nested
    /// catalogs' in place.
    static func members<Member>(of mirror: Mirror, _ pick: (Any) -> Member?) -> [Member] {
        let inherited = mirror.superclassMirror.map { members(of: $0, pick) } ?? []
        return inherited
            + mirror.children.flatMap { child -> [Member] in
                if let member = pick(child.value) { return [member] }
                guard let nested = child.value as? any SettingsCatalog else { return [] }
                return members(of: Mirror(reflecting: nested), pick)
            }
    }
}

/// A setting that can describe itself without its value type being known.
protocol DescribableSetting {
    var catalogEntry: CatalogEntry { get }
    var schemaDeclaration: any SchemaDeclaration { get }
}

extension Setting: DescribableSetting {
    var catalogEntry: CatalogEntry {
        let value = wrappedValue
        let kind: CatalogEntry.Kind
        if let options = declaredOptions {
            let selected = options.position(value)
            kind = .choice(
                options: options.values.enumerated().map { index, option in
                    CatalogEntry.Option(
                        value: DefaultsStoredValue(storing: option, key: property.key), title: formatted(option),
                        isSelected: index == selected)
                })
        } else if Value.self == Bool.self {
            kind = .flag
        } else if let stepping {
            kind = .number(min: formatted(stepping.min), max: formatted(stepping.max), step: "\(stepping.step)")
        } else {
            kind = .value
        }
        return CatalogEntry(
            key: property.key, swiftType: String(describing: Value.self), title: title, info: info,
            formattedDefaultValue: formatted(property.defaultValue), formattedValue: formatted(value),
            hasStoredValue: property.hasStoredValue,
            kind: kind)
    }
}

/// A plain `@UserDefault` property of a catalog is listed too, as a ``Setting`` without a title
/// would be: titled with its key, a flag for a `Bool`, a choice of an enum's cases, else a value.
extension UserDefault: DescribableSetting {
    var catalogEntry: CatalogEntry {
        let value = wrappedValue
        let kind: CatalogEntry.Kind
        if Value.self == Bool.self {
            kind = .flag
        } else if let cases = Self.everyCase(selecting: value) {
            kind = .choice(
                options: cases.map { option in
                    CatalogEntry.Option(
                        value: DefaultsStoredValue(storing: option.value, key: key),
                        title: ValueDescription.describe(option.value), isSelected: option.isSelected)
                })
        } else {
            kind = .value
        }
        return CatalogEntry(
            key: key, swiftType: String(describing: Value.self), title: key, info: "",
            formattedDefaultValue: ValueDescription.describe(defaultValue),
            formattedValue: ValueDescription.describe(value), hasStoredValue: hasStoredValue, kind: kind)
    }

    var schemaDeclaration: any SchemaDeclaration {
        let fixedDefault = keyBinding.defaultSource.fixedValue.map { applyingRules(to: $0) }
        return DeclaredKey(
            name: key, defaultValue: fixedDefault,
            formattedDefaultValue: fixedDefault.map(ValueDescription.describe) ?? "", title: key, info: "",
            range: nil,
            options: Self.everyCase(selecting: nil)?.map { ($0.value, ValueDescription.describe($0.value)) },
            store: store)
    }

    /// Every case of a `CaseIterable & Equatable` value type, in declaration order, and whether
    /// it is `selected`; `nil` for any other type.
    private static func everyCase(selecting selected: Value?) -> [(value: Value, isSelected: Bool)]? {
        guard let enumerable = Value.self as? any (CaseIterable & Equatable).Type else { return nil }
        func cases<Cases: CaseIterable & Equatable>(of _: Cases.Type) -> [(value: Value, isSelected: Bool)] {
            // `Cases` is `Value`: the casts only tell the compiler so.
            let chosen = selected.flatMap { $0 as? Cases }
            return Cases.allCases.compactMap { option in
                (option as? Value).map { ($0, option == chosen) }
            }
        }
        let listed = cases(of: enumerable)
        return listed.isEmpty ? nil : listed
    }
}
