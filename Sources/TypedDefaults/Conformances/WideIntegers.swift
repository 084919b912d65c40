/// An integer wider than a property-list integer (64 bits), stored as its decimal text.
///
/// `Int128` and `UInt128` conform, where the platform has them (Linux; macOS 15, iOS 18):
/// `"-170141183460469231731687303715884105728"`. Text keeps every value exact, and lets such
/// integers be dictionary keys.
///
/// ```swift
/// @UserDefault("totalBytes") var totalBytes: UInt128 = 0
/// ```
///
/// Text that is not a whole integer, or one out of the type's range, is a type mismatch, as is
/// a stored number.
public protocol DefaultsWideInteger: FixedWidthInteger, LosslessStringConvertible, DefaultsValueConvertible
where DefaultsRepresentation == String {}

extension DefaultsWideInteger {
    public init(defaultsRepresentation text: String) throws {
        guard let value = Self(text) else { throw DefaultsTypeMismatch(expected: Self.self, found: text) }
        self = value
    }

    public func defaultsRepresentation() -> String {
        description
    }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension Int128: DefaultsWideInteger {}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension UInt128: DefaultsWideInteger {}
