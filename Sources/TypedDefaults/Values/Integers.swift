/// Reading and writing every fixed-width integer exactly.
///
/// On Linux `UserDefaults.integer(forKey:)` returns 0 for `Int.max` and for `UInt64` values
/// above `Int64.max`, and `as? Int` fails for them. Integers are therefore read through their
/// stored number and converted only when the value fits, so `Int64.min`, `Int.max` and
/// `UInt64.max` round-trip, and a value that does not fit (300 read as `UInt8`) is a
/// ``DefaultsTypeMismatch``, never a truncation.
///
/// ```swift
/// @UserDefault("largest") var largest = UInt64.max
/// ```
///
/// The family is the library's: store an integer type of your own through
/// ``DefaultsValueConvertible``, as an `Int` or a `String`.
public protocol DefaultsInteger: FixedWidthInteger, DefaultsValue {}

extension DefaultsInteger {
    /// Stored as an `Int` when it fits, so plain `UserDefaults` readers see an ordinary
    /// integer; larger unsigned values as `UInt64`.
    public var _propertyListObject: Any {
        if let small = Int(exactly: self) { return small }
        return UInt64(self)
    }
}

/// Every integer of the family reads alike.
extension PropertyListBridged where Self: DefaultsInteger {
    init(bridgedObject object: Any) throws {
        let value: Self?
        switch StoredObject.number(object) {
        case .signed(let stored): value = Self(exactly: stored)
        case .unsigned(let stored): value = Self(exactly: stored)
        default: value = nil
        }
        guard let value else { throw DefaultsTypeMismatch(expected: Self.self, found: object) }
        self = value
    }
}

extension Int: DefaultsInteger, PropertyListBridged {}
extension Int8: DefaultsInteger, PropertyListBridged {}
extension Int16: DefaultsInteger, PropertyListBridged {}
extension Int32: DefaultsInteger, PropertyListBridged {}
extension Int64: DefaultsInteger, PropertyListBridged {}
extension UInt: DefaultsInteger, PropertyListBridged {}
extension UInt8: DefaultsInteger, PropertyListBridged {}
extension UInt16: DefaultsInteger, PropertyListBridged {}
extension UInt32: DefaultsInteger, PropertyListBridged {}
extension UInt64: DefaultsInteger, PropertyListBridged {}
