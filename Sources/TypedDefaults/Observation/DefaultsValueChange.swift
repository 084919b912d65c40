/// A change of one stored value, with its old and new values typed, as delivered to
/// ``UserDefault/observe(initial:_:)`` and ``DefaultsStore/observe(_:initial:_:)``.
///
/// ```swift
/// let observation = $theme.observe { change in
///     print("theme: \(change.oldValue) → \(change.newValue)")
/// }
/// ```
///
/// A value that is not stored, or cannot be read, appears as the property's default.
public struct DefaultsValueChange<Value: Sendable>: Sendable {
    /// The key that changed.
    public let key: String
    /// The value before the change.
    public let oldValue: Value
    /// The value after the change.
    public let newValue: Value
    /// Where the change came from.
    public let origin: DefaultsChangeOrigin
}

/// A change of some key in a store, as delivered to
/// ``DefaultsStore/observe(keys:initial:_:)-(Sequence<String>,_,_)``.
///
/// ```swift
/// let observation = store.observe(keys: ["theme", "volume"]) { change in
///     print("\(change.key) changed (\(change.origin))")
/// }
/// ```
///
/// It names the key and no values, because the keys of a store can hold any type; observe a
/// typed key (``DefaultsStore/observe(_:initial:_:)``) for a ``DefaultsValueChange`` with the
/// old and new values.
public struct DefaultsKeyChange: Sendable, Hashable {
    /// The key that changed.
    public let key: String
    /// Where the change came from.
    public let origin: DefaultsChangeOrigin
}

/// Where a change came from: this process, or another program writing the same suite.
///
/// ```swift
/// let observation = $theme.observe { change in
///     if change.origin == .otherProcess { print("changed by another program") }
/// }
/// ```
///
/// A minor version may add an origin (a managed profile, a sync service): a `switch` that
/// names every case ends with `@unknown default`.
@nonexhaustive
public enum DefaultsChangeOrigin: Sendable, Hashable {
    /// A write in this process, through any handle of the store.
    case thisProcess
    /// A write by another process (or a plain `UserDefaults` write), noticed when the suite
    /// was reloaded.
    case otherProcess
}
