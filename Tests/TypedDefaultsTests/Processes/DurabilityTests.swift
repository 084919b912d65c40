import Foundation
import Testing
import TypedDefaults

/// What survives the end of a process, shown with real child processes and read back from
/// the suite's file itself.
@Suite(
    .plistFilesOnly(
        "the plist files' durability, and merging other processes' writes: corelibs UserDefaults loses them (Apple's merges them through cfprefsd)"
    )) struct DurabilityTests
{
    /// The suite's file, parsed; fails the test if it does not parse.
    func contents(of suite: TestSuite) throws -> [String: Any] {
        let data = try #require(FileManager.default.contents(atPath: suite.plistURL.path))
        let root = try PropertyListSerialization.propertyList(from: data, format: nil)
        // Copied into a native dictionary once: lookups in the bridged one are slow on Linux.
        let entries = try #require(root as? [String: Any])
        return Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.value) })
    }

    func expectNumbered(_ contents: [String: Any], prefix: String, count: Int) {
        let missing = (0..<count).filter { (contents["\(prefix).\($0)"] as? Int) != $0 }
        #expect(missing.isEmpty, "\(missing.count) of \(count) missing, first \(missing.prefix(5))")
    }

    @Test(.tags(.childProcess), .startsProcesses) func tenThousandWritesThenNormalExit() async throws {
        let suite = try TestSuite()
        let run = try await Probe.run("burst", suite.name, "10000")
        #expect(run.status == 0, "\(run.errors)")
        expectNumbered(try contents(of: suite), prefix: "burst", count: 10_000)
    }

    @Test(.tags(.childProcess), .startsProcesses) func sigtermWithTheHelperFlushesAndKeepsTheStatus() throws {
        let suite = try TestSuite()
        let child = try Probe.start("hold", suite.name, "10000")
        #expect(child.waitForLine { $0 == "ready" } != nil)
        let ending = child.end(with: SIGTERM)
        #expect(ending.reason == .uncaughtSignal)
        #expect(ending.status == SIGTERM)
        expectNumbered(try contents(of: suite), prefix: "held", count: 10_000)
    }

    // The control: without the helper, SIGTERM's default action skips the exit flush.
    @Test(.tags(.childProcess), .startsProcesses) func sigtermWithoutTheHelperLosesUnflushedWrites() throws {
        let suite = try TestSuite()
        let child = try Probe.start("holdWithoutHelper", suite.name, "100")
        #expect(child.waitForLine { $0 == "ready" } != nil)
        let ending = child.end(with: SIGTERM)
        #expect(ending.reason == .uncaughtSignal && ending.status == SIGTERM)
        #expect(!FileManager.default.fileExists(atPath: suite.plistURL.path))
    }

    @Test(.tags(.childProcess), .startsProcesses) func sigkillMidStreamLeavesAParsableFileWithAPrefix() throws {
        let suite = try TestSuite()
        let child = try Probe.start("stream", suite.name)
        func progress(_ line: String) -> Int { line.split(separator: " ").last.flatMap { Int($0) } ?? 0 }
        // Kill it mid-stream: after its file has been written at least once, and while it writes on.
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: suite.plistURL.path), Date() < deadline {
            usleep(5_000)
        }
        let seen = child.waitForLine { _ in true }.map(progress) ?? 0
        #expect(child.waitForLine { progress($0) > seen } != nil)
        let ending = child.end(with: SIGKILL)
        #expect(ending.reason == .uncaughtSignal)
        let stored = try contents(of: suite)
        #expect(stored.count > 0)
        expectNumbered(stored, prefix: "stream", count: stored.count)
    }

    @Test(.tags(.childProcess), .startsProcesses) func twoProcessesWritingAtOnceLoseNothing() throws {
        let suite = try TestSuite()
        let first = try Probe.start("burst", suite.name, "1000", "first")
        let second = try Probe.start("burst", suite.name, "1000", "second")
        first.process.waitUntilExit()
        second.process.waitUntilExit()
        #expect(first.process.terminationStatus == 0 && second.process.terminationStatus == 0)
        let stored = try contents(of: suite)
        expectNumbered(stored, prefix: "first", count: 1_000)
        expectNumbered(stored, prefix: "second", count: 1_000)
        #expect(stored.count == 2_000)
    }

    @Test(.tags(.childProcess), .startsProcesses) func aSharedCounterLosesNoIncrement() throws {
        let suite = try TestSuite()
        let first = try Probe.start("increment", suite.name, "200")
        let second = try Probe.start("increment", suite.name, "200")
        first.process.waitUntilExit()
        second.process.waitUntilExit()
        #expect(try contents(of: suite)["counter"] as? Int == 400)
    }

    @Test(.tags(.childProcess), .startsProcesses) func aCorruptFileIsPreservedAsideAndReported() async throws {
        let suite = try TestSuite()
        let garbage = Data((0..<512).map { UInt8(truncatingIfNeeded: $0 &* 37) })
        try FileManager.default.createDirectory(
            at: suite.plistURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try writeAtRest(garbage, to: suite.plistURL)

        let run = try await Probe.run("touch", suite.name)
        #expect(run.status == 0)
        #expect(run.output == "value default\n")
        #expect(run.errors.contains("does not parse"))
        #expect(run.errors.contains("it was moved to \(suite.plistURL.path).corrupt-"))
        // One readable line: no dump of the parser's error and its user info.
        #expect(run.errors.split(separator: "\n").count == 1, "\(run.errors)")
        #expect(!run.errors.contains("kCFPropertyList") && !run.errors.contains("NSDebugDescription"))

        let folder = suite.plistURL.deletingLastPathComponent()
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix(suite.plistURL.lastPathComponent + ".corrupt-") }
        #expect(aside.count == 1)
        for name in aside {
            let path = folder.appendingPathComponent(name).path
            #expect(FileManager.default.contents(atPath: path) == garbage)
            try FileManager.default.removeItem(atPath: path)
        }
        // The suite started empty and took the new write.
        #expect(try contents(of: suite) as? [String: String] == ["after": "written"])
    }
}
