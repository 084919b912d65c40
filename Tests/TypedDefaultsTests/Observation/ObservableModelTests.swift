import Foundation
import Observation
import Testing
import TypedDefaultsSchema

@testable import DefaultsProbe
@testable import TypedDefaults

/// The Observation article's declaration: `@ObservationIgnored @UserDefault` in an `@Observable`
/// class.
@Observable private final class PlayerModel {
    @ObservationIgnored @UserDefault<Double> var volume: Double
    @ObservationIgnored @Setting<Bool> var shuffle: Bool
    var title = ""

    init(store: DefaultsStore) {
        _volume = UserDefault(wrappedValue: 0.5, "volume", store: store)
        _shuffle = Setting(wrappedValue: false, "shuffle", title: "Shuffle", store: store)
    }
}

/// No macro: a plain class that declares itself `Observable`.
private final class PlainModel: Observable {
    @UserDefault<Int> var counter: Int
    @UserDefault<String> var name: String

    init(store: DefaultsStore) {
        _counter = UserDefault(wrappedValue: 0, "counter", store: store)
        _name = UserDefault(wrappedValue: "", "name", store: store)
    }
}

/// A main-actor model, as SwiftUI code declares them.
@MainActor @Observable private final class MainActorModel {
    @ObservationIgnored @UserDefault<Double> var volume: Double
    init(store: DefaultsStore) { _volume = UserDefault(wrappedValue: 0.5, "volume", store: store) }
}

/// A subclass of an `Observable` class, declaring nothing itself.
private class BaseModel: Observable {
    @UserDefault<Int> var counter: Int
    init(store: DefaultsStore) { _counter = UserDefault(wrappedValue: 0, "counter", store: store) }
}

private final class SubModel: BaseModel {}

/// A settings screen's model: a catalog that is `Observable` on its own.
private final class ScreenSettings: SettingsCatalog, Observable {
    @Setting<Bool> var shuffle: Bool
    @Setting<Double> var volume: Double

    init(store: DefaultsStore) {
        _shuffle = Setting(wrappedValue: false, "shuffle", title: "Shuffle", store: store)
        _volume = Setting(wrappedValue: 0.5, "volume", title: "Volume", store: store)
    }
}

/// Not `Observable`: its reads are tracked by nothing.
private final class UnobservedModel {
    @UserDefault<Double> var volume: Double
    init(store: DefaultsStore) { _volume = UserDefault(wrappedValue: 0.5, "volume", store: store) }
}

/// `withObservationTracking` sees `@UserDefault` and `Setting` properties of `Observable`
/// objects change, whoever changes them.
@Suite struct ObservableModelTests {
    /// Tracks `read` once; returns a counter of the `onChange` calls.
    private func track(_ read: () -> Void) -> Counter {
        let changes = Counter()
        withObservationTracking(read) { changes.increment() }
        return changes
    }

    @Test func theObservationArticlesModelWorksAsWritten() throws {
        let suite = try TestSuite()
        let store = suite.store
        let model = PlayerModel(store: store)
        let changes = track { _ = model.volume }
        store[DefaultsKey<Double>("volume", default: 0.5)] = 0.8
        #expect(changes.value == 1)
        #expect(model.volume == 0.8)
    }

    @Test(
        .plistFilesOnly("`UserDefaults` does not tell of other processes' writes (Apple's neither)"),
        .tags(.childProcess),
        .startsProcesses) func everyKindOfChangeIsSeen() async throws
    {
        let suite = try TestSuite()
        let store = suite.store
        let model = PlainModel(store: store)
        let otherHandle = UserDefault(wrappedValue: 0, "counter", store: store)
        let changes: [(String, () throws -> Void)] = [
            ("this property", { model.counter = 1 }),
            ("another handle", { otherHandle.wrappedValue = 2 }),
            ("store[.key]", { store[DefaultsKey<Int>("counter", default: 0)] = 3 }),
            ("a reset", { otherHandle.reset() }),
            ("an update", { otherHandle.update { $0 += 5 } }),
            ("removeAll", { store.removeAll() }),
            ("a migration", { try store.migrate([.editStoredValues("set") { $0["counter"] = 9 }]) }),
        ]
        for (what, change) in changes {
            let seen = track { _ = model.counter }
            try change()
            #expect(seen.value == 1, "\(what)")
        }
        // Another process: noticed by the suite's file watcher.
        let seen = track { _ = model.counter }
        let child = try await Probe.run("increment", suite.name, "1")
        #expect(child.status == 0, "\(child.errors)")
        #expect(await eventually(seconds: 2) { seen.value == 1 }, "another process")
    }

    @Test func aSettingInAnObservableClassIsTracked() throws {
        let suite = try TestSuite()
        let model = PlayerModel(store: suite.store)
        let changes = track { _ = model.shuffle }
        model.$shuffle.toggle()
        #expect(changes.value == 1)
        #expect(model.shuffle)
    }

    @MainActor @Test func aMainActorModelIsTracked() throws {
        let suite = try TestSuite()
        let model = MainActorModel(store: suite.store)
        let changes = track { _ = model.volume }
        model.volume = 0.25
        #expect(changes.value == 1)
    }

    @Test func aSubclassOfAnObservableClassIsTracked() throws {
        let suite = try TestSuite()
        let model = SubModel(store: suite.store)
        let changes = track { _ = model.counter }
        suite.store[DefaultsKey<Int>("counter", default: 0)] = 2
        #expect(changes.value == 1)
    }

    /// A whole settings screen observes one object: any of its settings read, changed.
    @Test func anObservableCatalogIsOneObjectToObserve() throws {
        let suite = try TestSuite()
        let settings = ScreenSettings(store: suite.store)
        let changes = track {
            for setting in settings.catalog { _ = setting.formattedValue }
            _ = settings.shuffle
            _ = settings.volume
        }
        settings.$volume.increase()
        #expect(changes.value == 1)
        #expect(settings.catalog.count == 2)
    }

    @Test func onlyTheKeysReadAreTracked() throws {
        let suite = try TestSuite()
        let model = PlainModel(store: suite.store)
        let changes = track { _ = model.name }
        model.counter = 4
        #expect(changes.value == 0)
        model.name = "Ada"
        #expect(changes.value == 1)
    }

    /// One value as an `Observable` object, as a SwiftUI view keeps it.
    @Test func anObservableDefaultIsTracked() throws {
        let suite = try TestSuite()
        let volume = ObservableDefault(UserDefault(wrappedValue: 0.5, "volume", store: suite.store))
        let changes = track { _ = volume.value }
        UserDefault(wrappedValue: 0.5, "volume", store: suite.store).wrappedValue = 0.7
        #expect(changes.value == 1)
        #expect(volume.value == 0.7)

        let byKey = ObservableDefault(DefaultsKey<Double>("volume", default: 0.5), store: suite.store)
        let keyChanges = track { _ = byKey.value }
        volume.value = 0.1
        #expect(keyChanges.value == 1)
        #expect(byKey.value == 0.1)
    }

    @Test func aClassThatIsNotObservableIsNotTracked() throws {
        let suite = try TestSuite()
        let model = UnobservedModel(store: suite.store)
        let changes = track { _ = model.volume }
        model.volume = 0.9
        #expect(changes.value == 0)
        #expect(model.volume == 0.9)
    }

    @Test func manyModelsObserveOneKeyAndOneModelManyKeys() throws {
        let suite = try TestSuite()
        let models = (0..<20).map { _ in PlainModel(store: suite.store) }
        let counters = models.map { model in track { _ = model.counter } }
        suite.store[DefaultsKey<Int>("counter", default: 0)] = 7
        #expect(counters.map(\.value) == Array(repeating: 1, count: 20))

        let model = models[0]
        let both = track {
            _ = model.counter
            _ = model.name
        }
        model.name = "Grace"
        model.counter = 8
        #expect(both.value == 1, "onChange runs once per tracking")
    }

    /// A model released stops being reported, and nothing keeps it alive.
    @Test func aReleasedModelIsNeitherKeptNorCalled() throws {
        let suite = try TestSuite()
        var model: PlainModel? = PlainModel(store: suite.store)
        weak let released = model
        let changes = track { _ = model?.counter }
        model = nil
        #expect(released == nil, "the model was kept alive")
        suite.store[DefaultsKey<Int>("counter", default: 0)] = 3
        #expect(changes.value == 0)
    }

    @Test func writesFromEightThreads() async throws {
        let suite = try TestSuite()
        let model = PlainModel(store: suite.store)
        let store = suite.store
        let changes = Counter()
        for _ in 0..<50 {
            withObservationTracking {
                _ = model.counter
            } onChange: {
                changes.increment()
            }
            await withTaskGroup(of: Void.self) { group in
                for thread in 0..<8 {
                    group.addTask { store[DefaultsKey<Int>("counter", default: 0)] = thread }
                }
            }
        }
        // Each of the 50 trackings hears its change. Observation may call one `onChange` twice
        // when two threads change the property at once (under ThreadSanitizer, 10 runs of 12
        // counted 51), so more is not a lost or extra write.
        #expect(changes.value >= 50)
    }
}
