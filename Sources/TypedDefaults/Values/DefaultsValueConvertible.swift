/// A type that `@UserDefault` can store, by converting it to and from a ``DefaultsValue``.
///
/// Most conformances need no code: integers, floating-point numbers, `String`, `Data`, `Date`,
/// `URL`, `UUID`, arrays, sets, dictionaries and optionals conform already, and an empty
/// conformance is enough for `RawRepresentable` enums, `Codable` types, `NSSecureCoding`
/// classes and custom collections (``ExpressibleByArray``):
///
/// ```swift
/// enum Theme: String, DefaultsValueConvertible { case light, dark, system }
/// struct Layout: Codable, DefaultsValueConvertible { var columns: Int }
/// ```
///
/// For anything else, say how to convert:
///
/// ```swift
/// struct Convertible { var name: String }
/// extension Convertible: DefaultsValueConvertible {
///     typealias DefaultsRepresentation = String
///     init(defaultsRepresentation: String) throws { name = defaultsRepresentation }
///     func defaultsRepresentation() throws -> String { name }
/// }
/// ```
///
/// An error thrown by either requirement is never fatal: a failed read returns the property's
/// default and reports ``DefaultsError/corrupt(key:underlying:)``, a failed write stores nothing
/// and reports ``DefaultsError/encodingFailed(key:underlying:)``.
public protocol DefaultsValueConvertible {
    /// The property-list type the value is stored as.
    associatedtype DefaultsRepresentation: DefaultsValue

    /// Creates a value from its stored representation.
    ///
    /// Throw when the representation does not describe a valid value; the read then returns
    /// the default and the stored data is left as it is.
    init(defaultsRepresentation: DefaultsRepresentation) throws

    /// Returns the representation to store.
    ///
    /// Throw when the value cannot be stored; the write is then skipped.
    func defaultsRepresentation() throws -> DefaultsRepresentation
}
