import Foundation

/// What a suite stores under a key, as a typed property-list value: for tools, settings
/// screens and backups that handle values without knowing their Swift types.
///
/// ```swift
/// let store = try DefaultsStore(suiteName: "com.example.app")
/// for (key, value) in try store.storedValues() {
///     print(key, value)
/// }
/// try store.editStoredValues { values in
///     values["fontSize"] = .integer(14)
/// }
/// ```
///
/// Read from a suite, every integer that fits `Int64` is ``integer(_:)``, and only one above
/// `Int64.max` is ``unsignedInteger(_:)``; a `Float` comes back as ``real(_:)``.
public enum DefaultsStoredValue: Sendable, Hashable {
    case string(String)
    case integer(Int64)
    /// An integer above `Int64.max`.
    case unsignedInteger(UInt64)
    case real(Double)
    case boolean(Bool)
    case date(Date)
    case data(Data)
    case array([DefaultsStoredValue])
    /// Keyed exactly: two keys that differ only in their Unicode normalization are two keys
    /// (see ``DefaultsStoredKey``).
    case dictionary([DefaultsStoredKey: DefaultsStoredValue])

    /// The value of a property-list object as Foundation returns it, or `nil` for an object
    /// that is not a property list, or one that nests deeper than a suite may hold.
    /// `TypedDefaultsSchema` gives it to users as `init(propertyListObject:)`.
    package init?(plistObject object: Any) {
        self.init(object, depth: 0)
    }

    private init?(_ object: Any, depth: Int) {
        if let string = object as? String {
            self = .string(string)
        } else if let number = StoredObject.number(object) {
            switch number {
            case .bool(let value): self = .boolean(value)
            case .signed(let value): self = .integer(value)
            case .unsigned(let value): self = Int64(exactly: value).map(Self.integer) ?? .unsignedInteger(value)
            case .floating(let value): self = .real(value)
            }
        } else if let data = object as? Data {
            self = .data(data)
        } else if let date = object as? Date {
            self = .date(date)
        } else if depth < StoredObject.maximumNestingDepth, let elements = StoredObject.array(object) {
            var values: [DefaultsStoredValue] = []
            values.reserveCapacity(elements.count)
            for element in elements {
                guard let value = DefaultsStoredValue(element, depth: depth + 1) else { return nil }
                values.append(value)
            }
            self = .array(values)
        } else if depth < StoredObject.maximumNestingDepth, let entries = StoredObject.exactEntries(object) {
            var values: [DefaultsStoredKey: DefaultsStoredValue] = [:]
            values.reserveCapacity(entries.count)
            for (key, entry) in entries {
                guard let value = DefaultsStoredValue(entry, depth: depth + 1) else { return nil }
                values[key] = value
            }
            self = .dictionary(values)
        } else {
            return nil
        }
    }

    /// The value as the Swift objects the engine writes; `TypedDefaultsSchema` gives it to
    /// users as `propertyListObject`.
    package var plistObject: Any {
        switch self {
        case .string(let value): value
        case .integer(let value): Int(exactly: value).map { $0 as Any } ?? value
        case .unsignedInteger(let value): Int(exactly: value).map { $0 as Any } ?? value
        case .real(let value): value
        case .boolean(let value): value
        case .date(let value): value
        case .data(let value): value
        case .array(let values): values.map(\.plistObject)
        case .dictionary(let values): StoredObject.dictionaryObject(values.mapValues(\.plistObject))
        }
    }
}

extension DefaultsStoredValue {
    /// `value` as a suite would store it under `key`; `nil` when it cannot be stored.
    package init?<Value: DefaultsValueConvertible>(storing value: Value, key: String) {
        guard case .success(let stored) = Conversion.encode(value, key: key),
            let storedValue = DefaultsStoredValue(plistObject: stored.object)
        else { return nil }
        self = storedValue
    }
}

/// Stored as itself, so a key can hold any property-list value:
/// `@UserDefault("extras") var extras = DefaultsStoredValue.dictionary([:])`.
extension DefaultsStoredValue: DefaultsValue, PropertyListBridged {
    init(bridgedObject object: Any) throws {
        guard let value = DefaultsStoredValue(plistObject: object) else {
            throw DefaultsTypeMismatch(expected: DefaultsStoredValue.self, found: object)
        }
        self = value
    }

    public var _propertyListObject: Any { plistObject }
}
