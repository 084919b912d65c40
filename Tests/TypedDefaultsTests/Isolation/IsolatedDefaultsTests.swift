import Foundation
import Observation
import Testing
import TypedDefaultsTestSupport

@testable import TypedDefaults

/// A store declared once for the program, as apps declare theirs: the trait must isolate it
/// without the code under test taking a store as a parameter.
extension DefaultsStore {
    fileprivate static let isolationProbe = DefaultsStore(suite: "typeddefaults-tests.isolation-probe")
}

/// Settings code as apps write it: a shared model over `.standard` and a `static let` store.
private final class ProbeSettings: Sendable {
    static let shared = ProbeSettings()
    let launches = UserDefault(wrappedValue: 0, "isolation-probe.launches")
    let nickname = UserDefault(wrappedValue: "", "nickname", store: .isolationProbe)
    let volume = Setting(wrappedValue: 0.5, "volume", title: "Volume", store: .isolationProbe)
}

extension DefaultsKeys {
    fileprivate static let probeColour = DefaultsKey<String>("colour", default: "red", store: .isolationProbe)
}

/// Where the probe suite's file would be, if anything reached the disk.
private var probeSuiteFile: String {
    DefaultsStore.preferencesFolder.appendingPathComponent("typeddefaults-tests.isolation-probe.plist").path
}

@Suite(.isolatedDefaults) struct IsolatedDefaultsTraitTests {
    /// Sixteen cases run in parallel, each writing its own number everywhere and reading it back
    /// after the others had the time to write theirs.
    @Test(arguments: 0..<16) func eachTestSeesOnlyItsOwnValues(number: Int) async throws {
        let settings = ProbeSettings.shared
        #expect(!settings.launches.hasStoredValue, "a value leaked in from another test")
        #expect(!settings.nickname.hasStoredValue)
        #expect(DefaultsStore.isolationProbe[.probeColour] == "red")
        settings.launches.wrappedValue = number
        settings.nickname.wrappedValue = "case \(number)"
        settings.volume.wrappedValue = Double(number) / 100
        DefaultsStore.isolationProbe[.probeColour] = "colour \(number)"
        try await Task.sleep(for: .milliseconds(20))
        #expect(settings.launches.wrappedValue == number)
        #expect(settings.nickname.wrappedValue == "case \(number)")
        #expect(settings.volume.wrappedValue == Double(number) / 100)
        #expect(DefaultsStore.isolationProbe[.probeColour] == "colour \(number)")
        #expect(DefaultsStore.standard[DefaultsKey<Int>("isolation-probe.launches", default: 0)] == number)
        try DefaultsStore.isolationProbe.flush()
        try DefaultsStore.standard.flush()
        #expect(!FileManager.default.fileExists(atPath: probeSuiteFile), "a test's value reached the disk")
    }

    @Test func childTasksShareTheTestsCopy() async {
        let nickname = ProbeSettings.shared.nickname
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<4 { group.addTask { nickname.update { $0 += "\(index)" } } }
        }
        #expect(nickname.wrappedValue.count == 4)
    }

    @Test func callbacksRunInTheCopy() {
        let changes = Counter()
        let counter = UserDefault(wrappedValue: 0, "counter", store: .isolationProbe).didSet { _, _ in
            changes.increment()
        }
        counter.wrappedValue = 1
        counter.reset()
        #expect(changes.value == 2)
        #expect(counter.wrappedValue == 0)
    }

    @Test func observationTrackingHearsAChangeInTheCopy() {
        let model = TrackedProbe()
        let changed = Counter()
        withObservationTracking {
            _ = model.count
        } onChange: {
            changed.increment()
        }
        ProbeSettings.shared.launches.wrappedValue += 1
        UserDefault(wrappedValue: 0, "tracked", store: .isolationProbe).wrappedValue = 5
        #expect(changed.value == 1)
        #expect(model.count == 5)
    }

    @Test func migrationsRunAgainstTheCopy() throws {
        let store = DefaultsStore.isolationProbe
        store[.probeColour] = "blue"
        try store.migrate([.renameKey("colour", to: "color")])
        #expect(store[.probeColour] == "red")
        #expect(store[DefaultsKey<String>("color", default: "")] == "blue")
    }
}

private final class TrackedProbe: Observable {
    @UserDefault<Int> var count: Int
    init() { _count = UserDefault(wrappedValue: 0, "tracked", store: .isolationProbe) }
}

/// The trait's scope, entered by hand around handles made before it.
@Suite struct IsolatedSuitesTests {
    @Test func aHandleMadeBeforeUsesTheCopyInsideAndItsSuiteAfter() throws {
        let suite = try TestSuite()
        let handle = UserDefault(wrappedValue: 0, "count", store: suite.store)
        handle.wrappedValue = 1
        try suite.store.flush()
        IsolatedSuites.$current.withValue(IsolatedSuites()) {
            #expect(handle.wrappedValue == 0, "a test's copy starts empty")
            #expect(!handle.hasStoredValue)
            handle.wrappedValue = 2
            #expect(handle.wrappedValue == 2)
            #expect(suite.store[DefaultsKey<Int>("count", default: 0)] == 2)
            try? suite.store.flush()
        }
        #expect(handle.wrappedValue == 1)
        #expect(suite.defaults.integer(forKey: "count") == 1)
        let file = try #require(try suite.fileBytes())
        let stored = try PropertyListSerialization.propertyList(from: file, format: nil) as? [String: Any]
        #expect(stored?["count"] as? Int == 1, "the test's write reached the suite's file")
    }

    @Test func aHandleMadeInsideKeepsToItsSuiteAfter() throws {
        let suite = try TestSuite()
        suite.store[DefaultsKey<Int>("count", default: 0)] = 3
        // A model's `static let` first touched inside an isolated test.
        let handle = IsolatedSuites.$current.withValue(IsolatedSuites()) {
            let handle = UserDefault(wrappedValue: 0, "count", store: suite.store)
            handle.wrappedValue = 42
            return handle
        }
        #expect(handle.wrappedValue == 3)
        handle.wrappedValue = 7
        #expect(UserDefault(wrappedValue: 0, "count", store: suite.store).wrappedValue == 7)
        let file = try #require(try suite.fileBytes())
        let stored = try PropertyListSerialization.propertyList(from: file, format: nil) as? [String: Any]
        #expect(stored?["count"] as? Int == 7, "a write through the handle did not reach the suite")
    }

    @Test func aCallbackMadeBeforeHearsAnyHandleInTheCopy() {
        let store = DefaultsStore.inMemory()
        let changes = Counter()
        let watched = UserDefault(wrappedValue: 0, "volume", store: store).didSet { _, _ in changes.increment() }
        IsolatedSuites.$current.withValue(IsolatedSuites()) {
            store[DefaultsKey<Int>("volume", default: 0)] = 5
            #expect(changes.value == 1)
        }
        #expect(changes.value == 1, "the copy's change ran the callback again outside it")
        _ = watched
    }

    @Test func detachedWorkUsesTheSuiteItself() async {
        let store = DefaultsStore.inMemory()
        let handle = UserDefault(wrappedValue: 0, "count", store: store)
        await IsolatedSuites.$current.withValue(IsolatedSuites()) {
            await Task.detached { handle.wrappedValue = 7 }.value
            #expect(handle.wrappedValue == 0)
        }
        #expect(handle.wrappedValue == 7)
    }

    @Test func twoScopesDoNotShareCopies() {
        let store = DefaultsStore.inMemory()
        let handle = UserDefault(wrappedValue: 0, "count", store: store)
        IsolatedSuites.$current.withValue(IsolatedSuites()) { handle.wrappedValue = 3 }
        IsolatedSuites.$current.withValue(IsolatedSuites()) { #expect(handle.wrappedValue == 0) }
    }
}
