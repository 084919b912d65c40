/// Thrown when a stored object is not a valid value of the type being read.
///
/// Conversions throw it; `@UserDefault` turns it into ``DefaultsError/typeMismatch(key:expected:found:)``
/// with the key attached. Throw it from your own ``DefaultsValue`` or
/// ``DefaultsValueConvertible`` conformances when the stored data is of the wrong shape:
///
/// ```swift
/// guard let value = Celsius(exactly: representation) else {
///     throw DefaultsTypeMismatch(expected: Celsius.self, found: representation)
/// }
/// ```
public struct DefaultsTypeMismatch: Error, Sendable, CustomStringConvertible {
    /// The type that was expected, such as `"Int"`.
    var expected: String
    /// What was found instead, such as `String "abc"`.
    var found: String
    /// Where in a nested value the mismatch is, outermost first, such as `["[2]", "name"]`.
    var path: [String]

    /// A mismatch from plain descriptions: `expected` such as `"Int"`, `found` such as
    /// `String "abc"`, `path` outermost first.
    init(expected: String, found: String, path: [String] = []) {
        self.expected = expected
        self.found = found
        self.path = path
    }

    /// Creates a mismatch naming the expected type and describing the object found.
    ///
    /// - Parameters:
    ///   - expected: the type that was expected.
    ///   - object: the stored object found instead, described in the error.
    public init(expected: Any.Type, found object: Any) {
        self.init(expected: String(describing: expected), found: StoredObject.describe(object))
    }

    /// The same mismatch, one level deeper inside a collection.
    func nested(in component: String) -> DefaultsTypeMismatch {
        DefaultsTypeMismatch(expected: expected, found: found, path: [component] + path)
    }

    /// The found description, with the path inside the value when there is one.
    var foundWithPath: String {
        path.isEmpty ? found : "\(found) at \(path.joined())"
    }

    public var description: String {
        "expected \(expected), found \(foundWithPath)"
    }
}
