import Foundation
import Observation
import Testing
import TypedDefaultsSchema

@testable import TypedDefaults
@testable import TypedDefaultsStorage

/// A catalog that mixes `Setting`s with plain `@UserDefault` properties, as an app's does.
private struct MixedCatalog: SettingsCatalog {
    @Setting var fontSize: Int
    @UserDefault var launchCount: Int
    @UserDefault var compact: Bool
    @UserDefault var theme: SchemaTheme

    init(store: DefaultsStore) {
        _fontSize = Setting(wrappedValue: 12, "fontSize", title: "Font size", range: 8...72, step: 2, store: store)
        _launchCount = UserDefault(wrappedValue: 0, "launchCount", store: store)
        _compact = UserDefault(wrappedValue: false, "compact", store: store)
        _theme = UserDefault(wrappedValue: .system, "theme", store: store)
    }
}

/// Foil's pattern: a model struct holding its settings as wrappers, `Hashable`.
private struct Preferences: Hashable {
    @UserDefault var fontSize: Int
    @UserDefault var name: String

    init(store: DefaultsStore) {
        _fontSize = UserDefault(wrappedValue: 12, "fontSize", store: store)
        _name = UserDefault(wrappedValue: "", "name", store: store)
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable private final class VolumeModel {
    @ObservationIgnored @UserDefault var volume: Double

    init(store: DefaultsStore) { _volume = UserDefault(wrappedValue: 0.5, "volume", store: store) }
}

/// What users of Defaults and Foil expect of the library.
@Suite struct PeerHabitTests {
    /// A generic settings screen shows every setting the type declares: plain `@UserDefault`
    /// properties too, titled with their keys, of the kind their types give.
    @Test(.plistFilesOnly("schemas are published beside the suite's plist file"))
    func aCatalogListsPlainUserDefaultsToo() throws {
        let suite = try TestSuite()
        let catalog = MixedCatalog(store: suite.store)
        catalog.launchCount = 3
        catalog.theme = .dark
        let listed = catalog.catalog
        #expect(listed.map(\.key) == ["fontSize", "launchCount", "compact", "theme"])
        #expect(listed.map(\.title) == ["Font size", "launchCount", "compact", "theme"])
        #expect(listed[1].kind == .value && listed[1].formattedValue == "3" && listed[1].hasStoredValue)
        #expect(listed[2].kind == .flag && !listed[2].hasStoredValue)
        guard case .choice(let options) = listed[3].kind else {
            Issue.record("theme is no choice: \(listed[3].kind)")
            return
        }
        #expect(options.map(\.title) == ["system", "light", "dark"])
        #expect(options.map(\.isSelected) == [false, false, true])
        #expect(options.map(\.value) == ["system", "light", "dark"])

        // The published schema lists them too.
        _ = try DefaultsSchema.publish(catalog)
        let schema = try #require(try suite.store.publishedSchema())
        #expect(schema.keys.map(\.name) == ["fontSize", "launchCount", "compact", "theme"])
        #expect(schema["theme"]?.options?.map(\.value) == ["system", "light", "dark"])
    }

    /// Equal when they read the same key of the same suite and hold equal values.
    @Test func wrappersAreEqualAndHashableWhereTheirValuesAre() throws {
        let (first, second) = (try TestSuite(), try TestSuite())
        let model = Preferences(store: first.store)
        #expect(model == Preferences(store: first.store))
        #expect(model.hashValue == Preferences(store: first.store).hashValue)
        #expect(model != Preferences(store: second.store), "another suite")
        second.store[DefaultsKey<Int>("fontSize", default: 12)] = 12
        #expect(model != Preferences(store: second.store), "another suite, even with equal values")

        let a = UserDefault(wrappedValue: 1, "a", store: first.store)
        #expect(a != UserDefault(wrappedValue: 9, "a", store: first.store), "nothing stored: the defaults differ")
        a.wrappedValue = 5
        #expect(a == UserDefault(wrappedValue: 9, "a", store: first.store), "both read the stored 5")
        #expect(a != UserDefault(wrappedValue: 1, "b", store: first.store), "another key")
        #expect(Set([a, UserDefault(wrappedValue: 1, "a", store: first.store.durability(.immediate))]).count == 1)
        // Keys compared as stored: two spellings of "é" are two keys.
        #expect(
            UserDefault(wrappedValue: 0, "caf\u{E9}", store: first.store)
                != UserDefault(wrappedValue: 0, "cafe\u{301}", store: first.store))
    }

    /// A handle's hash is its suite's and key's: a write through another handle, or by another
    /// program, leaves it where a `Set` or a dictionary filed it.
    @Test func aHandleInASetIsFoundAfterItsKeyIsWritten() throws {
        let suite = try TestSuite()
        let handle = UserDefault(wrappedValue: 1, "count", store: suite.store)
        var handles: Set = [handle]
        var titles = [handle: "count"]
        UserDefault(wrappedValue: 1, "count", store: suite.store).wrappedValue = 2
        #expect(handles.contains(handle))
        #expect(titles[handle] == "count")
        suite.plant(3, forKey: "count")
        suite.store.refresh()
        #expect(handle.wrappedValue == 3)
        #expect(handles.remove(handle) != nil, "found after another program's write")
        titles[handle] = nil
        #expect(titles.isEmpty)
    }

    /// Changes made in the body run no `didSet` callbacks and no observation callbacks here;
    /// reads, the file and `@Observable` tracking see them.
    @Test func changesWithoutPropagationRunNoCallbacks() async throws {
        let suite = try TestSuite()
        let didSets = Counter()
        let base = UserDefault(wrappedValue: 0, "synced", store: suite.store)
        let watched = base.didSet { _, _ in didSets.increment() }
        let delivered = Locked<[Int]>([])
        let observation = watched.observe { change in delivered.withLock { $0.append(change.newValue) } }
        defer { observation.cancel() }

        DefaultsStore.withoutPropagation { watched.wrappedValue = 1 }
        #expect(didSets.value == 0)
        #expect(watched.wrappedValue == 1 && base.wrappedValue == 1, "reads see it")
        watched.wrappedValue = 2
        #expect(didSets.value == 1)
        // Deliveries come in the order of the changes: the first one heard is the second change.
        let deadline = Date().addingTimeInterval(10)
        while delivered.withLock({ $0.isEmpty }) && Date() < deadline { try await Task.sleep(for: .milliseconds(2)) }
        #expect(delivered.withLock { $0 } == [2])

        try suite.store.flush()
        let stored = try PropertyListSerialization.propertyList(from: Data(contentsOf: suite.plistURL), format: nil)
        #expect((stored as? [String: Any])?["synced"] as? Int == 2)

        // Only this body's own changes are quiet: another thread's, meanwhile, are heard.
        DefaultsStore.withoutPropagation {
            // The setter returns once its didSet callbacks have run.
            let written = DispatchSemaphore(value: 0)
            Thread {
                watched.wrappedValue = 3
                written.signal()
            }.start()
            written.wait()
        }
        #expect(didSets.value == 2)
    }

    @Test @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func observationTrackingStillSeesAChangeWithoutPropagation() throws {
        let suite = try TestSuite()
        let model = VolumeModel(store: suite.store)
        let property = ObservableDefault(UserDefault(wrappedValue: 0.5, "volume", store: suite.store))
        let changes = Counter()
        withObservationTracking {
            _ = property.value
        } onChange: {
            changes.increment()
        }
        DefaultsStore.withoutPropagation { model.volume = 0.8 }
        #expect(changes.value == 1)
        #expect(property.value == 0.8)
    }

    /// Heterogeneous values in one setting read and write like JSON (Defaults' `AnySerializable`).
    @Test(.plistFilesOnly("corelibs `UserDefaults` keeps a date to whole seconds"))
    func mixedValuesReadAndWriteLikeJSON() throws {
        let suite = try TestSuite()
        let layout = UserDefault<[String: DefaultsStoredValue]>(
            wrappedValue: ["columns": 3, "tags": [true, "x", 1.5], "nested": ["on": false]], "layout",
            store: suite.store)
        #expect(layout.wrappedValue["columns"]?.value(as: Int.self) == 3)
        #expect(layout.wrappedValue["tags"]?[1]?.value(as: String.self) == "x")
        #expect(layout.wrappedValue["tags"]?[2]?.value(as: Double.self) == 1.5)
        #expect(layout.wrappedValue["tags"]?[3] == nil)
        #expect(layout.wrappedValue["nested"]?["on"]?.value(as: Bool.self) == false)

        layout.wrappedValue["columns"] = 4
        layout.wrappedValue["nested"]?["on"] = true
        layout.wrappedValue["when"] = .date(Date(timeIntervalSinceReferenceDate: 0.5))
        try suite.store.flush()
        // A fresh process's view: the file itself.
        let file = try PropertyListSerialization.propertyList(from: Data(contentsOf: suite.plistURL), format: nil)
        let stored = try #require(DefaultsStoredValue(propertyListObject: (file as? [String: Any])?["layout"] as Any))
        #expect(stored["columns"] == 4)
        #expect(stored["nested"]?["on"] == true)
        #expect(stored["when"]?.value(as: Date.self) == Date(timeIntervalSinceReferenceDate: 0.5))
        #expect(stored["tags"] == [true, "x", 1.5])
        #expect(DefaultsStoredValue.integer(.max).value(as: Int.self) == Int.max)
        #expect(DefaultsStoredValue.unsignedInteger(.max).value(as: Int.self) == nil)
        #expect(DefaultsStoredValue.string("x")["k"] == nil)
    }
}
