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
///
/// A fixed offset that is not whole minutes (`TimeZone(secondsFromGMT: 19_801)`) has no
/// identifier of its own: Foundation names it by its minutes (`"GMT+0530"`), which reads back a
/// second off. Such a zone is refused when written
/// (``DefaultsError/encodingFailed(key:underlying:)``) rather than stored changed.
extension TimeZone: DefaultsValueConvertible {
    public init(defaultsRepresentation identifier: String) throws {
        guard let zone = TimeZone(identifier: identifier) else {
            throw DefaultsTypeMismatch(expected: TimeZone.self, found: identifier)
        }
        self = zone
    }

    public func defaultsRepresentation() throws -> String {
        if let named = TimeZone(identifier: identifier), named.secondsFromGMT() != secondsFromGMT() {
            throw TimeZoneNotNamed(identifier: identifier, secondsFromGMT: secondsFromGMT())
        }
        return identifier
    }
}

/// A time zone whose identifier names another offset: one made from seconds that are not whole
/// minutes.
struct TimeZoneNotNamed: Error, CustomStringConvertible {
    var identifier: String
    var secondsFromGMT: Int

    var description: String {
        "a time zone \(secondsFromGMT) seconds from GMT is named \(identifier), which reads back as another offset"
    }
}
