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
extension URL: DefaultsValueConvertible {
    public init(defaultsRepresentation: String) throws {
        guard let url = URL(string: defaultsRepresentation) else {
            throw DefaultsTypeMismatch(expected: URL.self, found: defaultsRepresentation)
        }
        self = url
    }

    public func defaultsRepresentation() -> String {
        absoluteString
    }
}
