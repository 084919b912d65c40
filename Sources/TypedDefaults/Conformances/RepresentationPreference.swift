import Foundation

// A type can qualify for two representations. Without a word from you it gets the one a plain
// `UserDefaults` reader, or another platform, can read most easily:
//
// | The type is                       | Stored as, by default | Opt in to the other          |
// |-----------------------------------|-----------------------|------------------------------|
// | `RawRepresentable` and `Codable`  | its raw value         | ``DefaultsPreferCodable``    |
// | `NSSecureCoding` and `Codable`    | JSON (`Codable`)      | ``DefaultsPreferSecureCoding`` |

/// Stores a type that is `Codable` and also `RawRepresentable` as JSON instead of its raw value.
///
/// An enum with raw values that is also `Codable` is stored as its raw value by default
/// (`"dark"`), as `@AppStorage` and plain `UserDefaults` readers expect. Adopt this protocol in
/// place of ``DefaultsValueConvertible`` to store it as `Codable` JSON instead (`"\"dark\""`),
/// for example to keep reading values an earlier version wrote that way, or to read what
/// sindresorhus/Defaults wrote for such a type:
///
/// ```swift
/// enum Quality: String, Codable, DefaultsPreferCodable { case low, high }
/// @UserDefault("quality") var quality = Quality.high   // stored as the JSON text "\"high\""
/// ```
///
/// A class that is `NSSecureCoding` and `Codable` is stored as JSON already; see
/// ``DefaultsPreferSecureCoding`` to store it as a keyed archive.
public protocol DefaultsPreferCodable: Codable, DefaultsValueConvertible
where DefaultsRepresentation == String {}

// A type that is not `RawRepresentable` is stored as JSON already; this wins over the raw value.
extension DefaultsPreferCodable where Self: RawRepresentable, RawValue: DefaultsValueConvertible {
    public init(defaultsRepresentation: String) throws {
        self = try CodableJSON.decode(defaultsRepresentation)
    }

    public func defaultsRepresentation() throws -> String {
        try CodableJSON.encode(self)
    }
}

/// A class that is both `NSSecureCoding` and `Codable` is stored as `Codable` JSON by default:
/// a JSON string any platform can read, with none of the keyed archiver's limits on Linux.
/// Adopt ``DefaultsPreferSecureCoding`` to store it as a keyed archive instead.
extension DefaultsValueConvertible where Self: NSObject & NSSecureCoding & Codable {
    public init(defaultsRepresentation: String) throws {
        self = try CodableJSON.decode(defaultsRepresentation)
    }

    public func defaultsRepresentation() throws -> String {
        try CodableJSON.encode(self)
    }
}

/// Stores a class that is `NSSecureCoding` and also `Codable` as a keyed archive (`Data`)
/// instead of JSON.
///
/// Such a class is stored as `Codable` JSON by default. Adopt this protocol in place of
/// ``DefaultsValueConvertible`` to store it as an `NSKeyedArchiver` archive, as Apple-platform
/// code that calls `archivedData(withRootObject:requiringSecureCoding:)` wrote it:
///
/// ```swift
/// final class Bookmark: NSObject, NSSecureCoding, Codable, DefaultsPreferSecureCoding {
///     static var supportsSecureCoding: Bool { true }
///     let path: String
///     init(path: String) { self.path = path }
///     func encode(with coder: NSCoder) { coder.encode(path as NSString, forKey: "path") }
///     init?(coder: NSCoder) {
///         guard let path = coder.decodeObject(of: NSString.self, forKey: "path") else { return nil }
///         self.path = path as String
///     }
/// }
/// ```
///
/// The checks and limits of ``DefaultsValueConvertible`` for `NSSecureCoding` classes apply.
public protocol DefaultsPreferSecureCoding: DefaultsValueConvertible where DefaultsRepresentation == Data {}

extension DefaultsPreferSecureCoding where Self: NSObject & NSSecureCoding {
    public init(defaultsRepresentation data: Data) throws {
        self = try KeyedArchive.unarchive(Self.self, from: data)
    }

    public func defaultsRepresentation() throws -> Data {
        try KeyedArchive.archive(self)
    }
}
