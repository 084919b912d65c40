/// A type that `UserDefaults` stores natively: a property-list value.
///
/// `Bool`, the integer and floating-point types, `String`, `Data`, `Date`, and arrays,
/// `String`-keyed dictionaries and optionals of these conform. Every ``DefaultsValueConvertible``
/// type is ultimately stored as one of them. You rarely conform a type yourself; convert it to an
/// existing one with ``DefaultsValueConvertible`` instead.
///
/// A conformance bridges the value to the object handed to `UserDefaults` and back. Reading is
/// strict: an object of another type throws ``DefaultsTypeMismatch`` rather than being coerced,
/// so a stored `"42"` never reads as the integer `42`. The bridge is the library's plumbing, so
/// its two requirements begin with an underscore, which keeps them out of code completion.
///
/// ```swift
/// @UserDefault("count") var count = 0   // Int is a DefaultsValue: stored as a number
/// ```
public protocol DefaultsValue: DefaultsValueConvertible where DefaultsRepresentation == Self {
    /// Reads a value from an object that `UserDefaults` returned.
    ///
    /// - Throws: ``DefaultsTypeMismatch`` when the object is not a valid value of this type.
    init(_propertyListObject: Any) throws

    /// The object handed to `UserDefaults`. It must be a property-list object (`String`,
    /// a number, `Bool`, `Data`, `Date`, or arrays and `String`-keyed dictionaries of these):
    /// anything else is refused before it reaches `UserDefaults`, which would crash on Linux.
    var _propertyListObject: Any { get }
}

extension DefaultsValue {
    /// A native value is its own representation.
    public init(defaultsRepresentation: Self) {
        self = defaultsRepresentation
    }

    /// A native value is its own representation.
    public func defaultsRepresentation() -> Self {
        self
    }
}
