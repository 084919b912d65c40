import Foundation

/// UUIDs are stored as their string form (`"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"`).
///
/// Plain `UserDefaults` on Linux crashes when handed a `UUID`.
///
/// ```swift
/// @UserDefault("installID") var installID = UUID()
/// ```
extension UUID: DefaultsValueConvertible {
    public init(defaultsRepresentation: String) throws {
        guard let uuid = UUID(uuidString: defaultsRepresentation) else {
            throw DefaultsTypeMismatch(expected: UUID.self, found: defaultsRepresentation)
        }
        self = uuid
    }

    public func defaultsRepresentation() -> String {
        uuidString
    }
}
