import Foundation

/// A type that `UserDefaults` stores natively: a property-list value.
///
/// `Bool`, the integer and floating-point types, `String`, `Data`, `Date`, and arrays,
/// `String`-keyed dictionaries and optionals of these conform. Every ``DefaultsValueConvertible``
/// type is ultimately stored as one of them.
///
/// The set is the library's: it bridges each of these types to the object `UserDefaults` holds
/// and back. A conformance of your own (to this protocol or to its families, ``DefaultsInteger``
/// and ``DefaultsFloatingPoint``) could be written but not read back, so it is refused, with a
/// typed error, both when written and when read; convert such a type to one of these with
/// ``DefaultsValueConvertible`` instead. Reading is strict: an object of another type throws
/// ``DefaultsTypeMismatch`` rather than being coerced, so a stored `"42"` never reads as the
/// integer `42`.
///
/// ```swift
/// @UserDefault("count") var count = 0   // Int is a DefaultsValue: stored as a number
/// ```
public protocol DefaultsValue: DefaultsValueConvertible where DefaultsRepresentation == Self {
    /// The object handed to `UserDefaults`: the library's plumbing, so it begins with an
    /// underscore, which keeps it out of code completion. It must be a property-list object
    /// (`String`, a number, `Bool`, `Data`, `Date`, or arrays and `String`-keyed dictionaries of
    /// these): anything else is refused before it reaches `UserDefaults`, which would crash on
    /// Linux.
    var _propertyListObject: Any { get }

    /// Reads the value stored under `key` in the suite of `defaults`. Implemented once for every
    /// such type (a requirement, as in juliand665/UserDefault, where this API comes from).
    init(from defaults: UserDefaults, forKey key: String) throws(DefaultsError)

    /// Stores the value under `key` in the suite of `defaults`. Implemented once for every such
    /// type.
    func save(to defaults: UserDefaults, forKey key: String)
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

    /// A value that `UserDefaults` holds as it is (`String`, `Data`, `Bool`) is its own object.
    public var _propertyListObject: Any { self }
}
