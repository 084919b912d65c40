import Foundation

/// A `TimeZone` is stored as its identifier (`"Europe/Berlin"`, or `"GMT+0530"` for a fixed
/// offset).
///
/// ```swift
/// @UserDefault("meetingTimeZone") var meetingTimeZone = TimeZone(identifier: "Europe/Berlin")!
/// ```
///
/// An identifier the system does not know (a zone removed from its database, a typo written by
/// another tool) is a type mismatch. `TimeZone.autoupdatingCurrent` is stored as the current
/// zone's identifier and reads back as that fixed zone.
extension TimeZone: DefaultsValueConvertible {
    public init(defaultsRepresentation identifier: String) throws {
        guard let zone = TimeZone(identifier: identifier) else {
            throw DefaultsTypeMismatch(expected: TimeZone.self, found: identifier)
        }
        self = zone
    }

    public func defaultsRepresentation() -> String {
        identifier
    }
}
