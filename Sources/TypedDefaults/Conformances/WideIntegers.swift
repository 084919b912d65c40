/// `Int128` and `UInt128` are stored as their decimal text (`"-170141183460469231731687303715884105728"`):
/// a property-list integer holds 64 bits, and text keeps every value exact. As text, they can
/// also be dictionary keys.
///
/// ```swift
/// @UserDefault("totalBytes") var totalBytes: UInt128 = 0
/// ```
///
/// Text that is not a whole integer, or one out of the type's range, is a type mismatch, as is
/// a stored number.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension Int128: DefaultsValueConvertible {
    public init(defaultsRepresentation text: String) throws {
        self = try WideInteger.parse(text)
    }

    public func defaultsRepresentation() -> String {
        description
    }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension UInt128: DefaultsValueConvertible {
    public init(defaultsRepresentation text: String) throws {
        self = try WideInteger.parse(text)
    }

    public func defaultsRepresentation() -> String {
        description
    }
}

enum WideInteger {
    static func parse<Value: FixedWidthInteger & LosslessStringConvertible>(_ text: String) throws -> Value {
        guard let value = Value(text) else { throw DefaultsTypeMismatch(expected: Value.self, found: text) }
        return value
    }
}
