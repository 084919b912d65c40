import Foundation
import Testing

@testable import TypedDefaults
@testable import TypedDefaultsStorage

/// A suite never grows past its store's size limit: a write that would is refused as it is made,
/// leaving the value and the file as they were, as Apple platforms would drop it on a device.
@Suite struct SizeLimitTests {
    /// The size limit's unit, the suite as a binary property list, estimated on the high side:
    /// never below what a binary writer makes of it, and not far above for the large values that
    /// bring a suite near a limit.
    @Test func theEstimateIsNeverBelowABinaryPropertyListOfTheSuite() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<40 {
            var contents: [String: Any] = [:]
            for index in 0..<Int.random(in: 0...60, using: &generator) {
                let key = "key\(index)" + (index % 7 == 0 ? "é" : "")
                switch Int.random(in: 0..<9, using: &generator) {
                case 0: contents[key] = Int.random(in: Int.min...Int.max, using: &generator)
                case 1: contents[key] = Int.random(in: 0...300, using: &generator)
                case 2: contents[key] = Double.random(in: -1e9...1e9, using: &generator)
                case 3: contents[key] = Bool.random(using: &generator)
                case 4: contents[key] = String(repeating: "a", count: Int.random(in: 0...3000, using: &generator))
                case 5: contents[key] = String(repeating: "ü", count: Int.random(in: 0...300, using: &generator))
                case 6: contents[key] = Data(count: Int.random(in: 0...70_000, using: &generator))
                case 7: contents[key] = Date(timeIntervalSinceReferenceDate: Double(round))
                default: contents[key] = ["a": [1, "two", Data(count: 20)], "b": [String](repeating: "x", count: 20)]
                }
            }
            let written = try PropertyListSerialization.data(fromPropertyList: contents, format: .binary, options: 0)
            var stored: [DefaultsStoredKey: StoredObject] = [:]
            for (key, value) in contents { stored[DefaultsStoredKey(key)] = StoredObject(value) }
            let estimate = StoredObject.suiteSize(stored)
            #expect(estimate >= written.count, "round \(round): \(estimate) estimated, \(written.count) written")
            if written.count > 100_000 {
                #expect(
                    Double(estimate) < Double(written.count) * 1.1, "round \(round): \(estimate) for \(written.count)")
            }
        }
    }

    /// One string or data held many times in a value (as a reader shares an object a file
    /// refers to often) is counted once, as a binary writer writes it: a file of 35 KB is not
    /// taken for 64 MB, and counting it does not read 64 MB.
    @Test func aValueSharedManyTimesInOneValueIsCountedOnce() throws {
        let text = String(repeating: "x", count: 8000)
        let blob = Data(repeating: 7, count: 8000)
        let contents: [String: Any] = [
            "strings": [String](repeating: text, count: 4000), "datas": [Data](repeating: blob, count: 4000),
        ]
        var stored: [DefaultsStoredKey: StoredObject] = [:]
        for (key, value) in contents { stored[DefaultsStoredKey(key)] = StoredObject(value) }
        // The engine's writer writes an equal string or data once (corelibs
        // Foundation's writes every copy: 64 MB).
        let written = try BinaryPropertyList.data(stored)
        let estimate = StoredObject.suiteSize(stored)
        #expect(estimate >= written.count && estimate < 100_000, "\(estimate) estimated, \(written.count) written")
    }

    @Test func aWritePastTheLimitIsRefusedAndChangesNeitherTheValueNorTheFile() throws {
        let suite = try TestSuite()
        let store = suite.store.sizeLimit(.bytes(4000)).durability(.immediate)
        let note = UserDefault(wrappedValue: "", "note", store: store)
        let blob = UserDefault(wrappedValue: Data(), "blob", store: store)
        note.wrappedValue = String(repeating: "n", count: 100)
        blob.wrappedValue = Data(count: 1000)
        let before = try suite.fileBytes()

        let (_, reported) = ReportedErrors.during { blob.wrappedValue = Data(count: 5000) }
        guard case .sizeLimitExceeded(let key, let path, let size, let limit)? = reported.first, reported.count == 1
        else {
            Issue.record("expected one .sizeLimitExceeded, got \(reported)")
            return
        }
        #expect(key == "blob" && limit == 4000 && size > 5000)
        if suitesAreFiles { #expect(path == suite.plistURL.path) }
        #expect(blob.wrappedValue == Data(count: 1000), "the value is as it was")
        #expect(try suite.fileBytes() == before, "the file is as it was")
        #expect("\(reported[0])".contains("nothing was written"))

        // A write that fits is made, and the refused one left nothing pending behind it.
        note.wrappedValue = "short"
        #expect(note.wrappedValue == "short")
        #expect(try suite.flushedObject(forKey: "blob") as? Data == Data(count: 1000))
    }

    @Test func everyStoreHasTheLimitOfIOSAndMacOSUnlessGivenAnother() throws {
        #expect(DefaultsSizeLimit.platformDefault == .iOS)
        #expect(DefaultsSizeLimit.iOS.bytes == 4_194_303)
        let store = DefaultsStore.inMemory()
        let blob = UserDefault(wrappedValue: Data(), "blob", store: store)
        let (_, fits) = ReportedErrors.during { blob.wrappedValue = Data(count: 4_194_000) }
        #expect(blob.wrappedValue.count == 4_194_000)
        #expect(fits.count == 1, "past the warning mark at half the limit: \(fits)")
        if case .nearingSizeLimit(_, _, let limit)? = fits.first { #expect(limit == 4_194_303) }

        let (_, refused) = ReportedErrors.during { blob.wrappedValue = Data(count: 4_194_304) }
        guard case .sizeLimitExceeded(_, _, _, 4_194_303)? = refused.first else {
            Issue.record("expected .sizeLimitExceeded, got \(refused)")
            return
        }
        #expect(blob.wrappedValue.count == 4_194_000)

        // `.none` lifts it, for this store only.
        let unlimited = UserDefault(wrappedValue: Data(), "blob", store: store.sizeLimit(.none))
        let (_, none) = ReportedErrors.during { unlimited.wrappedValue = Data(count: 4_300_000) }
        #expect(none.isEmpty && blob.wrappedValue.count == 4_300_000)
    }

    @Test func theWarningIsReportedOnceEachTimeTheSuiteGrowsPastTheMark() throws {
        let store = DefaultsStore.inMemory().sizeLimit(.bytes(10_000, warningAt: 5_000))
        let blob = UserDefault(wrappedValue: Data(), "blob", store: store)
        let (_, reported) = ReportedErrors.during {
            blob.wrappedValue = Data(count: 4000)
            blob.wrappedValue = Data(count: 6000)  // crosses
            blob.wrappedValue = Data(count: 7000)
            blob.wrappedValue = Data(count: 1000)
            blob.wrappedValue = Data(count: 8000)  // crosses again
        }
        #expect(reported.count == 2, "\(reported)")
        #expect(reported.allSatisfy { if case .nearingSizeLimit = $0 { true } else { false } })
        #expect(blob.wrappedValue.count == 8000)
    }

    /// Another program left the suite past the limit: what grows it is refused, what makes it
    /// smaller is made, so it can always be cleaned up.
    @Test(.plistFilesOnly("another program's file")) func aSuiteAlreadyPastTheLimitCanShrinkButNotGrow() throws {
        let suite = try TestSuite()
        let file: [String: Any] = ["big": Data(count: 20_000), "small": "x"]
        try FileManager.default.createDirectory(
            at: suite.plistURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try PropertyListSerialization.data(fromPropertyList: file, format: .xml, options: 0).write(to: suite.plistURL)
        let store = suite.store.sizeLimit(.bytes(10_000))
        let small = UserDefault(wrappedValue: "", "small", store: store)
        let big = UserDefault(wrappedValue: Data(), "big", store: store)

        let (_, grown) = ReportedErrors.during { small.wrappedValue = "longer" }
        #expect(grown.count == 1 && small.wrappedValue == "x")
        let (_, shrunk) = ReportedErrors.during { big.wrappedValue = Data(count: 19_000) }
        #expect(shrunk.isEmpty && big.wrappedValue.count == 19_000)
        let (_, removed) = ReportedErrors.during { big.reset() }
        #expect(removed.isEmpty && big.wrappedValue.isEmpty)
        small.wrappedValue = "longer"
        #expect(small.wrappedValue == "longer")
    }

    /// Another process's commit changes the suite's size: a write after it counts the suite as
    /// the file now holds it. Under every storage: a defect where suites are kept through
    /// `UserDefaults` (refreshed key by key, only keys this process holds slots for, so a key
    /// another writer added is never counted), shown with `TYPEDDEFAULTS_SUITE_STORAGE=userdefaults`.
    @Test func anotherWritersGrowthCountsAfterARefresh() throws {
        let suite = try TestSuite()
        let store = suite.store.sizeLimit(.bytes(10_000)).durability(.immediate)
        let note = UserDefault(wrappedValue: "", "note", store: store)
        note.wrappedValue = "first"
        suite.plant(Data(count: 9_800), forKey: "outside")
        store.refresh()
        let (_, reported) = ReportedErrors.during { note.wrappedValue = String(repeating: "n", count: 500) }
        #expect(reported.count == 1 && note.wrappedValue == "first", "\(reported)")
    }

    @Test func anEditPastTheLimitThrowsAndWritesNothing() throws {
        let suite = try TestSuite()
        let store = suite.store.sizeLimit(.bytes(4000))
        try store.editStoredValues { $0["kept"] = .string("yes") }
        let before = try suite.fileBytes()
        do {
            try store.editStoredValues { values in
                values["small"] = .integer(1)
                values["blob"] = .data(Data(count: 5000))
            }
            Issue.record("the edit was made")
        } catch let error as DefaultsError {
            guard case .sizeLimitExceeded(let key, _, _, 4000) = error else {
                Issue.record("expected .sizeLimitExceeded, got \(error)")
                return
            }
            #expect(key == "blob", "the key that grew the suite most")
        }
        #expect(try suite.fileBytes() == before)
        #expect(store.storedValue(forKey: "small") == nil)
    }

    /// A migration step that would take the suite past the limit fails as a step that throws
    /// does: nothing of it written, the suite left at the version before.
    @Test func aMigrationStepPastTheLimitFailsAndWritesNothing() throws {
        let suite = try TestSuite()
        let store = suite.store.sizeLimit(.bytes(4000))
        let steps: [DefaultsMigration] = [
            .editStoredValues("small") { $0["note"] = .string("kept") },
            .editStoredValues("large") { $0["blob"] = .data(Data(count: 5000)) },
        ]
        let (thrown, _) = ReportedErrors.during {
            #expect(throws: DefaultsError.self) { try store.migrate(steps) }
        }
        guard case .migrationFailed(2, _, let underlying)? = thrown,
            case .sizeLimitExceeded? = underlying as? DefaultsError
        else {
            Issue.record("expected step 2 to fail past the limit, got \(String(describing: thrown))")
            return
        }
        #expect(store.migrationVersion == 1)
        #expect(store.storedValue(forKey: "blob") == nil && store.storedValue(forKey: "note") == .string("kept"))
    }

    @Test func anUpdatePastTheLimitStoresNothing() throws {
        let suite = try TestSuite()
        let store = suite.store.sizeLimit(.bytes(4000))
        let blob = UserDefault(wrappedValue: Data(), "blob", store: store)
        blob.wrappedValue = Data(count: 10)
        let (_, reported) = ReportedErrors.during { blob.update { $0 = Data(count: 5000) } }
        guard case .sizeLimitExceeded("blob", _, _, 4000)? = reported.first else {
            Issue.record("expected .sizeLimitExceeded, got \(reported)")
            return
        }
        #expect(blob.wrappedValue.count == 10)
        #expect(try suite.flushedObject(forKey: "blob") as? Data == Data(count: 10))
        store.update(DefaultsKey<Data>("blob", default: Data())) { $0 = Data(count: 100) }
        #expect(blob.wrappedValue.count == 100)
    }

    @Test func aWriteThroughATypedKeyIsRefusedToo() throws {
        let store = DefaultsStore.inMemory().sizeLimit(.bytes(1000))
        let key = DefaultsKey<String>("text", default: "")
        let (_, reported) = ReportedErrors.during { store[key] = String(repeating: "t", count: 2000) }
        #expect(reported.count == 1 && store[key] == "")
    }
}
