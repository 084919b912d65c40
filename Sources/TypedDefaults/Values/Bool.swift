extension Bool: DefaultsValue {}

extension Bool: PropertyListBridged {
    /// Reads a stored boolean. A stored integer `0` or `1` is a mismatch, not a boolean.
    init(bridgedObject object: Any) throws {
        guard case .bool(let value) = StoredObject.number(object) else {
            throw DefaultsTypeMismatch(expected: Bool.self, found: object)
        }
        self = value
    }
}
