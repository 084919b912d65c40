import Foundation

/// A `Codable` type is stored as a JSON **string**, with sorted keys so that equal values give
/// equal bytes.
///
/// A string, not `Data`: on Linux setting or reading `Data` costs about 60 ns per byte, a
/// `String` the same at any length. The format matches what sindresorhus/Defaults writes for
/// `Codable` values.
///
/// ```swift
/// struct WindowLayout: Codable, DefaultsValueConvertible { var width, height: Int }
/// @UserDefault("layout") var layout = WindowLayout(width: 800, height: 600)
/// ```
///
/// Malformed JSON reads as the default and reports ``DefaultsError/corrupt(key:underlying:)``;
/// a value JSON cannot hold (a `Double.nan` field) is not written and reports
/// ``DefaultsError/encodingFailed(key:underlying:)``.
///
/// A type that is `Codable` and also `RawRepresentable` or `NSSecureCoding` qualifies for two
/// representations; see ``DefaultsPreferCodable`` for which one it gets and how to pick.
extension DefaultsValueConvertible where Self: Codable {
    public init(defaultsRepresentation: String) throws {
        self = try CodableJSON.decode(defaultsRepresentation)
    }

    public func defaultsRepresentation() throws -> String {
        try CodableJSON.encode(self)
    }
}

/// The JSON text a `Codable` value is stored as.
package enum CodableJSON {
    static func decode<Value: Decodable>(_ json: String) throws -> Value {
        try JSONDecoder().decode(Value.self, from: Data(json.utf8))
    }

    package static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
