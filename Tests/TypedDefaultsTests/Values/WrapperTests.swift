import Foundation
import Testing
import TypedDefaults

@testable import DefaultsProbe

@Suite struct WrapperTests {
    @Test func defaultIsNotWritten() throws {
        let suite = try TestSuite()
        @UserDefault("launchCount", store: DefaultsStore(suite.defaults)) var launchCount = 5
        #expect(launchCount == 5)
        #expect(!$launchCount.hasStoredValue)
        #expect(try suite.flushedObject(forKey: "launchCount") == nil)
        launchCount += 1
        #expect(try suite.flushedObject(forKey: "launchCount") as? Int == 6)
        #expect($launchCount.hasStoredValue)
    }

    @Test func resetRemovesTheValueAndTheDefaultShows() throws {
        let suite = try TestSuite()
        @UserDefault("theme", store: DefaultsStore(suite.defaults)) var theme = Channel.voice
        theme = .music
        $theme.reset()
        #expect(theme == .voice)
        #expect(!$theme.hasStoredValue)
    }

    @Test func nilOverANonNilDefaultIsStored() throws {
        let suite = try TestSuite()
        @UserDefault("count", store: DefaultsStore(suite.defaults)) var count: Int? = 42
        count = nil
        #expect(count == nil)
        #expect($count.hasStoredValue)
        #expect(try $count.load() == nil)
        $count.reset()
        #expect(count == 42)
    }

    // Plain `UserDefaults.set(nil, forKey:)` loops forever on Linux; assigning nil must not call it.
    @Test(.hangGuard) func nilOverANilDefaultRemovesTheKey() throws {
        let suite = try TestSuite()
        @UserDefault("name", store: DefaultsStore(suite.defaults)) var name: String?
        name = "Bobbie"
        #expect(try suite.flushedObject(forKey: "name") as? String == "Bobbie")
        name = nil
        #expect(name == nil)
        #expect(try suite.flushedObject(forKey: "name") == nil)
    }

    @Test func loadThrowsMissingWhenNothingIsStored() throws {
        let suite = try TestSuite()
        let wrapper = UserDefault(wrappedValue: 1, "absent", store: DefaultsStore(suite.defaults))
        #expect(throws: DefaultsError.self) { try wrapper.load() }
        do {
            _ = try wrapper.load()
        } catch {
            guard case .missingValue(let key) = error else {
                Issue.record("expected .missingValue, got \(error)")
                return
            }
            #expect(key == "absent")
        }
    }

    @Test func copiesOfAWrapperShareTheStoredValue() throws {
        let suite = try TestSuite()
        struct Settings {
            @UserDefault var volume: Double
            init(_ defaults: UserDefaults) {
                _volume = UserDefault(wrappedValue: 0.5, "volume", store: DefaultsStore(defaults))
            }
            // nonmutating set: a `let` struct's property can be assigned.
            func mute() { volume = 0 }
        }
        let first = Settings(suite.defaults)
        let second = first
        first.mute()
        #expect(second.volume == 0)
        #expect(Settings(suite.defaults).volume == 0)
    }

    @Test func classPropertiesAndProjectedValue() throws {
        let suite = try TestSuite()
        final class Model {
            @UserDefault var tags: [String]
            init(_ defaults: UserDefaults) {
                _tags = UserDefault(wrappedValue: ["a"], "tags", store: DefaultsStore(defaults))
            }
        }
        let model = Model(suite.defaults)
        model.tags.append("b")
        #expect(model.tags == ["a", "b"])
        #expect(model.$tags.key == "tags")
        #expect(model.$tags.defaultValue == ["a"])
    }

    @MainActor @Test func staticPropertyOfAMainActorType() throws {
        StaticSettings.greeting = "hi"
        #expect(StaticSettings.greeting == "hi")
        StaticSettings.$greeting.reset()
        #expect(StaticSettings.greeting == "hello")
        try DefaultsStore(StaticSettings.defaults).flush()
        TestSuite.removeFiles(
            of: DefaultsStore.preferencesFolder.appendingPathComponent("\(StaticSettings.suiteName).plist"))
    }

    @Test func equalValuesGiveEqualJSON() throws {
        let suite = try TestSuite()
        @UserDefault("layout", store: DefaultsStore(suite.defaults))
        var layout = WindowLayout(width: 1, height: 2, title: "t", opened: .distantPast, zoom: 1)
        layout = WindowLayout(width: 3, height: 4, title: nil, opened: Date(timeIntervalSinceReferenceDate: 0), zoom: 2)
        #expect(try suite.flushedObject(forKey: "layout") as? String == #"{"height":4,"opened":0,"width":3,"zoom":2}"#)
    }

    /// The engine formats a UUID itself (corelibs' `uuidString` is slow): the stored string
    /// must be Foundation's, byte for byte, so other readers and older versions parse it.
    @Test func uuidsAreStoredAsFoundationFormatsThem() throws {
        let edges = [
            UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
            UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)),
            UUID(
                uuid: (0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, 0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0xDC, 0xFE)),
        ]
        for uuid in edges + (0..<1_000).map({ _ in UUID() }) {
            #expect(uuid.defaultsRepresentation() == uuid.uuidString)
        }
        let suite = try TestSuite()
        let id = UUID()
        @UserDefault("id", store: DefaultsStore(suite.defaults)) var stored = UUID()
        stored = id
        #expect(try suite.flushedObject(forKey: "id") as? String == id.uuidString)
    }

    @Test func nilMarkersKeepNestedOptionalsApart() throws {
        let suite = try TestSuite()
        @UserDefault("nested", store: DefaultsStore(suite.defaults)) var nested: Int?? = 1
        nested = .some(nil)
        #expect(nested == .some(nil))
        nested = nil
        #expect(nested == nil)
        @UserDefault("list", store: DefaultsStore(suite.defaults)) var list: [String?] = []
        list = [nil, "a", nil]
        #expect(list == [nil, "a", nil])
    }

    @Test func suiteNamesThatArePathsAreRefused() {
        for name in ["../escape", "a/b", "..", "", "nul\u{0}name", #"back\slash"#] {
            #expect(throws: DefaultsError.self, "\(name)") { try UserDefaults.suite(named: name) }
        }
        #expect(throws: Never.self) { try UserDefaults.suite(named: "com.example.app") }
    }
}

@MainActor enum StaticSettings {
    @UserDefault("greeting", store: DefaultsStore(StaticSettings.defaults)) static var greeting = "hello"
    static let suiteName = "typeddefaults-tests.static"
    static let defaults = UserDefaults(suiteName: suiteName)!
}
