import Foundation
import Testing
import TypedDefaults
import TypedDefaultsSchema

// The snippets of the package's public API, compiled and exercised as written.

struct CodableStruct: Equatable, Codable, DefaultsValueConvertible { var foo: String }

enum Theme: String, DefaultsValueConvertible { case light, dark, system }

struct Convertible { var name: String }
extension Convertible: DefaultsValueConvertible {
    typealias DefaultsRepresentation = String
    init(defaultsRepresentation: String) throws { name = defaultsRepresentation }
    func defaultsRepresentation() throws -> String { name }
}

struct IndirectConvertible { var name: String }
extension IndirectConvertible: IndirectDefaultsValueConvertible {
    typealias DefaultsRepresentation = Convertible.DefaultsRepresentation
    init(indirectRepresentation: Convertible) throws { name = indirectRepresentation.name }
    func indirectRepresentation() throws -> Convertible { Convertible(name: name) }
}

final class Palette: NSObject, NSSecureCoding, DefaultsValueConvertible {
    static var supportsSecureCoding: Bool { true }
    let name: String
    init(name: String) { self.name = name }
    func encode(with coder: NSCoder) { coder.encode(name as NSString, forKey: "name") }
    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(of: NSString.self, forKey: "name") else { return nil }
        self.name = name as String
    }
    override func isEqual(_ object: Any?) -> Bool { (object as? Palette)?.name == name }
    override var hash: Int { name.hash }
}

@Suite struct PublicAPITests {
    /// The snippets of `FoundationObjects.swift` and `DefaultsStoredValue`, in a suite of
    /// their own: Foundation's classes and mixed property lists, stored as their values.
    @Test func foundationObjectsAndPropertyLists() throws {
        let suite = try TestSuite()
        @UserDefault("greeting", store: suite.store) var greeting: NSString = "hello"
        @UserDefault("limits", store: suite.store) var limits: NSDictionary = ["max": 10]
        @UserDefault("anything", store: suite.store) var anything: DefaultsStoredValue = ["mixed", 1, true]
        #expect(greeting == "hello" && limits == ["max": 10])
        greeting = "hi"
        limits = ["max": 20, "when": Date(timeIntervalSinceReferenceDate: 0.5)]
        anything = ["b": [1.5]]
        try suite.store.flush()
        #expect(suite.defaults.string(forKey: "greeting") == "hi")
        #expect(suite.defaults.dictionary(forKey: "limits")?["max"] as? Int == 20)
        #expect(anything["b"]?[0]?.value(as: Double.self) == 1.5)
        #expect((suite.defaults.dictionary(forKey: "anything")?["b"] as? [Double]) == [1.5])
    }

    @Test func snippetsCompileAndWork() throws {
        let suite = try TestSuite()
        @UserDefault("hasSeenSplashScreen", store: DefaultsStore(suite.defaults)) var hasSeenSplashScreen = false
        @UserDefault("name", store: DefaultsStore(suite.defaults)) var name: String?
        @UserDefault("count", store: DefaultsStore(suite.defaults)) var count: Int? = 42
        @UserDefault("theme", store: DefaultsStore(suite.defaults)) var theme = Theme.system
        @UserDefault("test", store: DefaultsStore(suite.defaults)) var test = CodableStruct(foo: "hello, world!")
        @UserDefault("convertible", store: DefaultsStore(suite.defaults)) var convertible = Convertible(name: "a")
        @UserDefault("indirect", store: DefaultsStore(suite.defaults)) var indirect = IndirectConvertible(name: "b")
        @UserDefault("palette", store: DefaultsStore(suite.defaults)) var palette = Palette(name: "warm")

        #expect(hasSeenSplashScreen == false)
        #expect(name == nil)
        #expect(count == 42)
        #expect(theme == .system)
        #expect(test == CodableStruct(foo: "hello, world!"))

        hasSeenSplashScreen = true
        name = "Bobbie"
        count = 7
        theme = .dark
        test = CodableStruct(foo: "changed")
        convertible = Convertible(name: "x")
        indirect = IndirectConvertible(name: "y")
        palette = Palette(name: "cool")

        #expect(hasSeenSplashScreen)
        #expect(name == "Bobbie")
        #expect(count == 7)
        #expect(theme == .dark)
        #expect(test == CodableStruct(foo: "changed"))
        #expect(convertible.name == "x")
        #expect(indirect.name == "y")
        #expect(palette.name == "cool")
        #expect(try suite.flushedObject(forKey: "theme") as? String == "dark")
        #expect(try suite.flushedObject(forKey: "test") as? String == #"{"foo":"changed"}"#)
        #expect(try suite.flushedObject(forKey: "indirect") as? String == "y")
    }

    @Test func loadSnippetFromTheReadme() throws {
        let suite = try TestSuite()
        @UserDefault("test", store: DefaultsStore(suite.defaults)) var test = CodableStruct(foo: "hello, world!")
        var missingKey: String?
        do {
            _ = try $test.load()
        } catch .missingValue(let key) {
            missingKey = key
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(missingKey == "test")
    }
}

extension DefaultsKeys {
    static let playbackVolume = DefaultsKey<Double>("readme.playbackVolume", default: 0.5)
}

/// The README's settings snippet, with an in-memory store so the test writes nothing to disk.
struct PlayerSettings: SettingsCatalog {
    static let store = DefaultsStore.inMemory()

    @Setting(
        .playbackVolume, title: "Volume", info: "How loud playback is", range: 0...1, step: 0.1,
        format: { "\(Int(($0 * 100).rounded()))%" }, store: PlayerSettings.store)
    var volume
    @Setting(wrappedValue: false, "shuffle", title: "Shuffle", store: PlayerSettings.store) var shuffle
    @Setting(wrappedValue: 12, "fontSize", title: "Font size", range: 8...72, step: 2, store: PlayerSettings.store)
    var fontSize
}

@Suite struct ReadmeSettingsTests {
    @Test func settingsSnippetDoesWhatItsCommentsSay() {
        let settings = PlayerSettings()
        settings.$volume.increase()
        #expect(settings.volume == 0.6)
        settings.$shuffle.toggle()
        #expect(settings.shuffle)
        #expect(settings.$volume.formattedValue == "60%")
        settings.volume = 7
        #expect(settings.volume == 1.0)
        #expect(settings.catalog.map(\.title) == ["Volume", "Shuffle", "Font size"])
        #expect(settings.catalog[2].kind == .number(min: "8", max: "72", step: "2"))
    }
}
