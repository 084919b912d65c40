/// Dictionaries are stored as property-list dictionaries when their keys convert to `String`:
/// `String`, `UUID`, `URL`, `String`-backed enums and your own such types.
///
/// Values may be any storable type, nested to any depth. As with arrays, a dictionary is read
/// whole or not at all, and a failed read leaves the stored data untouched. Two keys that
/// convert to the same string would overwrite each other, so such a write is refused with
/// ``DefaultsError/encodingFailed(key:underlying:)``.
///
/// ```swift
/// @UserDefault("themesByWindow") var themesByWindow: [String: [Theme?]] = [:]
/// @UserDefault("volumes") var volumes: [Channel: Double] = [.music: 0.5]   // enum Channel: String
/// ```
extension Dictionary: DefaultsValueConvertible
where Key: DefaultsValueConvertible, Key.DefaultsRepresentation == String, Value: DefaultsValueConvertible {
    public typealias DefaultsRepresentation = [String: Value.DefaultsRepresentation]

    public init(defaultsRepresentation: [String: Value.DefaultsRepresentation]) throws {
        self.init(minimumCapacity: defaultsRepresentation.count)
        for (key, value) in defaultsRepresentation {
            self[try Located.entry(key) { try Key(defaultsRepresentation: key) }] = try Located.entry(key) {
                try Value(defaultsRepresentation: value)
            }
        }
    }

    public func defaultsRepresentation() throws -> [String: Value.DefaultsRepresentation] {
        var result = [String: Value.DefaultsRepresentation](minimumCapacity: count)
        for (key, value) in self {
            let storedKey = try key.defaultsRepresentation()
            guard result.updateValue(try value.defaultsRepresentation(), forKey: storedKey) == nil else {
                throw DuplicateDictionaryKey(storedKey: storedKey)
            }
        }
        return result
    }
}

/// Two keys of a dictionary convert to the same stored string.
public struct DuplicateDictionaryKey: Error, CustomStringConvertible {
    /// The string both keys convert to.
    public var storedKey: String

    public var description: String {
        "two dictionary keys are stored as \"\(storedKey)\""
    }
}

extension Dictionary: DefaultsValue where Key == String, Value: DefaultsValue {
    public init(_propertyListObject object: Any) throws {
        guard let entries = StoredObject.dictionary(object) else {
            throw DefaultsTypeMismatch(expected: [String: Value].self, found: object)
        }
        self.init(minimumCapacity: entries.count)
        for (key, entry) in entries {
            self[key] = try Located.entry(key) { try Value(_propertyListObject: entry) }
        }
    }

    public var _propertyListObject: Any {
        mapValues(\._propertyListObject) as [String: Any]
    }
}
