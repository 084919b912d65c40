import Foundation

/// A `RawRepresentable` type, such as an enum with raw values, is stored as its raw value.
///
/// ```swift
/// enum Theme: String, DefaultsValueConvertible { case light, dark, system }
/// @UserDefault("theme") var theme = Theme.system
/// ```
///
/// A stored raw value with no matching case (a case removed in a later version, a typo
/// written by another tool) reads as the default and reports
/// ``DefaultsError/typeMismatch(key:expected:found:)``; the stored value is kept. A `Codable`
/// value that Defaults stored through its `Codable` bridge, the JSON of its raw value as a string
/// (`"\"12-hour\""`, `"180"`), reads as its case; a write stores the raw value again.
extension DefaultsValueConvertible where Self: RawRepresentable, RawValue: DefaultsValueConvertible {
    public init(defaultsRepresentation: RawValue.DefaultsRepresentation) throws {
        self = try RawValueStorage.value(from: defaultsRepresentation)
    }

    public func defaultsRepresentation() throws -> RawValue.DefaultsRepresentation {
        try rawValue.defaultsRepresentation()
    }
}

/// A type that is both `RawRepresentable` and `Codable` (`enum Theme: String, Codable`) is
/// stored as its raw value, as plain `UserDefaults` readers would expect, not as JSON.
extension DefaultsValueConvertible
where Self: RawRepresentable & Codable, RawValue: DefaultsValueConvertible {
    public init(defaultsRepresentation: RawValue.DefaultsRepresentation) throws {
        self = try RawValueStorage.value(from: defaultsRepresentation)
    }

    public func defaultsRepresentation() throws -> RawValue.DefaultsRepresentation {
        try rawValue.defaultsRepresentation()
    }
}

enum RawValueStorage {
    static func value<Value: RawRepresentable>(
        from representation: Value.RawValue.DefaultsRepresentation
    ) throws -> Value where Value.RawValue: DefaultsValueConvertible {
        let rawValue = try Value.RawValue(defaultsRepresentation: representation)
        guard let value = Value(rawValue: rawValue) ?? fromJSONString(rawValue) else {
            throw DefaultsTypeMismatch(
                expected: String(describing: Value.self),
                found: "unknown raw value \(StoredObject.describe(representation._propertyListObject))")
        }
        return value
    }

    /// The case whose raw value `text` holds as a JSON string, as Defaults' `Codable` bridge
    /// stores a `String`-backed enum: `"\"dark\""` for `.dark`.
    private static func fromJSONString<Value: RawRepresentable>(_ rawValue: Value.RawValue) -> Value? {
        guard let text = rawValue as? String, text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\""),
            let decoded = try? JSONDecoder().decode(String.self, from: Data(text.utf8)),
            let raw = decoded as? Value.RawValue
        else { return nil }
        return Value(rawValue: raw)
    }
}
