/// Sets are stored as property-list arrays (plain `UserDefaults` crashes on a `Set`).
///
/// The order of the stored array is unspecified. Reading collapses duplicates.
///
/// ```swift
/// @UserDefault("favoriteIDs") var favoriteIDs: Set<UUID> = []
/// ```
extension Set: ExpressibleBySequence {}

extension Set: DefaultsValueConvertible where Element: DefaultsValueConvertible {}
