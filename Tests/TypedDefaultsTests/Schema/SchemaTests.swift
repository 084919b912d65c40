import Foundation
import Testing
import TypedDefaultsSchema
import TypedDefaultsSecrets

@testable import TypedDefaults

enum SchemaTheme: String, CaseIterable, DefaultsValueConvertible, Sendable {
    case system, light, dark
}

struct SchemaProfile: Codable, DefaultsValueConvertible, Sendable, Equatable {
    var name = "Ada"
}

final class SchemaColor: NSObject, NSSecureCoding, DefaultsValueConvertible, @unchecked Sendable {
    static let supportsSecureCoding = true
    let hue: Double

    init(hue: Double) {
        self.hue = hue
    }

    init?(coder: NSCoder) {
        hue = coder.decodeDouble(forKey: "hue")
    }

    func encode(with coder: NSCoder) {
        coder.encode(hue, forKey: "hue")
    }
}

/// Schemas a program publishes beside its suite: what they list, their file, and the checks
/// they make of values written from outside the program.
@Suite struct SchemaTests {
    struct Catalog: SettingsCatalog {
        let store: DefaultsStore
        @Setting var fontSize: Int
        @Setting var volume: Double
        @Setting var theme: SchemaTheme
        @Setting var profile: SchemaProfile
        @Setting var nickname: String?
        @Setting var homepage: URL
        @Setting var tags: [String]
        @Setting var small: UInt8
        @Setting var color: SchemaColor
        @Setting var sidebar: Bool
        @Setting var quality: Int

        init(store: DefaultsStore) {
            self.store = store
            _fontSize = Setting(
                wrappedValue: 12, "fontSize", title: "Font size", info: "Text size in points", range: 8...72, step: 2,
                store: store)
            _volume = Setting(wrappedValue: 0.5, "volume", title: "Volume", range: 0...1, step: 0.1, store: store)
            _theme = Setting(wrappedValue: .system, "theme", title: "Theme", store: store)
            _profile = Setting(wrappedValue: SchemaProfile(), "profile", title: "Profile", store: store)
            _nickname = Setting(wrappedValue: nil, "nickname", title: "Nickname", store: store)
            _homepage = Setting(
                wrappedValue: URL(string: "https://example.com")!, "homepage", title: "Home page", store: store)
            _tags = Setting(wrappedValue: ["a"], "tags", title: "Tags", store: store)
            _small = Setting(wrappedValue: 7, "small", title: "Small", store: store)
            _color = Setting(wrappedValue: SchemaColor(hue: 0.5), "color", title: "Color", store: store)
            _sidebar = Setting(wrappedValue: true, "sidebar", title: "Sidebar", store: store)
            _quality = Setting(
                wrappedValue: 720, "quality", title: "Quality", options: [240, 480, 720, 1080], format: { "\($0)p" },
                store: store)
        }
    }

    @Test(.plistFilesOnly("schemas are published beside the suite's plist file"))
    func aCatalogAndKeysArePublishedBesideTheirSuite() throws {
        let suite = try TestSuite()
        let launchCount = DefaultsKey<Int>("launchCount", default: 0, store: suite.store)
        let deadline = DefaultsKey<Date>("deadline", dynamicDefault: { Date() }, store: suite.store)
        let written = try DefaultsSchema.publish(Catalog(store: suite.store), keys: [launchCount, deadline])
        let file = suite.plistURL.deletingPathExtension().appendingPathExtension("schema.json")
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(written == [file])
        let schema = try #require(try suite.store.publishedSchema())
        #expect(schema.suite == suite.name)
        #expect(
            schema.keys.map(\.name) == [
                "fontSize", "volume", "theme", "profile", "nickname", "homepage", "tags", "small", "color", "sidebar",
                "quality", "launchCount", "deadline",
            ])
        let fontSize = try #require(schema["fontSize"])
        #expect(fontSize.title == "Font size")
        #expect(fontSize.info == "Text size in points")
        #expect(fontSize.swiftType == "Int")
        #expect(fontSize.valueType == .integer(lowest: Int64.min, highest: UInt64(Int64.max)))
        #expect(fontSize.defaultValue == .integer(12))
        #expect(fontSize.range == DefaultsSchema.Range(min: .integer(8), max: .integer(72), step: .integer(2)))
        #expect(schema["volume"]?.range == DefaultsSchema.Range(min: .real(0), max: .real(1), step: .real(0.1)))
        #expect(schema["volume"]?.valueType == .real)
        #expect(schema["theme"]?.valueType == .string)
        #expect(schema["theme"]?.defaultValue == .string("system"))
        #expect(
            schema["theme"]?.options == [
                .init(value: .string("system"), title: "system"), .init(value: .string("light"), title: "light"),
                .init(value: .string("dark"), title: "dark"),
            ], "an enum's cases, in declaration order")
        #expect(schema["theme"]?.range == nil)
        #expect(
            schema["quality"]?.options?.map(\.value) == [.integer(240), .integer(480), .integer(720), .integer(1080)])
        #expect(schema["quality"]?.options?.map(\.title) == ["240p", "480p", "720p", "1080p"])
        #expect(schema["quality"]?.range == nil)
        #expect(schema["fontSize"]?.options == nil)
        #expect(schema["profile"]?.valueType == .json)
        #expect(schema["profile"]?.defaultValue == .string(#"{"name":"Ada"}"#))
        #expect(schema["nickname"]?.valueType == .optional(.string))
        #expect(schema["homepage"]?.valueType == .string)
        #expect(schema["tags"]?.valueType == .array(of: .string))
        #expect(schema["small"]?.valueType == .integer(lowest: 0, highest: 255))
        #expect(schema["color"]?.valueType == .keyedArchive(className: "TypedDefaultsTests.SchemaColor"))
        #expect(schema["color"]?.defaultValue == nil)
        #expect(schema["color"]?.formattedDefaultValue.contains("SchemaColor") == true)
        #expect(schema["sidebar"]?.valueType == .boolean)
        #expect(schema["launchCount"]?.title == "")
        #expect(schema["deadline"]?.defaultValue == nil)
        #expect(schema["deadline"]?.formattedDefaultValue == "computed on each read")
        #expect(schema["missing"] == nil)
    }

    /// A catalog's secrets, in its order among the settings, each in the schema of the suite its
    /// service names, marked secret and with nothing of a value.
    struct AccountCatalog: SettingsCatalog {
        @Setting var server: String
        @Secret var apiToken: String?
        @Secret var elsewhere: String?
        @Secret var nowhere: String?

        init(store: DefaultsStore, suite: String, other: String) {
            let keyring = MemoryKeyring()
            _server = Setting(wrappedValue: "example.com", "server", title: "Server", store: store)
            _apiToken = Secret("apiToken", service: suite, keyring: keyring, title: "API token", info: "From the site")
            _elsewhere = Secret("elsewhere", service: other, keyring: keyring)
            _nowhere = Secret("nowhere", service: "not/a suite", keyring: keyring)
        }
    }

    @Test(.plistFilesOnly("schemas are published beside the suite's plist file"))
    func aCatalogsSecretsArePublishedAsSecretsBesideTheSuiteTheirServiceNames() throws {
        let (suite, other) = (try TestSuite(), try TestSuite())
        let written = try DefaultsSchema.publish(
            AccountCatalog(store: suite.store, suite: suite.name, other: other.name))
        defer { written.forEach { try? FileManager.default.removeItem(at: $0) } }
        #expect(written.count == 2, "the suite's and the other suite's; none for a service no suite can be named")
        let schema = try #require(try suite.store.publishedSchema())
        #expect(schema.keys.map(\.name) == ["server", "apiToken"])
        let token = try #require(schema["apiToken"])
        #expect(token.isSecret && !schema["server"]!.isSecret)
        #expect(
            (token.title, token.info, token.valueType, token.defaultValue) == (
                "API token", "From the site", .string, nil
            ))
        #expect(try other.store.publishedSchema()?.keys.map(\.name) == ["elsewhere"])
        #expect(try other.store.publishedSchema()?["elsewhere"]?.isSecret == true)
        let parsed = try JSONSerialization.jsonObject(with: Data(contentsOf: written[0])) as? [String: Any]
        let keys = parsed?["keys"] as? [[String: Any]]
        #expect(keys?.last?["secret"] as? Bool == true)
        #expect(keys?.first?["secret"] == nil, "written only for a secret")
    }

    @Test(.plistFilesOnly("schemas are published beside the suite's plist file"))
    func publishingAgainUnchangedLeavesTheFileAlone() throws {
        let suite = try TestSuite()
        let catalog = Catalog(store: suite.store)
        let file = try #require(try DefaultsSchema.publish(catalog).first)
        defer { try? FileManager.default.removeItem(at: file) }
        let before = try FileManager.default.attributesOfItem(atPath: file.path)
        usleep(20_000)
        try DefaultsSchema.publish(catalog)
        let after = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect(before[.modificationDate] as? Date == after[.modificationDate] as? Date)
        #expect(before[.systemFileNumber] as? Int == after[.systemFileNumber] as? Int)
        // Its keys are in the file as written; other parsers read it.
        let parsed = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        #expect(parsed?["version"] as? Int == DefaultsSchema.formatVersion)
        #expect(parsed?["format"] as? String == "typed-defaults schema")
    }

    @Test(.plistFilesOnly("schemas are published beside the suite's plist file"))
    func keysOfTwoSuitesArePublishedBesideEach() throws {
        let (first, second) = (try TestSuite(), try TestSuite())
        let a = DefaultsKey<Int>("a", default: 1, store: first.store)
        let b = DefaultsKey<String>("b", default: "x", store: second.store)
        let again = DefaultsKey<Int>("a", default: 2, store: first.store)
        let written = try DefaultsSchema.publish(keys: [a, b, again])
        defer { written.forEach { try? FileManager.default.removeItem(at: $0) } }
        #expect(written.count == 2)
        #expect(try first.store.publishedSchema()?.keys.map(\.name) == ["a"])
        #expect(try first.store.publishedSchema()?["a"]?.defaultValue == .integer(1))
        #expect(try second.store.publishedSchema()?.keys.map(\.name) == ["b"])
        #expect(try DefaultsSchema.publish(keys: [DefaultsKey<Int>("m", default: 0, store: .inMemory())]) == [])
        #expect(try DefaultsStore.inMemory().publishedSchema() == nil)
    }

    /// A typed key declared without a store, published with a catalog whose settings live in one
    /// store (a model's `store:`), is listed in that store's schema, not the standard suite's;
    /// a key that names its store keeps it.
    @Test(.plistFilesOnly("schemas are published beside the suite's plist file"))
    func aKeyWithoutAStoreIsPublishedBesideTheCatalogsStore() throws {
        let (suite, other) = (try TestSuite(), try TestSuite())
        let volume = DefaultsKey<Double>("volume.level", default: 0.5)
        let elsewhere = DefaultsKey<Int>("elsewhere", default: 0, store: other.store)
        let written = try DefaultsSchema.publish(Catalog(store: suite.store), keys: [volume, elsewhere])
        defer { written.forEach { try? FileManager.default.removeItem(at: $0) } }
        #expect(written.count == 2)
        #expect(try suite.store.publishedSchema()?["volume.level"]?.defaultValue == .real(0.5))
        #expect(try other.store.publishedSchema()?.keys.map(\.name) == ["elsewhere"])
        #expect(try DefaultsStore.standard.publishedSchema()?["volume.level"] == nil)
    }

    @Test(.plistFilesOnly("schemas are published beside the suite's plist file"))
    func valuesAreCheckedAgainstTheStoredTypeAndRange() throws {
        let suite = try TestSuite()
        let file = try #require(try DefaultsSchema.publish(Catalog(store: suite.store)).first)
        defer { try? FileManager.default.removeItem(at: file) }
        let schema = try #require(try suite.store.publishedSchema())
        func problem(_ key: String, _ value: DefaultsStoredValue) -> String? {
            schema[key]?.problem(with: value)
        }
        #expect(problem("fontSize", .integer(14)) == nil)
        #expect(problem("fontSize", .integer(100)) == "100 is above the range 8 to 72")
        #expect(problem("fontSize", .integer(2)) == "2 is below the range 8 to 72")
        #expect(
            problem("fontSize", .string("big"))
                == "expected integer (-9223372036854775808 to 9223372036854775807), found string")
        #expect(problem("fontSize", .unsignedInteger(.max)) != nil)
        #expect(problem("volume", .real(0.7)) == nil)
        #expect(problem("volume", .integer(1)) == nil)
        #expect(problem("volume", .real(1.5)) != nil)
        #expect(problem("volume", .real(.nan)) != nil)
        #expect(problem("small", .integer(255)) == nil)
        #expect(problem("small", .integer(256))?.contains("outside the bounds") == true)
        #expect(problem("small", .integer(-1)) != nil)
        #expect(problem("profile", .string(#"{"name":"Grace"}"#)) == nil)
        #expect(problem("profile", .string("{name: Grace}"))?.contains("not JSON") == true)
        #expect(problem("nickname", .dictionary(["__TypedDefaults.nil": .integer(0)])) == nil)
        #expect(problem("nickname", .integer(1)) != nil)
        #expect(problem("tags", .array([.string("a"), .integer(2)])) == "element 1: expected string, found integer")
        #expect(problem("sidebar", .boolean(false)) == nil)
        #expect(problem("sidebar", .integer(1)) != nil)
        let archive = try NSKeyedArchiver.archivedData(withRootObject: SchemaColor(hue: 1), requiringSecureCoding: true)
        #expect(problem("color", .data(archive)) == nil)
        let date = try NSKeyedArchiver.archivedData(withRootObject: NSDate(), requiringSecureCoding: true)
        #expect(problem("color", .data(date)) == "the archive holds NSDate, not TypedDefaultsTests.SchemaColor")
        #expect(problem("color", .data(Data([1, 2]))) == "the data is not a keyed archive")
        #expect(problem("theme", .string("dark")) == nil)
        #expect(
            problem("theme", .string("purple")) == #""purple" is not one of the options: "system", "light", "dark""#)
        #expect(problem("quality", .integer(1080)) == nil)
        #expect(problem("quality", .real(720))?.contains("expected integer") == true, "the type is checked first")
        #expect(problem("quality", .integer(700)) == "700 is not one of the options: 240, 480, 720, 1080")
        #expect(problem("quality", .string("720"))?.contains("expected integer") == true)
        let gain = DefaultsSchema.Key(
            name: "gain", swiftType: "Double", valueType: .real, defaultValue: .real(1), formattedDefaultValue: "1",
            options: [.init(value: .real(0.5), title: "half"), .init(value: .real(1), title: "full")])
        #expect(gain.problem(with: .integer(1)) == nil, "an integer read as a float is the option of equal value")
        #expect(gain.problem(with: .integer(2)) == "2 is not one of the options: 0.5, 1.0")
    }

    @Test(.plistFilesOnly("schemas are published beside the suite's plist file"))
    func aSchemaFileThatCannotBeReadIsAnErrorNeverACrash() throws {
        let suite = try TestSuite()
        let file = suite.plistURL.deletingPathExtension().appendingPathExtension("schema.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try suite.store.publishedSchema() == nil)
        let bad = [
            "", "{", "[]", #"{"format": "something else", "version": 1, "suite": "s", "keys": []}"#,
            #"{"format": "typed-defaults schema", "version": 2, "suite": "s", "keys": []}"#,
            #"{"format": "typed-defaults schema", "version": 1, "suite": "s", "keys": [{"name": "a"}]}"#,
            #"{"format": "typed-defaults schema", "version": 1, "suite": "s", "keys": [{"name": "a", "swiftType": "Int", "title": "", "info": "", "formattedDefault": "", "valueType": {"kind": "quaternion"}}]}"#,
            #"{"format": "typed-defaults schema", "version": 1, "suite": "s", "keys": [{"name": "a", "swiftType": "Int", "title": "", "info": "", "formattedDefault": "", "valueType": {"kind": "integer", "lowest": "x", "highest": 1}}]}"#,
            #"{"format": "typed-defaults schema", "version": 1, "suite": "s", "keys": [{"name": "a", "swiftType": "Int", "title": "", "info": "", "formattedDefault": "", "valueType": {"kind": "integer", "lowest": 0, "highest": 1}, "options": 1}]}"#,
            #"{"format": "typed-defaults schema", "version": 1, "suite": "s", "keys": [{"name": "a", "swiftType": "Int", "title": "", "info": "", "formattedDefault": "", "valueType": {"kind": "integer", "lowest": 0, "highest": 1}, "options": [{"value": 1}]}]}"#,
            #"{"format": "typed-defaults schema", "version": 1, "suite": "s", "keys": [{"name": "a", "swiftType": "Int", "title": "", "info": "", "formattedDefault": "", "valueType": {"kind": "integer", "lowest": 0, "highest": 1}, "options": [{"title": 1, "value": 1}]}]}"#,
            #"{"format": "typed-defaults schema", "version": 1, "suite": "s", "keys": [{"name": "a", "swiftType": "String", "title": "", "info": "", "formattedDefault": "", "valueType": {"kind": "string"}, "secret": "yes"}]}"#,
            #"{"format": "typed-defaults schema", "version": 1, "suite": "s", "keys": [{"name": "a", "swiftType": "String", "title": "", "info": "", "formattedDefault": "", "valueType": {"kind": "string"}}, {"name": "a", "swiftType": "String", "title": "", "info": "", "formattedDefault": "", "valueType": {"kind": "string"}, "secret": true}]}"#,
        ]
        for text in bad {
            try Data(text.utf8).write(to: file)
            let error = try #require(throws: DefaultsError.self, "\(text)") { try suite.store.publishedSchema() }
            guard case .unparsableFile = error else {
                Issue.record("\(text): \(error)")
                continue
            }
            #expect(FileManager.default.contents(atPath: file.path) == Data(text.utf8))
        }
        try Data([0x7B, 0xFF, 0x7D]).write(to: file)  // not UTF-8
        #expect(throws: DefaultsError.self) { try suite.store.publishedSchema() }
        let extra = #"{"format": "typed-defaults schema", "version": 1, "suite": "s", "keys": [], "later": true}"#
        try Data(extra.utf8).write(to: file)
        #expect(try suite.store.publishedSchema() == DefaultsSchema(suite: "s", keys: []))
    }

    @Test(.plistFilesOnly("schemas are published beside the suite's plist file"))
    func aSchemaThatCannotBeWrittenIsAnErrorAndTheSuiteIsUntouched() throws {
        let suite = try TestSuite()
        let key = DefaultsKey<Int>("count", default: 0, store: suite.store)
        suite.store[key] = 3
        let before = try suite.fileBytes()
        // A folder where the schema's file would go: nothing can be renamed over it.
        let file = suite.plistURL.deletingPathExtension().appendingPathExtension("schema.json")
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: file) }
        let error = try #require(throws: DefaultsError.self) { try DefaultsSchema.publish(keys: [key]) }
        guard case .writeFailed(let path, _) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(path == file.path)
        #expect(try suite.fileBytes() == before)
        #expect(throws: DefaultsError.self) { try suite.store.publishedSchema() }
    }
}
