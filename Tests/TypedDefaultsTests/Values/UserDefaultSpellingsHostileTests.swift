import Foundation
import Testing
import TypedDefaultsTestSupport

@testable import TypedDefaults

/// juliand665/UserDefault's spellings on stored data they did not write: a value of another
/// type, a file that does not parse, another program's writes, odd keys, many tasks. Each read
/// gives the default, says it failed, reports a typed error and leaves the bytes as they were.
@Suite struct UserDefaultSpellingsHostileTests {
    @Test func aValueOfAnotherTypeIsNotLoadedAndStaysStored() throws {
        let suite = try TestSuite()
        suite.plant("many", forKey: "count")
        let before = try suite.fileBytes()
        let count = UserDefault(wrappedValue: 4, "count", defaults: suite.defaults)
        let (seen, reported) = ReportedErrors.during {
            (count.wasLoadedSuccessfully, count.wrappedValue, count.wasLoadedSuccessfully, count.wrappedValue)
        }
        #expect(seen == (false, 4, false, 4))
        #expect(reported.count == 1, "\(reported)")
        guard case .typeMismatch("count", _, _)? = reported.first else {
            Issue.record("expected .typeMismatch, got \(reported)")
            return
        }
        #expect(throws: DefaultsError.self) { try Int(from: suite.defaults, forKey: "count") }
        count.loadValue()
        #expect(try suite.fileBytes() == before, "stored data changed")
        #expect(suite.defaults.object(forKey: "count") as? String == "many")
    }

    @Test(.plistFilesOnly("`UserDefaults` reads a file that does not parse as an empty suite, and says nothing"))
    func aFileThatDoesNotParseIsNotLoadedAndIsKeptAside() throws {
        let suite = try TestSuite()
        try FileManager.default.createDirectory(
            at: suite.plistURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        let garbage = Data("<?xml version=\"1.0\"?><plist><dict><key>count</key><integer>".utf8)
        try writeAtRest(garbage, to: suite.plistURL)
        let count = UserDefault(wrappedValue: 4, "count", defaults: suite.defaults)
        let (seen, reported) = ReportedErrors.during {
            (count.wasLoadedSuccessfully, count.wrappedValue, count.wrappedValue)
        }
        #expect(seen == (false, 4, 4))
        #expect(reported.count == 1, "\(reported)")
        guard case .corruptFile(_, let preservedAt?, _)? = reported.first else {
            Issue.record("expected .corruptFile, got \(reported)")
            return
        }
        #expect(FileManager.default.contents(atPath: preservedAt) == garbage, "the file aside keeps every byte")
        // The suite started empty, as the error says: nothing is stored under the key.
        let thrown = #expect(throws: DefaultsError.self) { try Int(from: suite.defaults, forKey: "count") }
        guard case .missingValue("count")? = thrown else {
            Issue.record("expected .missingValue, got \(String(describing: thrown))")
            return
        }
    }

    @Test func jsonThatDoesNotParseIsNotLoadedAndStaysStored() throws {
        let suite = try TestSuite()
        suite.plant("{\"name\": ", forKey: "profile")
        let before = try suite.fileBytes()
        let profile = UserDefault(wrappedValue: Profile(name: "Ada"), "profile", defaults: suite.defaults)
        let (seen, reported) = ReportedErrors.during { (profile.wasLoadedSuccessfully, profile.wrappedValue) }
        #expect(seen == (false, Profile(name: "Ada")))
        #expect(reported.count == 1 && reported.allSatisfy(isCorrupt), "\(reported)")
        #expect(try suite.fileBytes() == before, "stored data changed")
    }

    @Test(
        .plistFilesOnly("`UserDefaults` does not tell of other processes' writes (Apple's neither)"),
        .tags(.childProcess), .startsProcesses)
    func anotherProgramsWritesAreLoadedOrReportedAndKept() async throws {
        let suite = try TestSuite()
        let volume = UserDefault(wrappedValue: 5, "volume", defaults: suite.defaults)
        volume.wrappedValue = 8
        try suite.store.flush()
        #expect(try await Probe.run("plainSet", suite.name, "volume", "11").status == 0)
        volume.loadValue()
        #expect(volume.wrappedValue == 11, "loadValue() takes in the other program's write at once")
        volume.saveValue()
        #expect(try suite.flushedObject(forKey: "volume") as? Int == 11, "saveValue() stores what a read shows")
        // A value of another type from another program: reported, the default shown, and kept.
        #expect(try await Probe.run("plainSet", suite.name, "volume", "\"loud\"").status == 0)
        volume.loadValue()
        let (seen, reported) = ReportedErrors.during { (volume.wasLoadedSuccessfully, volume.wrappedValue) }
        #expect(seen == (false, 5))
        #expect(reported.count == 1, "\(reported)")
        #expect(reported.allSatisfy { if case .typeMismatch("volume", _, _) = $0 { true } else { false } })
        #expect(try suite.flushedObject(forKey: "volume") as? String == "loud", "the other program's value stays")
        // Another program's set of numbers, duplicates and all, reads as a set and stays as written.
        #expect(try await Probe.run("plainSet", suite.name, "ids", "[3, 1, 3, 3]").status == 0)
        let ids = UserDefault(wrappedValue: Set<Int>(), "ids", defaults: suite.defaults)
        ids.loadValue()
        #expect(ids.wasLoadedSuccessfully)
        #expect(ids.wrappedValue == [1, 3])
        #expect(suite.store.storedValue(forKey: "ids") == [3, 1, 3, 3], "a read rewrote the stored array")
    }

    /// juliand665/UserDefault's `loadValue()` reads the `UserDefaults` object, so a plain `set`
    /// through it shows at once; corelibs keeps such a write in memory until `synchronize()`.
    @Test func loadValueTakesInAPlainWriteNotYetSynchronized() throws {
        let suite = try TestSuite()
        // The store's write must still be pending when the plain write lands: with the default
        // 100 ms window, a loaded machine's flush could commit it first, and then it is the
        // later write. The flush is put off past the test.
        let store = suite.store.durability(.coalesced(within: .seconds(3600)))
        let theme = UserDefault(wrappedValue: "system", "theme", store: store)
        theme.wrappedValue = "dark"
        theme.defaults.set("light", forKey: "theme")
        theme.loadValue()
        #expect(theme.wrappedValue == "light", "the plain write came after this store's, not yet flushed")
        try suite.store.flush()
        suite.defaults.set("sepia", forKey: "theme")
        theme.loadValue()
        #expect(theme.wrappedValue == "sepia", "and after a flush")
        try suite.store.flush()
        #expect(
            try suite.fileBytes().map { try PropertyListSerialization.propertyList(from: $0, format: nil) }
                .flatMap { $0 as? [String: Any] }?["theme"] as? String == "sepia")
    }

    @Test func clearThenReadGivesTheDefaultEveryTime() throws {
        let suite = try TestSuite()
        let name = UserDefault(wrappedValue: "guest", "name", defaults: suite.defaults)
        let nickname = UserDefault<String?>("name", defaults: suite.defaults)
        name.clear()
        #expect(!name.wasLoadedSuccessfully && name.wrappedValue == "guest")
        name.wrappedValue = "Bo"
        #expect(nickname.wrappedValue == "Bo", "a second wrapper on the key sees the write at once")
        nickname.clear()
        #expect(!name.wasLoadedSuccessfully && name.wrappedValue == "guest")
        #expect(nickname.wrappedValue == nil)
        #expect(try suite.flushedObject(forKey: "name") == nil)
        nickname.saveValue()  // nil: nothing to store
        #expect(!name.hasStoredValue)
        name.saveValue()
        #expect(nickname.wrappedValue == "guest")
    }

    @Test func aWrapperOnTheStandardSuiteDoesNotSeeANamedSuite() throws {
        let suite = try TestSuite()
        let key = "typeddefaults-tests.\(UUID().uuidString)"
        let named = UserDefault(wrappedValue: 1, key, defaults: suite.defaults)
        let standard = UserDefault(wrappedValue: 1, key, defaults: .standard)
        named.wrappedValue = 2
        #expect(standard.wrappedValue == 1 && !standard.wasLoadedSuccessfully)
        #expect(UserDefault(wrappedValue: 1, key).wrappedValue == 1)
    }

    @Test(arguments: ["", "a.b", "a/b", "a\u{0}b", "caf\u{E9}", String(repeating: "k", count: 10_000)])
    func anOddKeyIsStoredAsWrittenAndReadBack(key: String) throws {
        let suite = try TestSuite()
        let value = UserDefault(wrappedValue: 0, key, defaults: suite.defaults)
        #expect(!value.wasLoadedSuccessfully)
        let (_, reported) = ReportedErrors.during { value.wrappedValue = 7 }
        #expect(reported.isEmpty, "\(reported)")
        #expect(value.wasLoadedSuccessfully && value.wrappedValue == 7)
        #expect(try Int(from: suite.defaults, forKey: key) == 7)
        #expect(try suite.flushedObject(forKey: key) as? Int == 7)
        #expect(!UserDefault(wrappedValue: 0, key + "x", defaults: suite.defaults).wasLoadedSuccessfully)
        value.clear()
        #expect(try suite.flushedObject(forKey: key) == nil)
    }

    @Test func aCollectionIsGivenTheStoredElementsAsTheyAre() throws {
        let suite = try TestSuite()
        suite.plant(["b", "a", "b", ""], forKey: "tags")
        suite.plant([1, "x"] as [Any], forKey: "ids")
        let before = try suite.fileBytes()
        let tags = UserDefault(wrappedValue: Sorted(array: []), "tags", defaults: suite.defaults)
        #expect(tags.wasLoadedSuccessfully)
        #expect(tags.wrappedValue.given == ["b", "a", "b", ""])
        #expect(tags.wrappedValue.items == ["", "a", "b"])
        #expect(try [String](from: suite.defaults, forKey: "tags") == ["b", "a", "b", ""])
        #expect(try suite.fileBytes() == before, "a read rewrote the stored array")
        let ids = UserDefault(wrappedValue: Set([9]), "ids", defaults: suite.defaults)
        let (seen, reported) = ReportedErrors.during { (ids.wasLoadedSuccessfully, ids.wrappedValue) }
        #expect(seen == (false, [9]))
        #expect(reported.count == 1, "\(reported)")
    }

    @Test func manyTasksOnOneKeySeeOnlyWholeValues() async throws {
        let suite = try TestSuite()
        let words = UserDefault(wrappedValue: ["none"], "words", defaults: suite.defaults)
        let written = (0..<8).map { task in (0..<5).map { "\(task)-\($0)" } }
        // A wrapper of its own for each task, on the same key of the same `UserDefaults`.
        let wrappers = written.map { _ in UserDefault(wrappedValue: ["none"], "words", defaults: suite.defaults) }
        let (torn, reported) = await ReportedErrors.whileAwaiting {
            await withTaskGroup(of: Int.self) { group in
                for (words, wrapper) in zip(written, wrappers) {
                    group.addTask {
                        var torn = 0
                        for round in 0..<200 {
                            switch round % 4 {
                            case 0: wrapper.wrappedValue = words
                            case 1: wrapper.saveValue()
                            case 2: wrapper.clear()
                            default: wrapper.loadValue()
                            }
                            let seen = wrapper.wrappedValue
                            if seen != ["none"] && !written.contains(seen) { torn += 1 }
                        }
                        return torn
                    }
                }
                return await group.reduce(0, +)
            }
        }
        #expect(torn == 0)
        #expect(reported.isEmpty, "\(reported)")
        words.wrappedValue = ["last"]
        #expect(try suite.flushedObject(forKey: "words") as? [String] == ["last"])
    }
}

private struct Profile: Codable, Equatable, DefaultsValueConvertible {
    var name: String
}

/// A collection that keeps what it was given and sorts it, as one written for juliand665's
/// `ExpressibleBySequence` might.
private struct Sorted: Equatable, ExpressibleBySequence, DefaultsValueConvertible {
    var given: [String]
    var items: [String] { Array(Set(given)).sorted() }
    init<S: Sequence>(_ elements: S) where S.Element == String { given = Array(elements) }
    func makeIterator() -> IndexingIterator<[String]> { given.makeIterator() }
}

/// `defaults: .standard` is the standard store's suite, as `UserDefault("key")` is in
/// juliand665/UserDefault: on copies of the stores, so that `.standard` is never written.
@Suite(.isolatedDefaults) struct UserDefaultSpellingsOnTheStandardSuiteTests {
    @Test func aWrapperOnUserDefaultsStandardIsOneOnTheStandardStore() throws {
        let spelled = UserDefault(wrappedValue: 1, "spellings.launches", defaults: .standard)
        let plain = UserDefault(wrappedValue: 1, "spellings.launches")
        #expect(!spelled.wasLoadedSuccessfully)
        spelled.wrappedValue = 2
        #expect(plain.wrappedValue == 2 && plain.hasStoredValue)
        #expect(try Int(from: .standard, forKey: "spellings.launches") == 2)
        3.save(to: .standard, forKey: "spellings.launches")
        #expect(plain.wrappedValue == 3)
        spelled.loadValue()
        #expect(spelled.wrappedValue == 3, "a refresh keeps the test's copy")
        plain.reset()
        #expect(!spelled.wasLoadedSuccessfully && spelled.wrappedValue == 1)
    }
}
