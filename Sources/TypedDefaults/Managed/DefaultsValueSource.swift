/// Where the value a read gives came from: the layer of a managed suite that supplied it.
///
/// A suite is read in layers: an administrator's lock, then the user's value, then the
/// administrator's default, then the default in the code. A suite no administrator manages has
/// the user's and the code's only. See <doc:ManagedSettings>.
///
/// ```swift
/// switch store.valueSource(of: .telemetry) {
/// case .locked(let file): print("managed by your administrator (\(file))")
/// case .user: print("set by you")
/// default: print("the default")
/// }
/// ```
///
/// A minor version may add a source (Apple's "set once" keys): a `switch` ends with `default`.
@nonexhaustive
public enum DefaultsValueSource: Sendable, Hashable, CustomStringConvertible {
    /// Locked by the administrator in the file `by`: the administrator's value where one is set,
    /// else the code's default. The user's own value is kept, and shows again once the lock goes.
    case locked(by: String)
    /// The user's own value.
    case user
    /// The administrator's default, set in the file `from`: the user has none.
    case administratorDefault(from: String)
    /// The default in the code: no layer holds a value.
    case codeDefault

    public var description: String {
        switch self {
        case .locked(let file): "locked by \(file)"
        case .user: "the user's"
        case .administratorDefault(let file): "the administrator's default, from \(file)"
        case .codeDefault: "the code's default"
        }
    }
}
