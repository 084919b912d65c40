import Foundation
import Testing
import TypedDefaults

/// Another process holds a suite's lock and never lets go: it was stopped (Ctrl-Z) mid-flush.
/// Every wait for the lock gives up after a bound, keeps the changes where the process goes on,
/// and never holds up the end of a process.
@Suite(.plistFilesOnly("the plist file's lock, shared with other processes")) struct StuckLockTests {
    /// A child holding the suite's lock, stopped with SIGSTOP.
    func stoppedHolder(of suite: TestSuite) throws -> Probe.Running {
        let holder = try Probe.start("holdLock", suite.name)
        #expect(holder.waitForLine { $0 == "locked" } != nil)
        kill(holder.process.processIdentifier, SIGSTOP)
        return holder
    }

    func contents(of suite: TestSuite) throws -> [String: Any] {
        let data = try #require(FileManager.default.contents(atPath: suite.plistURL.path))
        return try #require(PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    }

    @Test(.tags(.childProcess), .startsProcesses) func aFlushGivesUpAfterFiveSecondsAndKeepsTheChanges() throws {
        let suite = try TestSuite()
        let holder = try stoppedHolder(of: suite)
        defer { _ = holder.end(with: SIGKILL) }
        let store = suite.store.durability(.coalesced(within: .seconds(3600)))
        UserDefault(wrappedValue: "", "key", store: store).wrappedValue = "kept"

        let start = Date()
        #expect {
            try store.flush()
        } throws: { error in
            guard case .writeFailed(_, let underlying) = error as? DefaultsError else { return false }
            return "\(underlying)".contains("for more than 5 s")
        }
        #expect(Date().timeIntervalSince(start) >= 4.9)
        #expect(UserDefault(wrappedValue: "", "key", store: store).wrappedValue == "kept")

        _ = holder.end(with: SIGKILL)
        try store.flush()
        #expect(try contents(of: suite)["key"] as? String == "kept")
    }

    @Test(.tags(.childProcess), .startsProcesses) func anUpdateGivesUpAfterFiveSecondsAndSaysItWasNotStored() throws {
        let suite = try TestSuite()
        let store = suite.store.durability(.immediate)
        let counter = UserDefault(wrappedValue: 0, "counter", store: store)
        counter.wrappedValue = 1
        let holder = try stoppedHolder(of: suite)
        defer { _ = holder.end(with: SIGKILL) }

        let start = Date()
        let (_, reports) = ReportedErrors.during { counter.update { $0 += 1 } }
        #expect(Date().timeIntervalSince(start) >= 4.9)
        guard case .updateFailed(let key, let path, _)? = reports.first, reports.count == 1 else {
            Issue.record("expected one .updateFailed, got \(reports)")
            return
        }
        #expect(key == "counter")
        #expect(path == suite.plistURL.path)
        #expect("\(reports[0])".contains("the update was not stored"))
        #expect(counter.wrappedValue == 1)
        _ = holder.end(with: SIGKILL)
        counter.update { $0 += 1 }
        #expect(try contents(of: suite)["counter"] as? Int == 2)
    }

    @Test(.tags(.childProcess), .startsProcesses) func returningFromMainIsNotHeldUp() async throws {
        let suite = try TestSuite()
        let holder = try stoppedHolder(of: suite)
        defer { _ = holder.end(with: SIGKILL) }
        let start = Date()
        let run = try await Probe.run("burst", suite.name, "10")
        #expect(run.status == 0)
        #expect(run.errors.contains("for more than 2 s"), "\(run.errors)")
        // When Foundation saw the child end: the test itself may resume much later when other
        // tests hold the cooperative threads (65 s in a CI run under ThreadSanitizer).
        #expect(run.ended.timeIntervalSince(start) < 60)
    }

    /// A flush of this process that takes longer than the exit's 2 s (a large suite, or, here,
    /// another process holding the lock for 4 s) is waited for at exit, and the write made while
    /// it waited is committed after it. The exit flush gave up after 2 s, and both writes were
    /// lost with exit status 0 (the process ended under the waiting flush).
    @Test(.tags(.childProcess), .startsProcesses) func aFlushUnderwayAtExitIsWaitedForAndTheWritesSinceAreKept()
        async throws
    {
        let suite = try TestSuite()
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = [
            "python3", "-c",
            "import fcntl, sys, time; f = open(sys.argv[1], 'a'); fcntl.flock(f, fcntl.LOCK_EX); "
                + "print('locked', flush=True); time.sleep(4)",
            suite.plistURL.path + ".lock",
        ]
        let output = Pipe()
        holder.standardOutput = output
        try holder.run()
        defer {
            kill(holder.processIdentifier, SIGKILL)
            holder.waitUntilExit()
        }
        #expect(String(decoding: output.fileHandleForReading.availableData, as: UTF8.self).hasPrefix("locked"))
        let run = try await Probe.run("flushUnderwayAtExit", suite.name)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output == "written\n")
        #expect(run.errors.isEmpty, "\(run.errors)")
        #expect(try contents(of: suite)["first"] as? Int == 1)
        #expect(try contents(of: suite)["second"] as? Int == 2)
    }

    /// A program's backend keeps the exit's own bound: a commit of its that is underway (30 s
    /// here) is not waited for past 2 s, and what it could not commit is reported. (The bound
    /// asserted leaves room for starting a process on a loaded machine.)
    @Test(.tags(.childProcess), .startsProcesses) func aProgramsBackendsCommitUnderwayDoesNotHoldTheExit() async throws
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slow-exit-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let start = Date()
        let run = try await Probe.run(
            ["slowBackendAtExit", "slow-exit", folder.appendingPathComponent("suite.json").path],
            environment: Probe.environment(["XDG_CONFIG_HOME": folder.path]))
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output == "written\n")
        #expect(run.errors.contains("for more than 2 s"), "\(run.errors)")
        #expect(run.ended.timeIntervalSince(start) < 20)
    }

    /// A daemon that closes every descriptor it did not open closes the termination flush's
    /// pipe: its thread read end-of-file in a loop, a core at 100% for ever (2.9 s of CPU in 3 s).
    /// The probe closes the library's own descriptors (its pipe, the watcher's inotify) and
    /// measures the library's threads: closing every descriptor also closes libdispatch's,
    /// which then stops the process or, in one CI run of the full suite, kept a core busy.
    @Test(.tags(.childProcess), .startsProcesses, .enabled(if: isLinux)) func aClosedSignalPipeLeavesTheProcessIdle()
        async throws
    {
        let run = try await Probe.run("closedSignalPipe", "closed-signal-pipe.\(UUID())")
        #expect(run.status == 0, "\(run.errors)")
        let cpu = try #require(
            run.output.split(separator: "\n").last { $0.hasPrefix("cpu ") }.flatMap { Double($0.dropFirst(4)) })
        #expect(cpu < 0.5, "\(run.output)")
    }

    @Test(.tags(.childProcess), .startsProcesses) func aTerminationSignalIsNotHeldUp() throws {
        let suite = try TestSuite()
        let holder = try stoppedHolder(of: suite)
        defer { _ = holder.end(with: SIGKILL) }
        let child = try Probe.start("hold", suite.name, "10")
        #expect(child.waitForLine { $0 == "ready" } != nil)
        let start = Date()
        let ending = child.end(with: SIGTERM)
        #expect(ending.reason == .uncaughtSignal && ending.status == SIGTERM)
        #expect(Date().timeIntervalSince(start) < 60)
    }
}
