/// Strings are stored as they are, and reading one costs the same whatever its length,
/// which makes `String` the representation of choice for encoded values such as JSON.
///
/// ```swift
/// @UserDefault("greeting") var greeting = "Hello"
/// ```
extension String: DefaultsValue {}

extension String: PropertyListBridged {
    init(bridgedObject object: Any) throws {
        guard let value = object as? String else {
            throw DefaultsTypeMismatch(expected: String.self, found: object)
        }
        self = value
    }
}
