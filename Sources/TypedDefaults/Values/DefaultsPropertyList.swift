/// Any property-list value, stored as it is: what `NSNumber`, `NSArray` and `NSDictionary`
/// properties store, and a way to read a key whose type varies.
///
/// ```swift
/// @UserDefault("anything") var anything = DefaultsPropertyList(["mixed", 1, true] as [Any])
/// ```
///
/// A value that is not a property list (a `Set`, a custom object) is refused when written.
public struct DefaultsPropertyList: DefaultsValue {
    /// The property-list object: a string, number, boolean, `Data`, `Date`, or an array or
    /// `String`-keyed dictionary of these.
    public let object: Any

    public init(_ object: Any) {
        self.object = object
    }

    public init(_propertyListObject object: Any) {
        self.object = object
    }

    public var _propertyListObject: Any { object }
}
