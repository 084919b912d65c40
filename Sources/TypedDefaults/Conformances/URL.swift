import Foundation

/// URLs are stored as their absolute string, so web URLs keep their scheme, host, query and
/// fragment, and file URLs their `file://` scheme.
///
/// Plain `UserDefaults.set(_:forKey:)` on Linux stores only a URL's path
/// (`https://example.com/p?q` reads back as `file:///p`), and crashes on an array of URLs.
///
/// ```swift
/// @UserDefault("homepage") var homepage = URL(string: "https://swift.org")!
/// @UserDefault("recentFiles") var recentFiles: [URL] = []
/// ```
///
/// Reads also take every form plain `UserDefaults` writes for a URL: a bare absolute path
/// (corelibs, for a file URL) or a `~/…` path (Apple platforms) as a file URL, and a keyed
/// archive of an `NSURL` (Apple platforms, for other URLs), and the quoted JSON string
/// sindresorhus/Defaults writes (`"\"https://swift.org\""`). So a string stored without a
/// scheme that starts with `/` reads as a file URL, not as a relative URL.
extension URL: DefaultsValueConvertible {
    public init(defaultsRepresentation stored: DefaultsStoredValue) throws {
        switch stored {
        case .string(let string):
            if string.count >= 2, string.hasPrefix("\""), string.hasSuffix("\""),
                let unquoted = try? JSONDecoder().decode(String.self, from: Data(string.utf8))
            {
                // sindresorhus/Defaults stores a URL as a JSON string: quoted. No URL starts with a quote.
                self = try URL(defaultsRepresentation: .string(unquoted))
            } else if string.hasPrefix("/") {
                self = URL(fileURLWithPath: string)
            } else if string.hasPrefix("~") {
                self = URL(fileURLWithPath: NSString(string: string).expandingTildeInPath)
            } else if let url = URL(string: string) {
                self = url
            } else {
                throw DefaultsTypeMismatch(expected: URL.self, found: string)
            }
        case .data(let data):
            // Checked whole first: corelibs crashes on a crafted NSURL archive (`NS.base` the URL itself).
            self = try KeyedArchive.unarchive(NSURL.self, from: data) as URL
        default:
            throw DefaultsTypeMismatch(expected: URL.self, found: stored.plistObject)
        }
    }

    public func defaultsRepresentation() -> DefaultsStoredValue {
        .string(absoluteString)
    }
}
