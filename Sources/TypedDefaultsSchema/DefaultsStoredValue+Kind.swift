import TypedDefaults

/// What kind of property-list value a stored value is, as tools name it.
extension DefaultsStoredValue {
    /// The kinds of property-list value, named as macOS `defaults read-type` names them.
    public enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case string, integer, real = "float", boolean, date, data, array, dictionary

        public var description: String { rawValue }
    }

    /// The value's kind; both integer cases are ``Kind/integer``.
    public var kind: Kind {
        switch self {
        case .string: .string
        case .integer, .unsignedInteger: .integer
        case .real: .real
        case .boolean: .boolean
        case .date: .date
        case .data: .data
        case .array: .array
        case .dictionary: .dictionary
        }
    }
}
