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
/// not a string is a type mismatch. The JSON sindresorhus/Defaults stores for a locale
/// (`{"identifier":"en_US"}`) reads as that locale.
extension Locale: DefaultsValueConvertible {
    public init(defaultsRepresentation identifier: String) {
        // The JSON of `Locale`'s `Codable` conformance, as Defaults stores a locale, is no
        // identifier: no identifier begins with a brace.
        if identifier.hasPrefix("{"), let locale = OtherLibrariesForms.json(identifier, as: Locale.self) {
            self = locale
            return
        }
        self.init(identifier: identifier)
    }

    public func defaultsRepresentation() -> String {
        identifier
    }
}
