import Foundation
import TypedDefaults

enum Theme: String, DefaultsValueConvertible { case light, dark, system }

struct WindowLayout: Codable, Equatable, DefaultsValueConvertible {
    var width: Int
    var height: Int
    var sidebarVisible: Bool
    var title: String
}

/// A large `Codable` value: 1,000 elements, about 40 KB of JSON.
struct Library: Codable, Equatable, DefaultsValueConvertible {
    struct Book: Codable, Equatable {
        var title: String
        var year: Int
    }
    var books: [Book]

    static let thousandBooks = Library(
        books: (0..<1_000).map { Book(title: "Book number \($0)", year: 1900 + $0 % 120) })
}

final class Palette: NSObject, NSSecureCoding, DefaultsValueConvertible, Sendable {
    static var supportsSecureCoding: Bool { true }
    let name: String
    let hue: Double

    init(name: String, hue: Double) {
        self.name = name
        self.hue = hue
    }

    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(hue, forKey: "hue")
    }

    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(of: NSString.self, forKey: "name") else { return nil }
        self.name = name as String
        hue = coder.decodeDouble(forKey: "hue")
    }
}

/// The raw baseline's encode and decode: the same JSON and archives the library makes.
enum Raw {
    static func setJSON<Value: Encodable>(_ defaults: UserDefaults, _ key: String, _ value: Value) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(value) else { return }
        defaults.set(String(decoding: data, as: UTF8.self), forKey: key)
    }

    static func json<Value: Decodable>(_ defaults: UserDefaults, _ key: String) -> Value? {
        guard let text = defaults.string(forKey: key) else { return nil }
        return try? JSONDecoder().decode(Value.self, from: Data(text.utf8))
    }

    static func setArchive(_ defaults: UserDefaults, _ key: String, _ value: NSObject & NSSecureCoding) {
        guard let data = try? NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: true) else {
            return
        }
        defaults.set(data, forKey: key)
    }

    static func archive<Value: NSObject & NSSecureCoding>(_ defaults: UserDefaults, _ key: String) -> Value? {
        guard let data = defaults.data(forKey: key) else { return nil }
        return try? NSKeyedUnarchiver.unarchivedObject(ofClass: Value.self, from: data)
    }
}

/// Every type family measured, with its raw counterpart.
enum Families {
    static func register() {
        TypeFamily(
            name: "Bool", defaultValue: false, value: true, rawWrite: { $0.set($2, forKey: $1) },
            rawRead: { $0.object(forKey: $1) as? Bool }
        ).register()
        TypeFamily(
            name: "Int", defaultValue: 0, value: 42, rawWrite: { $0.set($2, forKey: $1) },
            rawRead: { $0.object(forKey: $1) as? Int }
        ).register()
        TypeFamily(
            name: "Double", defaultValue: 0.0, value: 0.5, rawWrite: { $0.set($2, forKey: $1) },
            rawRead: { $0.object(forKey: $1) as? Double }
        ).register()
        TypeFamily(
            name: "String", defaultValue: "", value: "Bobbie Wasabi", rawWrite: { $0.set($2, forKey: $1) },
            rawRead: { $0.string(forKey: $1) }
        ).register()
        TypeFamily(
            name: "Data (100 B)", defaultValue: Data(), value: Data(repeating: 7, count: 100),
            rawWrite: { $0.set($2, forKey: $1) }, rawRead: { $0.data(forKey: $1) }
        ).register()
        TypeFamily(
            name: "Date", defaultValue: Date.distantPast, value: Date(timeIntervalSinceReferenceDate: 800_000_000.25),
            rawWrite: { $0.set($2, forKey: $1) }, rawRead: { $0.object(forKey: $1) as? Date }
        ).register()
        TypeFamily(
            name: "URL", defaultValue: URL(fileURLWithPath: "/"), value: URL(string: "https://example.com/a/b?q=1#f")!,
            rawWrite: { $0.set($2.absoluteString, forKey: $1) },
            rawRead: { $0.string(forKey: $1).flatMap(URL.init(string:)) }
        ).register()
        TypeFamily(
            name: "UUID", defaultValue: UUID(), value: UUID(), rawWrite: { $0.set($2.uuidString, forKey: $1) },
            rawRead: { $0.string(forKey: $1).flatMap(UUID.init(uuidString:)) }
        ).register()
        TypeFamily(
            name: "[String] (10)", defaultValue: [], value: (0..<10).map { "item \($0)" },
            rawWrite: { $0.set($2, forKey: $1) }, rawRead: { $0.stringArray(forKey: $1) }
        ).register()
        TypeFamily(
            name: "[String: Int] (10)", defaultValue: [:],
            value: Dictionary(uniqueKeysWithValues: (0..<10).map { ("key \($0)", $0) }),
            rawWrite: { $0.set($2, forKey: $1) }, rawRead: { $0.dictionary(forKey: $1) as? [String: Int] }
        ).register()
        TypeFamily<String?>(
            name: "Optional (nil)", defaultValue: nil, value: nil,
            rawWrite: { defaults, key, _ in defaults.removeObject(forKey: key) },
            rawRead: { $0.string(forKey: $1) }
        ).register()
        TypeFamily<String?>(
            name: "Optional (non-nil)", defaultValue: nil, value: "Bobbie", rawWrite: { $0.set($2, forKey: $1) },
            rawRead: { $0.string(forKey: $1) }
        ).register()
        TypeFamily(
            name: "RawRepresentable", defaultValue: Theme.system, value: .dark,
            rawWrite: { $0.set($2.rawValue, forKey: $1) }, rawRead: { $0.string(forKey: $1).flatMap(Theme.init) }
        ).register()
        TypeFamily(
            name: "Codable (small)", defaultValue: WindowLayout(width: 0, height: 0, sidebarVisible: false, title: ""),
            value: WindowLayout(width: 800, height: 600, sidebarVisible: true, title: "Main"),
            rawWrite: Raw.setJSON, rawRead: Raw.json
        ).register()
        TypeFamily(
            name: "Codable (1,000 elements)", defaultValue: Library(books: []), value: Library.thousandBooks,
            rawWrite: Raw.setJSON, rawRead: Raw.json
        ).register()
        TypeFamily(
            name: "NSSecureCoding", defaultValue: Palette(name: "none", hue: 0), value: Palette(name: "warm", hue: 0.1),
            rawWrite: Raw.setArchive, rawRead: Raw.archive
        ).register()
    }
}
