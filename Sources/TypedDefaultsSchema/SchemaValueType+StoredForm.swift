import Foundation
import TypedDefaults

extension DefaultsSchema.ValueType {
    /// `value` as a program that declares this type stores it: wherever the type holds a
    /// `Codable` value (``json``), its JSON is written again as TypedDefaults writes one, with
    /// the members of each object sorted, so that equal values give equal bytes.
    ///
    /// ```swift
    /// let stored = try DefaultsSchema.ValueType.json.storedForm(of: .string(#"{"width": 1280, "height": 720}"#))
    /// // .string(#"{"height":720,"width":1280}"#)
    /// ```
    ///
    /// A tool or a settings screen that writes a `Codable` value's JSON calls this first, as
    /// `typed-defaults write` does. Strings and numbers are written as `JSONEncoder` writes them:
    /// `1280.0` becomes `1280`, as a `Double` field holding it is written, and a number that a
    /// `Double` cannot hold exactly (`0.10000000000000000001`) keeps its digits, as a `Decimal`
    /// field does. Any other part of the value is returned as it is, and so is a value that is
    /// not of this type: ``problem(with:)`` says what is wrong with it.
    ///
    /// - Throws: `DefaultsStoredValue.FormatError` for JSON text that does not parse, an object
    ///   that names a member twice (as Swift compares strings, so `"caf\u{E9}"` and
    ///   `"cafe\u{301}"` are one name), or a number beyond what `Decimal` holds (`1e999`).
    public func storedForm(of value: DefaultsStoredValue) throws(DefaultsStoredValue.FormatError)
        -> DefaultsStoredValue
    {
        switch (self, value) {
        case (.json, .string(let text)):
            return .string(try CodableJSON.canonical(text))
        case (.optional(let wrapped), _):
            if case .explicitNil = value.encoding { return value }
            return try wrapped.storedForm(of: value)
        case (.array(let element), .array(let elements)):
            var stored: [DefaultsStoredValue] = []
            for item in elements { stored.append(try element.storedForm(of: item)) }
            return .array(stored)
        case (.dictionary(let entryType), .dictionary(let entries)):
            var stored: [DefaultsStoredKey: DefaultsStoredValue] = [:]
            for (key, entry) in entries { stored[key] = try entryType.storedForm(of: entry) }
            return .dictionary(stored)
        default:
            return value
        }
    }
}

extension CodableJSON {
    /// JSON text as the library writes a `Codable` value whose JSON it is: parsed, and encoded
    /// again by the same encoder (``encode(_:)``), so member order, string escapes and numbers
    /// are the encoder's.
    static func canonical(_ text: String) throws(DefaultsStoredValue.FormatError) -> String {
        let parsed: JSONText.Value
        do {
            parsed = try JSONText.parse(text)
        } catch {
            throw DefaultsStoredValue.FormatError("\(String(reflecting: text)) is not JSON: \(error)")
        }
        let value = try EncodableJSON(parsed)
        do {
            return try encode(value)
        } catch {
            throw DefaultsStoredValue.FormatError("\(String(reflecting: text)) cannot be written as JSON: \(error)")
        }
    }
}

/// A parsed JSON value, in the Swift types a `Codable` value's fields have, for `JSONEncoder`.
private enum EncodableJSON: Encodable {
    case object([String: EncodableJSON])
    case array([EncodableJSON])
    case string(String)
    case integer(Int64)
    case unsignedInteger(UInt64)
    case real(Double)
    case decimal(Decimal)
    case boolean(Bool)
    case null

    init(_ value: JSONText.Value) throws(DefaultsStoredValue.FormatError) {
        switch value {
        case .object(let members):
            var object: [String: EncodableJSON] = [:]
            for member in members {
                guard object[member.key] == nil else {
                    throw DefaultsStoredValue.FormatError("the member \(String(reflecting: member.key)) appears twice")
                }
                object[member.key] = try EncodableJSON(member.value)
            }
            self = .object(object)
        case .array(let elements):
            var array: [EncodableJSON] = []
            for element in elements { array.append(try EncodableJSON(element)) }
            self = .array(array)
        case .string(let text): self = .string(text)
        case .bool(let flag): self = .boolean(flag)
        case .null: self = .null
        case .number(let text, let isInteger):
            if isInteger, let number = Int64(text) {
                self = .integer(number)
            } else if isInteger, let number = UInt64(text) {
                self = .unsignedInteger(number)
            } else {
                self = try Self.number(text)
            }
        }
    }

    /// A number with a fraction or an exponent, or an integer beyond 64 bits: a `Double` when
    /// one holds it exactly, as a `Double` field is written; else a `Decimal`, which keeps up
    /// to 38 digits.
    private static func number(_ text: String) throws(DefaultsStoredValue.FormatError) -> EncodableJSON {
        guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !decimal.isNaN else {
            throw DefaultsStoredValue.FormatError("\(text) is beyond the numbers a Codable value holds")
        }
        if let real = Double(text), real.isFinite,
            Decimal(string: "\(real)", locale: Locale(identifier: "en_US_POSIX")) == decimal
        {
            return .real(real)
        }
        return .decimal(decimal)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .object(let members): try container.encode(members)
        case .array(let elements): try container.encode(elements)
        case .string(let text): try container.encode(text)
        case .integer(let number): try container.encode(number)
        case .unsignedInteger(let number): try container.encode(number)
        case .real(let number): try container.encode(number)
        case .decimal(let number): try container.encode(number)
        case .boolean(let flag): try container.encode(flag)
        case .null: try container.encodeNil()
        }
    }
}
