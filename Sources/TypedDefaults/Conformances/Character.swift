/// A `Character` is stored as a one-character string; a stored string of any other length is a
/// type mismatch.
///
/// ```swift
/// @UserDefault("separator") var separator: Character = ","
/// ```
///
/// A character is compared as Swift compares it (by canonical equivalence), so `"é"` written
/// as one scalar or as `e` and a combining accent reads back equal.
extension Character: DefaultsValueConvertible {
    public init(defaultsRepresentation text: String) throws {
        guard let character = text.first, text.dropFirst().isEmpty else {
            throw DefaultsTypeMismatch(expected: Character.self, found: text)
        }
        self = character
    }

    public func defaultsRepresentation() -> String {
        String(self)
    }
}
