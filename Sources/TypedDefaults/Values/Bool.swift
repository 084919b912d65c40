extension Bool: DefaultsValue {
    /// Reads a stored boolean. A stored integer `0` or `1` is a mismatch, not a boolean.
    public init(_propertyListObject object: Any) throws {
        guard case .bool(let value) = StoredObject.number(object) else {
            throw DefaultsTypeMismatch(expected: Bool.self, found: object)
        }
        self = value
    }

    public var _propertyListObject: Any { self }
}
