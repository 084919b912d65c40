import Foundation
import TypedDefaults

extension DefaultsStoredValue {
    /// How TypedDefaults encoded a value in a plain property-list value, so that a tool can
    /// show it as the program's author wrote it.
    public enum Encoding: Sendable, Hashable {
        /// An ordinary value.
        case plain
        /// An explicit `nil` of an optional (`{"__TypedDefaults.nil": depth}`): `depth` 0 is
        /// `nil`, 1 is `.some(nil)`, and so on.
        case explicitNil(depth: Int)
        /// A `Codable` value: a string holding a JSON object or array.
        case json
        /// An `NSSecureCoding` object: data holding a keyed archive of the class named.
        case keyedArchive(className: String)
    }

    /// How TypedDefaults encoded the value. A string is ``Encoding/json`` when it holds a JSON
    /// object or array; data when it is a keyed archive whose root object's class can be named.
    ///
    /// ```swift
    /// if case .keyedArchive(let className) = value.encoding { print("an archived \(className)") }
    /// ```
    public var encoding: Encoding {
        switch self {
        case .dictionary:
            if let depth = NilMarker.depth(of: propertyListObject) { return .explicitNil(depth: depth) }
        case .string(let text):
            if let first = text.utf8.first(where: { !JSONText.isWhitespace($0) }),
                first == UInt8(ascii: "{") || first == UInt8(ascii: "["), (try? JSONText.parse(text)) != nil
            {
                return .json
            }
        case .data(let bytes):
            if bytes.starts(with: Array("bplist00".utf8)), let name = KeyedArchive.rootClassName(in: bytes) {
                return .keyedArchive(className: name)
            }
        default:
            break
        }
        return .plain
    }
}
