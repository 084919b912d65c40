/// The value type each key name was declared with, to catch one name declared with two types.
enum KeyRegistry {
    /// By key name: the type first declared for it, and that type's name for the report.
    private static let declared = Locked<[String: (type: ObjectIdentifier, name: String)]>([:])

    static func register<Value>(name: String, type: Value.Type) {
        let first = declared.withLock { declared in
            if let first = declared[name] { return first }
            let first = (type: ObjectIdentifier(type), name: String(reflecting: type))
            declared[name] = first
            return first
        }
        guard first.type != ObjectIdentifier(type) else { return }
        DefaultsError.report(.keyTypeConflict(key: name, types: [first.name, String(reflecting: type)]))
    }
}
