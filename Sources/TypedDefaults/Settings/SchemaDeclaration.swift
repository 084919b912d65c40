/// What a program declares of one key for its published schema: the key, its value type, its
/// default, and the title, bounds and options a ``Setting`` gives it. The schema library
/// (`TypedDefaultsSchema`) turns it into the schema's entry; the core only gathers it, so that
/// the schema's description and file format stay out of the core.
package protocol SchemaDeclaration {
    associatedtype Value: DefaultsValueConvertible
    var name: String { get }
    /// The default as declared, after the rules; `nil` when it is computed on each read.
    var defaultValue: Value? { get }
    var formattedDefaultValue: String { get }
    var title: String { get }
    var info: String { get }
    var range: (min: Value, max: Value, step: Value)? { get }
    var options: [(value: Value, title: String)]? { get }
    /// The store the key lives in: for a secret, the suite whose name files it in the keyring.
    var store: DefaultsStore { get }
    /// Whether the value is kept in the keyring, not in the suite.
    var isSecret: Bool { get }
}

/// A property of a catalog that is declared in its suite's schema without being a setting
/// stored there: a secret (`TypedDefaultsSecrets`'s `Secret`), whose value the keyring keeps.
package protocol SchemaDeclaring {
    /// Its declaration; `nil` when it belongs to no suite with a file to publish beside.
    var schemaDeclaration: (any SchemaDeclaration)? { get }
}

/// A ``SchemaDeclaration`` of a key whose values are `Value`.
package struct DeclaredKey<Value: DefaultsValueConvertible>: SchemaDeclaration {
    package var name: String
    package var defaultValue: Value?
    package var formattedDefaultValue: String
    package var title: String
    package var info: String
    package var range: (min: Value, max: Value, step: Value)?
    package var options: [(value: Value, title: String)]?
    package var store: DefaultsStore
    package var isSecret = false

    package init(
        name: String, defaultValue: Value?, formattedDefaultValue: String, title: String, info: String,
        range: (min: Value, max: Value, step: Value)?, options: [(value: Value, title: String)]?,
        store: DefaultsStore, isSecret: Bool = false
    ) {
        (self.name, self.defaultValue, self.formattedDefaultValue) = (name, defaultValue, formattedDefaultValue)
        (self.title, self.info, self.range, self.options) = (title, info, range, options)
        (self.store, self.isSecret) = (store, isSecret)
    }
}

extension SettingsCatalogListing {
    /// The schema declarations of a catalog's settings, superclasses' first.
    package static func schemaDeclarations(in mirror: Mirror) -> [any SchemaDeclaration] {
        members(of: mirror) { member in
            switch member {
            case let setting as any DescribableSetting: setting.schemaDeclaration
            case let declaring as any SchemaDeclaring: declaring.schemaDeclaration
            default: nil
            }
        }
    }
}

extension Setting {
    var schemaDeclaration: any SchemaDeclaration {
        let fixedDefault = property.keyBinding.defaultSource.fixedValue.map { property.applyingRules(to: $0) }
        return DeclaredKey(
            name: property.key, defaultValue: fixedDefault, formattedDefaultValue: fixedDefault.map(formatted) ?? "",
            title: title, info: info, range: stepping.map { ($0.min, $0.max, $0.step) },
            options: declaredOptions.map { $0.values.map { ($0, formatted($0)) } }, store: property.store)
    }
}

extension DefaultsKey {
    func typedSchemaDeclaration(storedIn fallback: DefaultsStore) -> any SchemaDeclaration {
        let store = self.store ?? fallback
        let fixedDefault = defaultSource.fixedValue.map { binding(in: store.state).applyingRules(to: $0) }
        return DeclaredKey(
            name: name, defaultValue: fixedDefault,
            formattedDefaultValue: fixedDefault.map(ValueDescription.describe) ?? "", title: "", info: "",
            range: nil, options: nil, store: store)
    }
}
