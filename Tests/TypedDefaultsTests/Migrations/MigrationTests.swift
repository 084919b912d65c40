import Foundation
import Testing
import TypedDefaults
import TypedDefaultsSchema

@testable import DefaultsProbe

enum MigratedTheme: String, DefaultsValueConvertible { case light, dark }

/// Migration steps on one suite, in this process: what each kind does, and that a failing
/// step changes nothing. Other processes, crashes and other libraries' files are in
/// `MigrationProcessTests`.
@Suite struct MigrationTests {
    /// The Migrations article's steps.
    static let articleSteps: [DefaultsMigration] = [
        .renameKey("userName", to: "displayName"),
        .convert("theme", from: Int.self, to: MigratedTheme.self) { $0 == 1 ? MigratedTheme.dark : .light },
        .dropKey("legacyFlag"),
    ]

    @Test func theMigrationsArticlesStepsRunOnceAndRecordTheirVersion() throws {
        let suite = try TestSuite()
        suite.plant("Ada", forKey: "userName")
        suite.plant(1, forKey: "theme")
        suite.plant(true, forKey: "legacyFlag")
        let store = suite.store
        #expect(store.migrationVersion == 0)

        try store.migrate(Self.articleSteps)
        #expect(store.migrationVersion == 3)
        #expect(UserDefault(wrappedValue: "", "displayName", store: store).wrappedValue == "Ada")
        #expect(UserDefault(wrappedValue: MigratedTheme.light, "theme", store: store).wrappedValue == .dark)
        #expect(try suite.flushedObject(forKey: "userName") == nil)
        #expect(try suite.flushedObject(forKey: "legacyFlag") == nil)
        #expect(try suite.flushedObject(forKey: DefaultsStore.migrationVersionKey) as? Int == 3)

        let before = try suite.fileBytes()
        try store.migrate(Self.articleSteps)
        #expect(try suite.fileBytes() == before, "a second run wrote")
        #expect(store.migrationVersion == 3)
    }

    /// A later release appends steps; only those run.
    @Test func aLaterReleaseRunsOnlyItsNewSteps() throws {
        let suite = try TestSuite()
        suite.plant(1, forKey: "theme")
        try suite.store.migrate(Array(Self.articleSteps.prefix(1)))
        #expect(suite.store.migrationVersion == 1)
        let counter = Counter()
        let counted = DefaultsMigration.editStoredValues("count") { _ in counter.increment() }
        try suite.store.migrate(Self.articleSteps + [counted])
        try suite.store.migrate(Self.articleSteps + [counted])
        #expect(suite.store.migrationVersion == 4)
        #expect(counter.value == 1)
    }

    @Test func aFailingStepChangesNoStoredByteAndStopsTheRest() throws {
        let suite = try TestSuite()
        suite.plant("Ada", forKey: "userName")
        suite.plant("not a number", forKey: "theme")
        let before = try suite.fileBytes()
        let (thrown, reported) = ReportedErrors.during {
            #expect(throws: DefaultsError.self) { try suite.store.migrate(Self.articleSteps) }
        }
        guard case .migrationFailed(let version, _, _)? = thrown else {
            Issue.record("expected migrationFailed, got \(String(describing: thrown))")
            return
        }
        #expect(version == 2)
        #expect(reported.count == 1)
        // Step 1 ran and was committed; step 2 failed and wrote nothing; step 3 did not run.
        #expect(suite.store.migrationVersion == 1)
        #expect(try suite.flushedObject(forKey: "displayName") as? String == "Ada")
        #expect(try suite.flushedObject(forKey: "theme") as? String == "not a number")
        #expect(before != nil)
    }

    @Test func aFirstStepThatFailsLeavesTheFileByteForByte() throws {
        let suite = try TestSuite()
        suite.plant("not a number", forKey: "theme")
        suite.plant(true, forKey: "legacyFlag")
        let before = try #require(try suite.fileBytes())
        let steps: [DefaultsMigration] = [
            .editStoredValues("drop, then fail") { values in
                values["legacyFlag"] = nil
                struct Refused: Error {}
                throw Refused()
            }
        ]
        _ = ReportedErrors.during { #expect(throws: DefaultsError.self) { try suite.store.migrate(steps) } }
        #expect(try suite.fileBytes() == before)
        #expect(suite.store.migrationVersion == 0)
    }

    /// An unreadable version leaves which steps ran unknown: none runs, nothing is written.
    @Test func anUnreadableVersionRunsNoStep() throws {
        let suite = try TestSuite()
        suite.plant("three", forKey: DefaultsStore.migrationVersionKey)
        suite.plant("Ada", forKey: "userName")
        let before = try suite.fileBytes()
        let (version, reported) = ReportedErrors.during { suite.store.migrationVersion }
        #expect(version == 0 && reported.count == 1)
        _ = ReportedErrors.during { #expect(throws: DefaultsError.self) { try suite.store.migrate(Self.articleSteps) } }
        #expect(try suite.fileBytes() == before)
    }

    /// An older release installed over a newer one leaves the newer steps' work alone.
    @Test func aSuiteAtALaterVersionIsLeftAlone() throws {
        let suite = try TestSuite()
        suite.plant(5, forKey: DefaultsStore.migrationVersionKey)
        suite.plant("Ada", forKey: "userName")
        let before = try suite.fileBytes()
        try suite.store.migrate(Self.articleSteps)
        #expect(try suite.fileBytes() == before)
        #expect(suite.store.migrationVersion == 5)
    }

    /// A step that updates and flushes the store joins the step's commit; one that migrates the
    /// same store fails at once rather than wait for the lock its own thread holds.
    @Test func aStepThatUsesItsStoreDoesNotDeadlock() throws {
        let suite = try TestSuite()
        let store = suite.store
        let counter = UserDefault(wrappedValue: 0, "counter", store: store)
        let updating = DefaultsMigration.editStoredValues("update and flush") { values in
            counter.update { $0 += 1 }
            try store.flush()
            values["stepRan"] = true
        }
        try store.migrate([updating])
        #expect(counter.wrappedValue == 1)
        #expect(try suite.flushedObject(forKey: "counter") as? Int == 1)
        #expect(try suite.flushedObject(forKey: "stepRan") as? Bool == true)

        let nested = DefaultsMigration.editStoredValues("migrate again") { _ in
            try store.migrate([.dropKey("unused"), .dropKey("counter")])
        }
        let (thrown, _) = ReportedErrors.during {
            #expect(throws: DefaultsError.self) { try store.migrate([updating, nested]) }
        }
        guard case .migrationFailed(2, _, let underlying)? = thrown else {
            Issue.record("expected step 2 to fail, got \(String(describing: thrown))")
            return
        }
        #expect("\(underlying)".contains("inside an update"), "\(underlying)")
        #expect(store.migrationVersion == 1)
    }

    /// A dry run writes nothing, not even this process's writes waiting to be flushed.
    @Test(.plistFilesOnly("a `UserDefaults` object takes each write at once: only the plist files hold writes back"))
    func aDryRunLeavesPendingWritesPending() throws {
        let suite = try TestSuite()
        suite.plant("Ada", forKey: "userName")
        let before = try #require(try suite.fileBytes())
        let slow = suite.store.durability(.coalesced(within: .seconds(3600)))
        UserDefault(wrappedValue: 0, "pending", store: slow).wrappedValue = 5
        let reports = try suite.store.pendingMigrations(Self.articleSteps)
        #expect(reports.count == 3)
        #expect(FileManager.default.contents(atPath: suite.plistURL.path) == before)
        #expect(try suite.flushedObject(forKey: "pending") as? Int == 5)
    }

    /// A value still in its old format reads as the default, reported, until its step runs.
    @Test func readingBeforeMigratingDestroysNothing() throws {
        let suite = try TestSuite()
        suite.plant(1, forKey: "theme")
        let theme = UserDefault(wrappedValue: MigratedTheme.light, "theme", store: suite.store)
        let (value, reported) = ReportedErrors.during { theme.wrappedValue }
        #expect(value == .light)
        #expect(reported.count == 1)
        try suite.store.migrate(Self.articleSteps)
        #expect(theme.wrappedValue == .dark)
    }

    /// A release that wrote the new type before the step ran keeps it.
    @Test func aValueAlreadyConvertedIsKept() throws {
        let suite = try TestSuite()
        suite.plant("dark", forKey: "theme")
        suite.plant("Grace", forKey: "displayName")
        suite.plant("Ada", forKey: "userName")
        try suite.store.migrate(Self.articleSteps)
        #expect(try suite.flushedObject(forKey: "theme") as? String == "dark")
        #expect(try suite.flushedObject(forKey: "displayName") as? String == "Grace", "the newer value stays")
        #expect(try suite.flushedObject(forKey: "userName") == nil)
    }

    struct LayoutV1: Decodable, Sendable { var size: Int }
    struct LayoutV2: Codable, Equatable, DefaultsValueConvertible { var width, height: Int }

    @Test func aCodableValueEvolves() throws {
        let suite = try TestSuite()
        suite.plant(#"{"size":3}"#, forKey: "layout")
        suite.plant(Data(#"{"size":4}"#.utf8), forKey: "swiftyLayout")
        let steps: [DefaultsMigration] = [
            .evolve("layout", from: LayoutV1.self, to: LayoutV2.self) { LayoutV2(width: $0.size, height: $0.size) },
            .evolve("swiftyLayout", from: LayoutV1.self, to: LayoutV2.self) { LayoutV2(width: $0.size, height: 1) },
        ]
        try suite.store.migrate(steps)
        let fallback = LayoutV2(width: 0, height: 0)
        #expect(
            UserDefault(wrappedValue: fallback, "layout", store: suite.store).wrappedValue
                == LayoutV2(width: 3, height: 3))
        #expect(
            UserDefault(wrappedValue: fallback, "swiftyLayout", store: suite.store).wrappedValue
                == LayoutV2(width: 4, height: 1))
    }

    @Test func aCodableStepRefusesJSONOfAnotherShape() throws {
        let suite = try TestSuite()
        suite.plant(#"{"length":3}"#, forKey: "layout")
        let before = try suite.fileBytes()
        let step = DefaultsMigration.evolve("layout", from: LayoutV1.self, to: LayoutV2.self) {
            LayoutV2(width: $0.size, height: $0.size)
        }
        _ = ReportedErrors.during { #expect(throws: DefaultsError.self) { try suite.store.migrate([step]) } }
        #expect(try suite.fileBytes() == before)
    }

    @Test func aKeyMovesToAnotherSuite() throws {
        let suite = try TestSuite()
        let shared = try TestSuite("shared")
        suite.plant(42, forKey: "count")
        try suite.store.migrate([.moveKey("count", to: shared.store, as: "sharedCount")])
        #expect(try suite.flushedObject(forKey: "count") == nil)
        #expect(try shared.flushedObject(forKey: "sharedCount") as? Int == 42)
        #expect(UserDefault(wrappedValue: 0, "sharedCount", store: shared.store).wrappedValue == 42)
    }

    /// A destination that cannot be read fails the move; the source keeps every byte.
    @Test(
        .plistFilesOnly(
            "a plist file that does not parse: corelibs `UserDefaults` reads it as empty, and writes over it"))
    func aMoveToAnUnreadableSuiteChangesNothing() throws {
        let suite = try TestSuite()
        let shared = try TestSuite("unreadable")
        suite.plant(42, forKey: "count")
        let before = try suite.fileBytes()
        try FileManager.default.createDirectory(at: shared.plistURL, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: shared.plistURL) }
        let (thrown, _) = ReportedErrors.during {
            #expect(throws: DefaultsError.self) { try suite.store.migrate([.moveKey("count", to: shared.store)]) }
        }
        guard case .migrationFailed(1, _, let underlying)? = thrown, case .readFailed? = underlying as? DefaultsError
        else {
            Issue.record("expected a failed move, got \(String(describing: thrown))")
            return
        }
        #expect(try suite.fileBytes() == before)
        #expect(suite.store.migrationVersion == 0)
    }

    @Test func aStepOfYourOwnSeesEveryKeyAndStoresWhatItChanged() throws {
        let suite = try TestSuite()
        suite.plant([1.0, 2.0, 3.0, 4.0], forKey: "frame")
        let split = DefaultsMigration.editStoredValues("split the frame") { values in
            #expect(values.keys.contains("frame"))
            guard case .array(let frame) = values["frame"], frame.count == 4 else { return }
            values["origin"] = ["x": frame[0], "y": frame[1]]
            values["size"] = ["width": frame[2], "height": frame[3]]
            values["frame"] = nil
        }
        try suite.store.migrate([split])
        #expect(
            UserDefault(wrappedValue: CGPoint.zero, "origin", store: suite.store).wrappedValue == CGPoint(x: 1, y: 2))
        #expect(try suite.flushedObject(forKey: "frame") == nil)

        let before = try suite.fileBytes()
        let refused = DefaultsMigration.editStoredValues("change, then fail") { values in
            values["origin"] = nil
            throw CocoaError(.fileWriteUnknown)
        }
        _ = ReportedErrors.during { #expect(throws: DefaultsError.self) { try suite.store.migrate([split, refused]) } }
        #expect(try suite.fileBytes() == before)
    }

    @Test func aDryRunReportsAndWritesNothing() throws {
        let suite = try TestSuite()
        suite.plant("Ada", forKey: "userName")
        suite.plant(1, forKey: "theme")
        let before = try suite.fileBytes()
        let reports = try suite.store.pendingMigrations(Self.articleSteps)
        #expect(reports.map(\.version) == [1, 2, 3])
        #expect(reports[0].changes.map(\.key) == ["displayName", "userName"])
        #expect(reports[0].changes[0].newValue == #"String "Ada""#)
        #expect(reports[1].changes.map(\.description) == [#"theme: integer 1 → String "dark""#])
        #expect(reports[2].changes.isEmpty)
        #expect(try suite.fileBytes() == before)
        #expect(suite.store.migrationVersion == 0)

        suite.plant("x", forKey: "theme")
        let failing = try suite.store.pendingMigrations(Self.articleSteps)
        #expect(failing.count == 2)
        #expect(failing[1].error != nil)
    }

    @Test func anInMemoryStoreMigrates() throws {
        let store = DefaultsStore.inMemory()
        UserDefault(wrappedValue: "", "userName", store: store).wrappedValue = "Ada"
        UserDefault(wrappedValue: 0, "theme", store: store).wrappedValue = 1
        let observed = Collected<String>()
        let observation = store.observe(keys: ["displayName"]) { observed.append($0.key) }
        try store.migrate(Self.articleSteps)
        #expect(store.migrationVersion == 3)
        #expect(UserDefault(wrappedValue: "", "displayName", store: store).wrappedValue == "Ada")
        #expect(UserDefault(wrappedValue: MigratedTheme.light, "theme", store: store).wrappedValue == .dark)
        #expect(observed.wait(for: 1) == ["displayName"])
        observation.cancel()
    }

    /// sindresorhus/Defaults stores a URL as a quoted JSON string: it reads as the URL.
    @Test func aURLStoredAsAJSONStringReads() throws {
        let suite = try TestSuite()
        suite.plant(#""https://swift.org/a?b#c""#, forKey: "homepage")
        let homepage = UserDefault(wrappedValue: URL(fileURLWithPath: "/"), "homepage", store: suite.store)
        #expect(homepage.wrappedValue == URL(string: "https://swift.org/a?b#c"))
    }
}
