/// A change of one stored value, as delivered to ``UserDefault/observe(initial:_:)``.
///
/// ```swift
/// let observation = $theme.observe { change in
///     print("theme: \(change.oldValue) → \(change.newValue)")
/// }
/// ```
///
/// A value that is not stored, or cannot be read, appears as the property's default.
public struct DefaultsChange<Value: Sendable>: Sendable {
    /// The key that changed.
    public let key: String
    /// The value before the change.
    public let oldValue: Value
    /// The value after the change.
    public let newValue: Value
    /// Where the change came from.
    public let origin: DefaultsKeyChange.Origin
}

/// A change of some key in a store, as delivered to ``DefaultsStore/observe(keys:initial:_:)``.
///
/// ```swift
/// let observation = store.observe(keys: ["theme", "volume"]) { change in
///     print("\(change.key) changed (\(change.origin))")
/// }
/// ```
public struct DefaultsKeyChange: Sendable, Hashable {
    /// Where a change came from.
    public enum Origin: Sendable, Hashable {
        /// A write in this process, through any handle of the store.
        case thisProcess
        /// A write by another process (or a plain `UserDefaults` write), noticed when the suite
        /// was reloaded.
        case otherProcess
    }

    /// The key that changed.
    public let key: String
    /// Where the change came from.
    public let origin: Origin
}
