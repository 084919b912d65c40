import Foundation
import Testing
import TypedDefaults

extension DefaultsKeys {
    fileprivate static let resetTheme = DefaultsKey<String>("theme", default: "system")
    fileprivate static let resetSize = DefaultsKey<Int>("size", default: 12)
    fileprivate static let resetClamped = DefaultsKey<Int>("clamped", default: 5).clamped(to: 0...10)
}

/// Resetting several keys and the whole suite, and telling whether a key shows its default.
@Suite struct ResetTests {
    @Test func severalKeysResetAtOnceVariadicOrFromASequence() throws {
        let suite = try TestSuite()
        let store = suite.store
        store[.resetTheme] = "dark"
        store[.resetSize] = 20
        store.reset(.resetTheme, .resetSize)
        #expect(store[.resetTheme] == "system")
        #expect(store[.resetSize] == 12)
        #expect(try suite.flushedObject(forKey: "theme") == nil)

        store[.resetTheme] = "light"
        store[.resetSize] = 30
        let keys: [DefaultsKeys] = [.resetTheme, .resetSize]
        store.reset(keys)
        #expect(!UserDefault(.resetTheme, store: store).hasStoredValue)
        #expect(!UserDefault(.resetSize, store: store).hasStoredValue)
    }

    @Test func removeAllRemovesEveryKeyAndEveryListenerHearsOfIt() throws {
        let suite = try TestSuite()
        // A key this program never declared, written by another program.
        suite.plant("someone else's", forKey: "foreign")
        let store = suite.store.durability(.coalesced(within: .seconds(3600)))
        store[.resetTheme] = "dark"
        UserDefault(wrappedValue: 1, "byName", store: store).wrappedValue = 2
        try store.flush()

        let heard = Collected<String>()
        let observation = store.observe { heard.append($0.key) }
        defer { observation.cancel() }
        let callbacks = Counter()
        let themed = UserDefault(.resetTheme, store: store).didSet { new, old in
            #expect(new == "system" && old == "dark")
            callbacks.increment()
        }
        _ = themed.wrappedValue

        store.removeAll()
        #expect(store[.resetTheme] == "system")
        #expect(UserDefault(wrappedValue: 1, "byName", store: store).wrappedValue == 1)
        #expect(UserDefault<String?>("foreign", store: store).wrappedValue == nil)
        #expect(Set(heard.wait(for: 3)) == ["theme", "byName", "foreign"])
        #expect(callbacks.value == 1)
        if suitesAreFiles {
            // Nothing was committed key by key: the file holds every key until the one flush (a
            // `UserDefaults` object takes each write at once).
            #expect(try plistKeys(suite) == ["theme", "byName", "foreign"])
        }
        try store.flush()
        #expect(try plistKeys(suite) == [])
        #expect(suite.defaults.object(forKey: "foreign") == nil)
    }

    @Test func removeAllOfAnImmediateStoreIsOnDiskWhenItReturns() throws {
        let suite = try TestSuite()
        suite.plant(1, forKey: "a")
        suite.plant(2, forKey: "b")
        let store = suite.store.durability(.immediate)
        store.removeAll()
        #expect(try plistKeys(suite) == [])
        // An empty suite: nothing to remove, nothing reported.
        let (_, reported) = ReportedErrors.during { store.removeAll() }
        #expect(reported.isEmpty)
    }

    @Test(
        .plistFilesOnly(
            "a plist file that does not parse: corelibs `UserDefaults` reads it as empty, and writes over it"))
    func removeAllOnACorruptFileKeepsTheCorruptBytesAside() throws {
        let suite = try TestSuite()
        try FileManager.default.createDirectory(
            at: suite.plistURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try writeAtRest(Data("not a property list".utf8), to: suite.plistURL)
        let (_, reported) = ReportedErrors.during { suite.store.durability(.immediate).removeAll() }
        guard case .corruptFile(_, let aside?, _)? = reported.first else {
            Issue.record("expected .corruptFile, got \(reported)")
            return
        }
        #expect(FileManager.default.contents(atPath: aside) == Data("not a property list".utf8))
        try FileManager.default.removeItem(atPath: aside)
    }

    @Test func removeAllInTheInMemoryStore() {
        let store = DefaultsStore.inMemory()
        store[.resetSize] = 99
        store.removeAll()
        #expect(store[.resetSize] == 12)
        #expect(store.isDefaultValue(.resetSize))
    }

    @Test func isDefaultValueComparesWhatAReadShowsWithTheDefault() throws {
        let suite = try TestSuite()
        let store = suite.store
        let size = UserDefault(.resetSize, store: store)
        #expect(size.isDefaultValue, "nothing stored")
        store[.resetSize] = 12
        #expect(size.hasStoredValue && size.isDefaultValue, "stored, and equal to the default")
        store[.resetSize] = 13
        #expect(!store.isDefaultValue(.resetSize))

        // Rules apply to both sides: 50 is stored as 10, which is not the default 5.
        store[.resetClamped] = 50
        #expect(!store.isDefaultValue(.resetClamped))
    }

    @Test func unreadableStoredDataIsNotTheDefaultAndIsReported() throws {
        let suite = try TestSuite()
        suite.plant("not a number", forKey: "size")
        let (isDefault, reported) = ReportedErrors.during { suite.store.isDefaultValue(.resetSize) }
        #expect(!isDefault)
        #expect(reported.count == 1)
        // The stored bytes are left alone.
        #expect(suite.defaults.string(forKey: "size") == "not a number")
    }

    private func plistKeys(_ suite: TestSuite) throws -> Set<String> {
        guard let data = FileManager.default.contents(atPath: suite.plistURL.path) else { return [] }
        let root = try PropertyListSerialization.propertyList(from: data, format: nil)
        return Set((root as? [String: Any])?.keys.map { $0 } ?? [])
    }
}
