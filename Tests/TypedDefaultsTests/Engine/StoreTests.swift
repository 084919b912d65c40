import Foundation
import Testing
import TypedDefaults

/// Counts its decodes, to show which reads are served from the cache. The counter is the
/// test's own (a task local): tests run in parallel, and another test's decodes must not count.
struct Counted: Equatable, DefaultsValueConvertible {
    @TaskLocal static var decodes = Counter()

    var value: Int
    init(_ value: Int) { self.value = value }
    init(defaultsRepresentation: Int) {
        Counted.decodes.increment()
        value = defaultsRepresentation
    }
    func defaultsRepresentation() -> Int { value }
}

@Suite struct StoreTests {
    @Test func everyRouteToASuiteSharesOneState() throws {
        let suite = try TestSuite()
        let byName = try DefaultsStore(suiteName: suite.name)
        @UserDefault("shared", store: byName) var viaName = 0
        @UserDefault("shared", store: DefaultsStore(suite.defaults)) var viaStore = 0
        @UserDefault("shared", store: DefaultsStore(suite.defaults)) var viaDefaults = 0
        @UserDefault("shared", store: DefaultsStore(UserDefaults(suiteName: suite.name)!)) var viaOtherObject = 0

        viaName = 1
        #expect([viaStore, viaDefaults, viaOtherObject] == [Int](repeating: 1, count: 3))
        viaOtherObject = 2
        #expect([viaName, viaStore, viaDefaults] == [Int](repeating: 2, count: 3))
        #expect(byName.fileURL == (suitesAreFiles ? suite.plistURL : nil))
    }

    /// A store over a `UserDefaults` object whose suite the engine leaves to `UserDefaults` (a
    /// name too long for the engine's own files) lists the suite's keys through that object, so
    /// `removeAll()` removes keys another writer stored, not only the ones this store touched.
    @Test func removeAllOverAUserDefaultsObjectRemovesOtherWritersKeys() throws {
        let name = "typeddefaults-tests." + UUID().uuidString + String(repeating: "n", count: 145)
        #expect(name.utf8.count == 201)
        let file = DefaultsStore.preferencesFolder.appendingPathComponent(name + ".plist")
        defer { try? FileManager.default.removeItem(at: file) }
        let writer = try #require(UserDefaults(suiteName: name))
        writer.set(1, forKey: "written elsewhere")
        writer.set("x", forKey: "also elsewhere")
        writer.synchronize()

        let store = DefaultsStore(try #require(UserDefaults(suiteName: name)))
        #expect(store.fileURL == nil, "the suite is left to UserDefaults")
        UserDefault(wrappedValue: 0, "touched", store: store).wrappedValue = 2
        store.removeAll()
        try store.flush()
        #expect(store.storedValue(forKey: "written elsewhere") == nil)
        #expect(store.storedValue(forKey: "also elsewhere") == nil)
        #expect(store.storedValue(forKey: "touched") == nil)
        let reader = try #require(UserDefaults(suiteName: name))
        reader.synchronize()
        #expect(reader.object(forKey: "written elsewhere") == nil)
    }

    /// `UserDefaults` keeps a value it finds equal to the one it holds as it was: a migration
    /// from `3.0` to `3` over a `UserDefaults` object left a floating-point number stored.
    @Test func aChangeOfANumbersTypeIsKeptOverAUserDefaultsObject() throws {
        let name = "typeddefaults-tests." + UUID().uuidString + String(repeating: "t", count: 145)
        let file = DefaultsStore.preferencesFolder.appendingPathComponent(name + ".plist")
        defer { try? FileManager.default.removeItem(at: file) }
        let writer = try #require(UserDefaults(suiteName: name))
        writer.set(3.0, forKey: "count")
        writer.synchronize()

        let store = DefaultsStore(try #require(UserDefaults(suiteName: name)))
        #expect(store.fileURL == nil, "the suite is left to UserDefaults")
        try store.migrate([.convert("count", from: Double.self, to: Int.self) { Int($0) }])
        try store.flush()
        #expect(store.storedValue(forKey: "count") == .integer(3))
        let stored = try #require(FileManager.default.contents(atPath: file.path))
        #expect(String(decoding: stored, as: UTF8.self).contains("<integer>3</integer>"))
    }

    @Test func theReadmeSharingExample() throws {
        let suite = try TestSuite()
        final class Player {
            @UserDefault var volume: Double
            init(store: DefaultsStore) { _volume = UserDefault(wrappedValue: 0.5, "volume", store: store) }
        }
        let store = try DefaultsStore(suiteName: suite.name)
        @UserDefault("volume", store: DefaultsStore(UserDefaults(suiteName: suite.name)!)) var volume = 0.5

        let player = Player(store: store)
        player.volume = 0.8
        #expect(volume == 0.8)
    }

    @Test func aWriteIsSeenByTheNextReadOnAnotherThread() async throws {
        let suite = try TestSuite()
        let store = suite.store
        for round in 1...200 {
            UserDefault(wrappedValue: 0, "handoff", store: store).wrappedValue = round
            let seen = await Task.detached { UserDefault(wrappedValue: 0, "handoff", store: store).wrappedValue }.value
            #expect(seen == round)
        }
    }

    @Test func repeatedReadsDoNotDecodeAgain() throws {
        try Counted.$decodes.withValue(Counter()) { try repeatedReadsDoNotDecodeAgainCounting() }
    }

    func repeatedReadsDoNotDecodeAgainCounting() throws {
        let store = DefaultsStore.inMemory()
        let writer = UserDefault(wrappedValue: Counted(0), "counted", store: store)
        let reader = UserDefault(wrappedValue: Counted(0), "counted", store: store)
        let before = Counted.decodes.value

        writer.wrappedValue = Counted(7)  // the written value is cached as its own decode
        for _ in 0..<1_000 { #expect(reader.wrappedValue == Counted(7)) }
        #expect(Counted.decodes.value == before)

        // A handle of another type on the key decodes once, then reads from the cache too.
        let asInt = UserDefault(wrappedValue: 0, "counted", store: store)
        for _ in 0..<10 { #expect(asInt.wrappedValue == 7) }
        for _ in 0..<10 { #expect(reader.wrappedValue == Counted(7)) }
        #expect(Counted.decodes.value == before + 1)
    }

    /// A read that finds nothing stored is cached too; every kind of change still shows.
    @Test func aMissingKeyIsCachedUntilItChanges() throws {
        let suite = try TestSuite()
        let reader = UserDefault(wrappedValue: "default", "missing", store: suite.store)
        for _ in 0..<3 { #expect(reader.wrappedValue == "default") }
        UserDefault(wrappedValue: "", "missing", store: suite.store).wrappedValue = "written"
        #expect(reader.wrappedValue == "written")
        reader.reset()
        #expect(reader.wrappedValue == "default")
        #expect(reader.wrappedValue == "default")
        try suite.store.flush()  // so the removal is not pending, and the plant comes after it
        suite.defaults.set("planted", forKey: "missing")
        suite.defaults.synchronize()
        suite.store.refresh()
        #expect(reader.wrappedValue == "planted")
        let dynamic = UserDefault(
            DefaultsKey<String>("store.missingDynamic", dynamicDefault: { UUID().uuidString }), store: suite.store)
        #expect(dynamic.wrappedValue != dynamic.wrappedValue, "a cached miss still computes a dynamic default")
    }

    @Test func aSuiteFileIsDecodedOncePerChange() throws {
        try Counted.$decodes.withValue(Counter()) { try aSuiteFileIsDecodedOncePerChangeCounting() }
    }

    func aSuiteFileIsDecodedOncePerChangeCounting() throws {
        let suite = try TestSuite()
        suite.plant(5, forKey: "counted")
        let before = Counted.decodes.value
        let reader = UserDefault(wrappedValue: Counted(0), "counted", store: suite.store)
        for _ in 0..<100 { #expect(reader.wrappedValue == Counted(5)) }
        #expect(Counted.decodes.value == before + 1)
    }

    @Test func theInMemoryStoreWritesNothing() throws {
        let store = DefaultsStore.inMemory()
        #expect(store.fileURL == nil)
        @UserDefault("draft", store: store) var draft = ""
        draft = "unsaved"
        try store.flush()
        #expect(UserDefault(wrappedValue: "", "draft", store: store).wrappedValue == "unsaved")
        #expect(UserDefault(wrappedValue: "", "draft", store: .inMemory()).wrappedValue == "")
        #expect(UserDefaults.standard.object(forKey: "draft") == nil)
    }

    @Test func theInMemoryStoreKeepsWritesWithoutCommittingThem() {
        let store = DefaultsStore.inMemory()
        let count = UserDefault(wrappedValue: 0, "count", store: store)
        count.wrappedValue = 41
        let other = UserDefault(wrappedValue: "", "other", store: store)
        other.wrappedValue = "kept"
        other.reset()
        // What a refresh reads back is what was written, not what a commit would have made.
        store.refresh()
        #expect(count.wrappedValue == 41)
        #expect(!other.hasStoredValue)
        count.update { $0 += 1 }
        store.refresh()
        #expect(UserDefault(wrappedValue: 0, "count", store: store).wrappedValue == 42)
    }

    @Test func immediateWritesAreOnDiskWhenTheSetterReturns() throws {
        let suite = try TestSuite()
        let store = try DefaultsStore(suiteName: suite.name, durability: .immediate)
        UserDefault(wrappedValue: 0, "now", store: store).wrappedValue = 42
        #expect(try fileObject("now", suite) as? Int == 42)
    }

    @Test(.plistFilesOnly("a `UserDefaults` object takes each write at once: only the plist files hold writes back"))
    func coalescedWritesWaitForTheWindowOrFlush() throws {
        let suite = try TestSuite()
        let store = suite.store.durability(.coalesced(within: .seconds(3600)))
        UserDefault(wrappedValue: 0, "later", store: store).wrappedValue = 42
        #expect(try fileObject("later", suite) == nil)
        try store.flush()
        #expect(try fileObject("later", suite) as? Int == 42)

        let fast = suite.store.durability(.coalesced(within: .milliseconds(10)))
        UserDefault(wrappedValue: 0, "soon", store: fast).wrappedValue = 1
        let deadline = Date().addingTimeInterval(5)
        while try fileObject("soon", suite) == nil, Date() < deadline { usleep(5_000) }
        #expect(try fileObject("soon", suite) as? Int == 1)
    }

    @Test func updateIsAtomicAcrossThreads() throws {
        let suite = try TestSuite()
        // An update of a suite on disk rewrites the file.
        for (store, perThread) in [(DefaultsStore.inMemory(), 1_000), (suite.store, 50)] {
            let counter = UserDefault(wrappedValue: 0, "counter", store: store)
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                for _ in 0..<perThread { counter.update { $0 += 1 } }
            }
            #expect(counter.wrappedValue == 8 * perThread)
        }
        #expect(try fileObject("counter", suite) as? Int == 8 * 50)
    }

    @Test func updateRemovesWhenNilMeetsANilDefault() throws {
        let store = DefaultsStore.inMemory()
        @UserDefault("name", store: store) var name: String?
        name = "a"
        $name.update { $0 = nil }
        #expect(!$name.hasStoredValue)
        $name.update { $0 = ($0 ?? "") + "b" }
        #expect(name == "b")
    }

    /// Left as it is for a while, or dated ahead of the clock (another machine's, or set by
    /// hand), an empty file is no writer at work.
    @Test(arguments: [-60.0, 3600]) func anEmptyFileAtRestIsAnEmptySuiteNotACorruptOne(dated offset: TimeInterval)
        throws
    {
        let suite = try TestSuite()
        try FileManager.default.createDirectory(
            at: suite.plistURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data().write(to: suite.plistURL)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: offset)], ofItemAtPath: suite.plistURL.path)
        let (value, reported) = ReportedErrors.during {
            UserDefault(wrappedValue: "default", "key", store: suite.store).wrappedValue
        }
        #expect(value == "default")
        #expect(reported.isEmpty)
        UserDefault(wrappedValue: "", "key", store: suite.store).wrappedValue = "written"
        #expect(try suite.flushedObject(forKey: "key") as? String == "written")
    }

    @Test func invalidSuiteNamesAreRefused() {
        #expect(throws: DefaultsError.self) { try DefaultsStore(suiteName: "../escape") }
    }

    @Test func wrappersOfSendableValuesAreSendable() async throws {
        let store = DefaultsStore.inMemory()
        let wrapper = UserDefault(wrappedValue: 0, "sendable", store: store)
        await Task.detached { wrapper.wrappedValue = 3 }.value
        #expect(wrapper.wrappedValue == 3)
    }

    /// The object for `key` in the suite's file as it is on disk now, without flushing.
    private func fileObject(_ key: String, _ suite: TestSuite) throws -> Any? {
        guard let data = FileManager.default.contents(atPath: suite.plistURL.path) else { return nil }
        let root = try PropertyListSerialization.propertyList(from: data, format: nil)
        return (root as? [String: Any])?[key]
    }
}
