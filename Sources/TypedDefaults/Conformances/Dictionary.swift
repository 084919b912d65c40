/// Dictionaries are stored as property-list dictionaries, whose keys are strings. Any storable
/// key type whose stored form is a string or a number works: `String`, `UUID`, `Character`,
/// integers (`[Int: String]`, stored with the key `"42"`), `Int128`, `Bool`, floating-point
/// numbers, enums backed by any of these, and your own types converted to one of them. `URL`
/// is not a key type (its stored form may also be an archive): key by its `absoluteString`.
///
/// A key stored as a number is written as its text and read back exactly; a stored key that is
/// not the text of a valid key (`"4x"` in an `[Int: String]`) is a type mismatch naming the key,
/// as are two stored keys that read as one (`"5"` and `"05"`).
///
/// Values may be any storable type, nested to any depth. As with arrays, a dictionary is read
/// whole or not at all, and a failed read leaves the stored data untouched. Two keys that
/// convert to the same string would overwrite each other, so such a write is refused with
/// ``DefaultsError/encodingFailed(key:underlying:)``.
///
/// ```swift
/// @UserDefault("themesByWindow") var themesByWindow: [String: [Theme?]] = [:]
/// @UserDefault("volumes") var volumes: [Channel: Double] = [.music: 0.5]   // enum Channel: String
/// @UserDefault("pageTitles") var pageTitles: [Int: String] = [1: "Intro"]
/// ```
///
/// A type of your own that is `LosslessStringConvertible` becomes a key by storing its
/// description:
///
/// ```swift
/// struct Ticket: Hashable, LosslessStringConvertible, DefaultsValueConvertible {
///     var number: Int
///     init(number: Int) { self.number = number }
///     init?(_ description: String) { guard let number = Int(description) else { return nil }; self.number = number }
///     var description: String { String(number) }
///     init(defaultsRepresentation: String) throws {
///         guard let ticket = Ticket(defaultsRepresentation) else {
///             throw DefaultsTypeMismatch(expected: Ticket.self, found: defaultsRepresentation)
///         }
///         self = ticket
///     }
///     func defaultsRepresentation() -> String { description }
/// }
/// ```
extension Dictionary: DefaultsValueConvertible
where
    Key: DefaultsValueConvertible, Key.DefaultsRepresentation: LosslessStringConvertible,
    Value: DefaultsValueConvertible
{
    public typealias DefaultsRepresentation = [String: Value.DefaultsRepresentation]

    public init(defaultsRepresentation: [String: Value.DefaultsRepresentation]) throws {
        self.init(minimumCapacity: defaultsRepresentation.count)
        for (storedKey, value) in defaultsRepresentation {
            let key = try Located.entry(storedKey) { try Self.key(stored: storedKey) }
            let value = try Located.entry(storedKey) { try Value(defaultsRepresentation: value) }
            // Two texts of one key ("5" and "05"): keeping either would drop the other's value.
            guard updateValue(value, forKey: key) == nil else {
                throw DefaultsTypeMismatch(
                    expected: String(describing: Self.self),
                    found: "two stored keys for \(key), one of them \"\(storedKey)\"")
            }
        }
    }

    public func defaultsRepresentation() throws -> [String: Value.DefaultsRepresentation] {
        var result = [String: Value.DefaultsRepresentation](minimumCapacity: count)
        for (key, value) in self {
            let storedKey = try key.defaultsRepresentation().description
            guard result.updateValue(try value.defaultsRepresentation(), forKey: storedKey) == nil else {
                throw DuplicateDictionaryKey(storedKey: storedKey)
            }
        }
        return result
    }

    static func key(stored: String) throws -> Key {
        guard let representation = Key.DefaultsRepresentation(stored) else {
            throw DefaultsTypeMismatch(expected: String(describing: Key.self), found: "key \"\(stored)\"")
        }
        return try Key(defaultsRepresentation: representation)
    }
}

/// Two keys of a dictionary convert to the same stored string: the `underlying` error of the
/// write's ``DefaultsError/encodingFailed(key:underlying:)``, which names the key.
struct DuplicateDictionaryKey: Error, CustomStringConvertible {
    /// The string both keys convert to.
    var storedKey: String

    var description: String {
        "two dictionary keys are stored as \"\(storedKey)\""
    }
}

extension Dictionary: DefaultsValue where Key == String, Value: DefaultsValue {
    public var _propertyListObject: Any {
        mapValues(\._propertyListObject) as [String: Any]
    }
}

extension Dictionary: PropertyListBridged where Key == String, Value: PropertyListBridged {
    init(bridgedObject object: Any) throws {
        guard let entries = StoredObject.dictionary(object) else {
            throw DefaultsTypeMismatch(expected: [String: Value].self, found: object)
        }
        self.init(minimumCapacity: entries.count)
        for (key, entry) in entries {
            self[key] = try Located.entry(key) { try Value(bridgedObject: entry) }
        }
    }
}
