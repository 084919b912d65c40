/// Reading and writing `Double` and `Float`.
///
/// Both are stored as a `Double`. A `Float` comes back from the file as a `Double` on Linux
/// (0.1 reads as 0.10000000149011612); converting it back is exact, so the `Float` you stored
/// is the `Float` you read. A stored integer reads as the nearest floating-point value.
///
/// Infinity and NaN round-trip. On Linux `-0.0` comes back as `0.0` after a restart, because
/// the XML property-list writer drops the sign of zero; the two compare equal.
///
/// ```swift
/// @UserDefault("volume") var volume: Float = 0.8
/// ```
public protocol DefaultsFloatingPoint: BinaryFloatingPoint, DefaultsValue {}

extension DefaultsFloatingPoint {
    public init(propertyListObject object: Any) throws {
        switch StoredObject.number(object) {
        case .floating(let stored): self.init(stored)
        case .signed(let stored): self.init(stored)
        case .unsigned(let stored): self.init(stored)
        default: throw DefaultsTypeMismatch(expected: Self.self, found: object)
        }
    }

    public var propertyListObject: Any { Double(self) }
}

extension Double: DefaultsFloatingPoint {}
extension Float: DefaultsFloatingPoint {}
