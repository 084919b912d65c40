/// A type stored by converting it to another ``DefaultsValueConvertible`` type.
///
/// Conversions chain: the intermediate type may itself be indirect, to any depth, and the
/// value ends up stored as the last type's ``DefaultsValueConvertible/DefaultsRepresentation``.
///
/// ```swift
/// struct IndirectConvertible { var name: String }
/// extension IndirectConvertible: IndirectDefaultsValueConvertible {
///     typealias DefaultsRepresentation = Convertible.DefaultsRepresentation
///     init(indirectRepresentation: Convertible) throws { name = indirectRepresentation.name }
///     func indirectRepresentation() throws -> Convertible { Convertible(name: name) }
/// }
/// ```
public protocol IndirectDefaultsValueConvertible: DefaultsValueConvertible {
    /// The convertible type this one is stored as.
    associatedtype IndirectRepresentation: DefaultsValueConvertible
    where IndirectRepresentation.DefaultsRepresentation == DefaultsRepresentation

    /// Creates a value from the intermediate type.
    init(indirectRepresentation: IndirectRepresentation) throws

    /// Returns the intermediate value to store.
    func indirectRepresentation() throws -> IndirectRepresentation
}

extension IndirectDefaultsValueConvertible {
    public init(defaultsRepresentation: DefaultsRepresentation) throws {
        try self.init(
            indirectRepresentation: IndirectRepresentation(defaultsRepresentation: defaultsRepresentation))
    }

    public func defaultsRepresentation() throws -> DefaultsRepresentation {
        try indirectRepresentation().defaultsRepresentation()
    }
}
