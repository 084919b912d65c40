/// Reading and writing `Double` and `Float`.
///
/// Both are stored as a `Double`. A `Float` comes back from the file as a `Double` on Linux
/// (0.1 reads as 0.10000000149011612); converting it back is exact, so the `Float` you stored
/// is the `Float` you read. A stored integer reads as the nearest floating-point value.
///
/// Infinity, NaN and `-0.0` round-trip. (Plain `UserDefaults` on Linux writes `-0.0` as `0.0`;
/// TypedDefaults writes the suite's file itself and keeps the sign.)
///
/// ```swift
/// @UserDefault("volume") var volume: Float = 0.8
/// ```
///
/// The family is the library's: store a number type of your own through
/// ``DefaultsValueConvertible``, as a `Double`.
public protocol DefaultsFloatingPoint: BinaryFloatingPoint, DefaultsValue {}

extension DefaultsFloatingPoint {
    public var _propertyListObject: Any { Double(self) }
}

/// Every floating-point type of the family reads alike.
extension PropertyListBridged where Self: DefaultsFloatingPoint {
    init(bridgedObject object: Any) throws {
        switch StoredObject.number(object) {
        case .floating(let stored): self.init(stored)
        case .signed(let stored): self.init(stored)
        case .unsigned(let stored): self.init(stored)
        default: throw DefaultsTypeMismatch(expected: Self.self, found: object)
        }
    }
}

extension Double: DefaultsFloatingPoint, PropertyListBridged {}
extension Float: DefaultsFloatingPoint, PropertyListBridged {}
