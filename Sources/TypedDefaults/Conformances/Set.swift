/// Sets are stored as property-list arrays (plain `UserDefaults` crashes on a `Set`).
///
/// The order of the stored array is unspecified. Reading collapses duplicates.
///
/// ```swift
/// @UserDefault("favoriteIDs") var favoriteIDs: Set<UUID> = []
/// ```
extension Set: DefaultsValueConvertible where Element: DefaultsValueConvertible {
    public typealias DefaultsRepresentation = [Element.DefaultsRepresentation]

    public init(defaultsRepresentation: [Element.DefaultsRepresentation]) throws {
        self = Set(try Located.map(defaultsRepresentation, Element.init(defaultsRepresentation:)))
    }

    public func defaultsRepresentation() throws -> [Element.DefaultsRepresentation] {
        try map { try $0.defaultsRepresentation() }
    }
}
