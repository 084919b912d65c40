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
extension DefaultsValueConvertible where Self: Codable {
    public init(defaultsRepresentation: String) throws {
        self = try JSONDecoder().decode(Self.self, from: Data(defaultsRepresentation.utf8))
    }

    public func defaultsRepresentation() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
