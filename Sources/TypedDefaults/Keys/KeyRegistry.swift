/// The value type each key name was declared with, to catch one name declared with two types.
enum KeyRegistry {
    private static let types = Locked<[String: ObjectIdentifier]>([:])
    private static let typeNames = Locked<[ObjectIdentifier: String]>([:])

    static func register<Value>(name: String, type: Value.Type) {
        let identifier = ObjectIdentifier(type)
        typeNames.withLock { $0[identifier] = String(reflecting: type) }
        let existing = types.withLock { types in
            if let existing = types[name] { return existing }
            types[name] = identifier
            return identifier
        }
        guard existing != identifier else { return }
        let first = typeNames.withLock { $0[existing] } ?? "another type"
        DefaultsError.report(.keyTypeConflict(key: name, types: [first, String(reflecting: type)]))
    }
}
