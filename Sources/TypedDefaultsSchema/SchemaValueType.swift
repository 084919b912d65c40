import Foundation
import TypedDefaults

/// A stored type that knows its schema type: the native values and the collections of them.
protocol SchemaDescribable {
    static var schemaValueType: DefaultsSchema.ValueType { get }
}

extension String: SchemaDescribable {
    static var schemaValueType: DefaultsSchema.ValueType { .string }
}

extension Bool: SchemaDescribable {
    static var schemaValueType: DefaultsSchema.ValueType { .boolean }
}

extension DefaultsInteger {
    static var schemaValueType: DefaultsSchema.ValueType {
        .integer(lowest: Int64(clamping: Self.min), highest: UInt64(clamping: Self.max))
    }
}

extension Int: SchemaDescribable {}
extension Int8: SchemaDescribable {}
extension Int16: SchemaDescribable {}
extension Int32: SchemaDescribable {}
extension Int64: SchemaDescribable {}
extension UInt: SchemaDescribable {}
extension UInt8: SchemaDescribable {}
extension UInt16: SchemaDescribable {}
extension UInt32: SchemaDescribable {}
extension UInt64: SchemaDescribable {}

extension Double: SchemaDescribable {
    static var schemaValueType: DefaultsSchema.ValueType { .real }
}

extension Float: SchemaDescribable {
    static var schemaValueType: DefaultsSchema.ValueType { .real }
}

extension Date: SchemaDescribable {
    static var schemaValueType: DefaultsSchema.ValueType { .date }
}

extension Data: SchemaDescribable {
    static var schemaValueType: DefaultsSchema.ValueType { .data }
}

extension Array: SchemaDescribable where Element: DefaultsValue {
    static var schemaValueType: DefaultsSchema.ValueType { .array(of: SchemaValueType.of(stored: Element.self)) }
}

extension Dictionary: SchemaDescribable where Key == String, Value: DefaultsValue {
    static var schemaValueType: DefaultsSchema.ValueType { .dictionary(of: SchemaValueType.of(stored: Value.self)) }
}

extension Optional: SchemaDescribable where Wrapped: DefaultsValue {
    static var schemaValueType: DefaultsSchema.ValueType { .optional(SchemaValueType.of(stored: Wrapped.self)) }
}

/// Works out what a suite stores for a Swift type.
enum SchemaValueType {
    /// The schema type of a stored type: exact for the native values, ``DefaultsSchema/ValueType/any``
    /// for one only the program knows (a custom ``DefaultsValue``).
    static func of(stored type: Any.Type) -> DefaultsSchema.ValueType {
        (type as? any SchemaDescribable.Type)?.schemaValueType ?? .any
    }

    /// The schema type of `Value`: the type of its stored form, made precise by what a stored
    /// sample (its default) shows. A `Codable` value's string holds JSON, an `NSSecureCoding`
    /// value's data a keyed archive of its class, and a value stored as any property list (a
    /// `URL`) takes the kind of its sample.
    static func of<Value: DefaultsValueConvertible>(_ type: Value.Type, sample: DefaultsStoredValue?)
        -> DefaultsSchema.ValueType
    {
        refine(of(stored: Value.DefaultsRepresentation.self), by: sample, isEncodable: Value.self is any Encodable.Type)
    }

    private static func refine(
        _ type: DefaultsSchema.ValueType, by sample: DefaultsStoredValue?, isEncodable: Bool
    ) -> DefaultsSchema.ValueType {
        guard let sample else { return type }
        switch (type, sample.encoding) {
        case (.optional, .explicitNil):
            return type
        case (.optional(let wrapped), _):
            return .optional(refine(wrapped, by: sample, isEncodable: isEncodable))
        case (.string, .json) where isEncodable:
            return .json
        case (.data, .keyedArchive(let className)):
            return .keyedArchive(className: className)
        case (.any, .plain):
            return kindOnly(of: sample)
        default:
            return type
        }
    }

    private static func kindOnly(of sample: DefaultsStoredValue) -> DefaultsSchema.ValueType {
        switch sample.kind {
        case .string: .string
        case .integer: .integer(lowest: .min, highest: .max)
        case .real: .real
        case .boolean: .boolean
        case .date: .date
        case .data: .data
        case .array: .array(of: .any)
        case .dictionary: .dictionary(of: .any)
        }
    }
}
