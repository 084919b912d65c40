import Foundation

/// A `Locale` is stored as its identifier (`"en_US"`, `"de_CH@calendar=buddhist"`).
///
/// ```swift
/// @UserDefault("contentLocale") var contentLocale = Locale(identifier: "en_US")
/// ```
///
/// `Locale.autoupdatingCurrent` is stored as the identifier of the current locale, so it reads
/// back as that fixed locale; store `Locale?` and treat `nil` as "follow the system" to keep
/// following it. Any string is a locale identifier to `Locale`, so only a stored value that is
/// not a string is a type mismatch.
extension Locale: DefaultsValueConvertible {
    public init(defaultsRepresentation identifier: String) {
        self.init(identifier: identifier)
    }

    public func defaultsRepresentation() -> String {
        identifier
    }
}
