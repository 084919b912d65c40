/// Two handles are equal when they read the same key of the same suite and their values are
/// equal now, so a model that holds its settings as wrappers can be `Equatable` or `Hashable`
/// (Foil's pattern):
///
/// ```swift
/// struct Preferences: Hashable {
///     @UserDefault("fontSize") var fontSize = 12
///     @UserDefault("theme") var theme = "system"
/// }
/// ```
///
/// The value is read at each comparison. The hash is the suite's and the key's alone, so that a
/// handle in a `Set` or a dictionary's keys is still found after any handle or process writes its
/// key; equal handles are of one suite and key, so they hash alike. Keys are compared as stored,
/// scalar for scalar.
extension UserDefault: Equatable where Value: Equatable {
    public static func == (first: UserDefault, second: UserDefault) -> Bool {
        first.store.ownState === second.store.ownState && DefaultsStoredKey(first.key) == DefaultsStoredKey(second.key)
            && first.wrappedValue == second.wrappedValue
    }
}

extension UserDefault: Hashable where Value: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(store.ownState))
        hasher.combine(DefaultsStoredKey(key))
    }
}
