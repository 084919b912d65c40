import Foundation

/// Bytes are stored as they are. On Linux setting or reading `Data` costs about 60 ns per byte;
/// prefer a `String` representation for large encoded values.
///
/// ```swift
/// @UserDefault("avatar") var avatar = Data()
/// ```
extension Data: DefaultsValue {}

extension Data: PropertyListBridged {
    init(bridgedObject object: Any) throws {
        guard let value = object as? Data else {
            throw DefaultsTypeMismatch(expected: Data.self, found: object)
        }
        self = value
    }
}
