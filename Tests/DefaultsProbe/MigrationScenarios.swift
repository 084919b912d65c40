import Foundation
import TypedDefaults

// The Migrations article's worked example: what each release of an app stores, and its migrations.

/// Release 2 stores the theme as an enum; release 1 stored an `Int` (1 for dark).
enum AppTheme: String, DefaultsValueConvertible { case light, dark }

/// Release 1's layout: one number for both sides.
struct AppLayoutV1: Decodable, Sendable { var size: Int }

/// Release 3's layout.
struct AppLayout: Codable, Equatable, DefaultsValueConvertible {
    var width: Int
    var height: Int
}

/// The app's migrations; a release only ever appends.
enum AppMigrations {
    static let steps: [DefaultsMigration] = [
        .renameKey("userName", to: "displayName"),  // version 1 (release 2)
        .convert("theme", from: Int.self, to: AppTheme.self) { $0 == 1 ? AppTheme.dark : .light },  // version 2
        .evolve("layout", from: AppLayoutV1.self, to: AppLayout.self) {  // version 3 (release 3)
            AppLayout(width: $0.size * 100, height: $0.size * 75)
        },
        .dropKey("legacyFlag"),  // version 4
    ]

    /// The one step values other libraries stored need (see `plantForeign`): a whole number
    /// stored as a `Double`, under a key now read as `Int`. Everything else reads as stored.
    static let fromOtherLibraries: [DefaultsMigration] = [
        .convert("plain.count", from: Double.self, to: Int.self) { Int($0) }
    ]
}

/// Child processes for the migration tests: plant old formats, migrate, check.
enum MigrationScenario {
    static let layout = WindowLayout(
        width: 800, height: 600, title: "Main", opened: Date(timeIntervalSinceReferenceDate: 5), zoom: 1.5)

    static func run(_ name: String, suite: String, _ arguments: [String]) throws -> Bool {
        switch name {
        case "plant-app-v1":
            // What release 1 stored, through plain UserDefaults.
            let defaults = try UserDefaults.suite(named: suite)
            defaults.set("Ada", forKey: "userName")
            defaults.set(1, forKey: "theme")
            defaults.set(#"{"size":8}"#, forKey: "layout")
            defaults.set(true, forKey: "legacyFlag")
            defaults.synchronize()
        case "migrate-app":
            let store = try DefaultsStore(suiteName: suite)
            try store.migrate(AppMigrations.steps)
            say("version \(store.migrationVersion)")
        case "verify-app":
            let store = try DefaultsStore(suiteName: suite)
            var problems: [String] = []
            func check<Value: DefaultsValueConvertible & Equatable>(_ key: String, _ expected: Value, _ fallback: Value)
            {
                let read = UserDefault(wrappedValue: fallback, key, store: store).wrappedValue
                if read != expected { problems.append("\(key): read \(read), expected \(expected)") }
            }
            check("displayName", "Ada", "")
            check("theme", AppTheme.dark, .light)
            check("layout", AppLayout(width: 800, height: 600), AppLayout(width: 0, height: 0))
            check("legacyFlag", false, false)
            check("userName", "", "")
            if store.migrationVersion != 4 { problems.append("version \(store.migrationVersion)") }
            guard problems.isEmpty else { throw Failure(problems.joined(separator: "; ")) }
            say("verified")
        case "plant-foreign":
            try plantForeign(suite)
        case "migrate-foreign":
            let store = try DefaultsStore(suiteName: suite)
            try store.migrate(AppMigrations.fromOtherLibraries)
            say("version \(store.migrationVersion)")
        case "verify-foreign":
            try verifyForeign(suite)
        case "migrate-counted":
            // Counts each run of the step in a file: two processes at once must count one.
            guard let counter = arguments.first else { throw Failure("usage: migrate-counted SUITE FILE") }
            let store = try DefaultsStore(suiteName: suite)
            let step = DefaultsMigration.editStoredValues("count") { values in
                let line = Data("ran in \(getpid())\n".utf8)
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: counter))
                try handle.seekToEnd()
                try handle.write(contentsOf: line)
                try handle.close()
                usleep(300_000)
                values["counted"] = true
            }
            say("ready")
            try store.migrate([step])
            say("version \(store.migrationVersion)")
        case "migrate-stall":
            // Stops inside a step that has changed every key, until killed.
            let store = try DefaultsStore(suiteName: suite)
            let step = DefaultsMigration.editStoredValues("stall") { values in
                values.removeAll()
                values["half-done"] = true
                say("inside")
                while true { sleep(60) }
            }
            try store.migrate([step])
        default:
            return false
        }
        return true
    }

    /// Values as other libraries store them, written with plain `UserDefaults`.
    private static func plantForeign(_ suite: String) throws {
        let defaults = try UserDefaults.suite(named: suite)
        func json(_ value: some Encodable) throws -> String {
            String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        }
        // Every library: the property-list families as themselves.
        defaults.set(true, forKey: "native.bool")
        defaults.set(42, forKey: "native.int")
        defaults.set(0.25, forKey: "native.double")
        defaults.set("text ✓", forKey: "native.string")
        defaults.set(["a", "b"], forKey: "native.strings")
        defaults.set(["a": 1, "b": 2], forKey: "native.dictionary")
        // sindresorhus/Defaults: Codable as a JSON string, arrays of them as arrays of JSON
        // strings, UUIDs and sets as strings and arrays, a URL and a Codable enum as JSON strings.
        defaults.set(try json(layout), forKey: "defaults.layout")
        defaults.set([try json(layout), try json(layout)], forKey: "defaults.layouts")
        defaults.set("E621E1F8-C36C-495A-93FC-0C247A3E6E5F", forKey: "defaults.uuid")
        defaults.set(["a", "b"], forKey: "defaults.set")
        defaults.set(try json("https://swift.org/x?y#z"), forKey: "defaults.url")
        defaults.set(try json(Mode.manual), forKey: "defaults.theme")
        // Defaults: a type with no bridge of its own, through its Codable bridge.
        defaults.set(try json(CGSize(width: 600, height: 900)), forKey: "defaults.size")
        defaults.set([try json(CGPoint(x: 1, y: 2))], forKey: "defaults.points")
        defaults.set(try json(Locale(identifier: "de_CH")), forKey: "defaults.locale")
        defaults.set(try json(Duration.milliseconds(1500)), forKey: "defaults.duration")
        // SwiftyUserDefaults and Foil: Codable as JSON Data.
        defaults.set(try JSONEncoder().encode(layout), forKey: "swifty.layout")
        defaults.set(
            try JSONEncoder().encode(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")), forKey: "foil.uuid")
        defaults.set(try JSONEncoder().encode(0..<10), forKey: "foil.range")
        defaults.set(try JSONEncoder().encode(Decimal(string: "19.99")), forKey: "foil.price")
        // @AppStorage: raw values, Data, and URLs as UserDefaults stores them.
        defaults.set("voice", forKey: "appStorage.channel")
        defaults.set(10, forKey: "appStorage.level")
        defaults.set(Data([1, 2, 3]), forKey: "appStorage.data")
        defaults.set(URL(fileURLWithPath: "/tmp/notes.txt"), forKey: "appStorage.url")
        // Plain UserDefaults: a date (whole seconds: corelibs drops the fraction as it writes),
        // a URL, and numbers stored as other numeric types.
        defaults.set(Date(timeIntervalSinceReferenceDate: 12), forKey: "plain.date")
        defaults.set(URL(fileURLWithPath: "/tmp/with space.txt"), forKey: "plain.url")
        defaults.set(3.0, forKey: "plain.count")
        defaults.set(Float(0.5), forKey: "plain.volume")
        defaults.set(Int32(7), forKey: "plain.small")
        // Plain UserDefaults code on Apple platforms: NSStringFromCGRect, CoreGraphics' dictionary.
        defaults.set("{{0, 20}, {800, 600}}", forKey: "plain.frame")
        defaults.set(["Width": 600, "Height": 900], forKey: "plain.size")
        defaults.synchronize()
    }

    private static func verifyForeign(_ suite: String) throws {
        let store = try DefaultsStore(suiteName: suite)
        var problems: [String] = []
        func check<Value: DefaultsValueConvertible & Equatable>(_ key: String, _ expected: Value, _ fallback: Value) {
            let read = UserDefault(wrappedValue: fallback, key, store: store).wrappedValue
            if read != expected { problems.append("\(key): read \(read), expected \(expected)") }
        }
        let other = WindowLayout(width: 0, height: 0, title: nil, opened: .distantPast, zoom: 0)
        check("native.bool", true, false)
        check("native.int", 42, 0)
        check("native.double", 0.25, 0)
        check("native.string", "text ✓", "")
        check("native.strings", ["a", "b"], [])
        check("native.dictionary", ["a": 1, "b": 2], [:])
        check("defaults.layout", layout, other)
        check("defaults.layouts", [layout, layout], [])
        check("defaults.uuid", UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, UUID())
        check("defaults.set", Set(["a", "b"]), [])
        check("defaults.url", URL(string: "https://swift.org/x?y#z")!, URL(fileURLWithPath: "/"))
        check("defaults.theme", Mode.manual, .automatic)
        check("defaults.size", CGSize(width: 600, height: 900), .zero)
        check("defaults.points", [CGPoint(x: 1, y: 2)], [])
        check("defaults.locale", Locale(identifier: "de_CH"), Locale(identifier: "en_US"))
        check("defaults.duration", Duration.milliseconds(1500), .zero)
        check("swifty.layout", layout, other)
        check("foil.uuid", UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, UUID())
        check("foil.range", 0..<10, 0..<1)
        check("foil.price", Decimal(string: "19.99")!, 0)
        check("appStorage.channel", Channel.voice, .music)
        check("appStorage.level", Level.high, .low)
        check("appStorage.data", Data([1, 2, 3]), Data())
        check("appStorage.url", URL(fileURLWithPath: "/tmp/notes.txt"), URL(fileURLWithPath: "/"))
        check("plain.date", Date(timeIntervalSinceReferenceDate: 12), .distantPast)
        check("plain.url", URL(fileURLWithPath: "/tmp/with space.txt"), URL(fileURLWithPath: "/"))
        check("plain.count", 3, 0)
        check("plain.volume", Float(0.5), 0)
        check("plain.small", Int32(7), 0)
        check("plain.frame", CGRect(x: 0, y: 20, width: 800, height: 600), .zero)
        check("plain.size", CGSize(width: 600, height: 900), .zero)
        guard problems.isEmpty else { throw Failure(problems.joined(separator: "; ")) }
        say("verified")
    }

    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data("\(line)\n".utf8))
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
