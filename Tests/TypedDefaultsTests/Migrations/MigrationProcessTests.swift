import Foundation
import Testing
import TypedDefaults

@testable import DefaultsProbe

/// Migrations across real processes: old formats written by one, migrated in a second, read in
/// a third; two processes migrating at once; a process killed inside a step.
@Suite struct MigrationProcessTests {
    private func expectSuccess(_ result: Probe.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 0, "\(result.errors)", sourceLocation: sourceLocation)
    }

    /// The Migrations article's worked example: release 1's values, migrated by release 3.
    @Test(.tags(.childProcess), .startsProcesses) func anAppsOldReleasesMigrate() async throws {
        let suite = try TestSuite()
        expectSuccess(try await Probe.run("plant-app-v1", suite.name))
        let migrated = try await Probe.run("migrate-app", suite.name)
        expectSuccess(migrated)
        #expect(migrated.output == "version 4\n")
        expectSuccess(try await Probe.run("verify-app", suite.name))
        // Run again by the next launch: nothing changes.
        let before = try suite.fileBytes()
        expectSuccess(try await Probe.run("migrate-app", suite.name))
        #expect(try suite.fileBytes() == before)
    }

    /// Values written as sindresorhus/Defaults, SwiftyUserDefaults, @AppStorage and plain
    /// UserDefaults write them read after the declared steps.
    @Test(.tags(.childProcess), .startsProcesses) func otherLibrariesValuesRead() async throws {
        let suite = try TestSuite()
        expectSuccess(try await Probe.run("plant-foreign", suite.name))
        expectSuccess(try await Probe.run("migrate-foreign", suite.name))
        expectSuccess(try await Probe.run("verify-foreign", suite.name))
    }

    /// Before its step, the one value needing one reads as its default and stays stored; what
    /// Defaults, Foil and SwiftyUserDefaults stored needs none.
    @Test(.tags(.childProcess), .startsProcesses) func otherLibrariesValuesWaitForTheirSteps() async throws {
        let suite = try TestSuite()
        expectSuccess(try await Probe.run("plant-foreign", suite.name))
        let early = try await Probe.run("verify-foreign", suite.name)
        #expect(early.status != 0)
        #expect(early.errors.contains("plain.count: read"), "\(early.errors)")
        for key in ["defaults.theme", "defaults.size", "swifty.layout", "foil.uuid", "plain.frame"] {
            #expect(!early.errors.contains("\(key): read"), "\(early.errors)")
        }
        expectSuccess(try await Probe.run("migrate-foreign", suite.name))
        expectSuccess(try await Probe.run("verify-foreign", suite.name))
    }

    @Test(.plistFilesOnly("the plist file's lock, shared with other processes"), .tags(.childProcess), .startsProcesses)
    func twoProcessesMigratingAtOnceRunTheStepOnce() async throws {
        let suite = try TestSuite()
        let counter = FileManager.default.temporaryDirectory.appendingPathComponent("count-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: counter.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: counter) }
        let (name, path) = (suite.name, counter.path)
        async let first = Probe.run("migrate-counted", name, path)
        async let second = Probe.run("migrate-counted", name, path)
        let results = try await [first, second]
        for result in results {
            expectSuccess(result)
            #expect(result.output.hasSuffix("version 1\n"))
        }
        let runs = try String(contentsOf: counter, encoding: .utf8).split(separator: "\n")
        #expect(runs.count == 1, "\(runs)")
    }

    /// Killed inside a step that had removed every key: the file is as it was, byte for byte,
    /// the lock is free, and the step runs whole at the next launch.
    @Test(.tags(.childProcess), .startsProcesses) func aProcessKilledInsideAStepLeavesTheFileAsItWas() async throws {
        let suite = try TestSuite()
        for index in 0..<50 { suite.plant(index, forKey: "key.\(index)") }
        let before = try #require(try suite.fileBytes())
        let child = try Probe.start("migrate-stall", suite.name)
        #expect(child.waitForLine { $0 == "inside" } != nil)
        let ended = child.end(with: SIGKILL)
        #expect(ended.reason == .uncaughtSignal)
        #expect(FileManager.default.contents(atPath: suite.plistURL.path) == before)

        let store = suite.store
        try store.migrate([.dropKey("key.0")])
        #expect(store.migrationVersion == 1)
        #expect(try suite.flushedObject(forKey: "key.1") as? Int == 1)
        #expect(try suite.flushedObject(forKey: "key.0") == nil)
    }
}
