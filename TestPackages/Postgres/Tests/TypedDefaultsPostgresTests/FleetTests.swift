import Foundation
import Testing
import TypedDefaults
import TypedDefaultsPostgres

/// Runs `postgres-probe`, standing for another machine, in a child process.
enum Machine {
    static var executable: URL {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return testBinary.deletingLastPathComponent().appendingPathComponent("postgres-probe")
    }

    /// A machine running `arguments`, whose output lines can be waited for.
    final class Running: @unchecked Sendable {  // `received`, `arrivals`, `end` only under `lock`.
        let process = Process()
        private let output = Pipe()
        private let errors = Pipe()
        private var reader: PipeReader?
        private var errorsReader: PipeReader?
        private let lock = NSLock()
        private var received = ""
        /// When each line came, and when the process ended: taken on Foundation's threads as it
        /// happens, so a busy test's tasks do not delay them.
        private var arrivals: [String: ContinuousClock.Instant] = [:]
        private var end: ContinuousClock.Instant?
        /// When the process was started.
        private(set) var started = ContinuousClock.now

        /// Starts `postgres-probe` with `arguments`, in this process's environment with
        /// `environment` added, through `launcher` when given (a command that runs the rest of
        /// its arguments).
        init(_ arguments: String..., environment: [String: String] = [:], launcher: [String] = []) throws {
            if let command = launcher.first {
                process.executableURL = URL(fileURLWithPath: command)
                process.arguments = launcher.dropFirst() + [Machine.executable.path] + arguments
            } else {
                process.executableURL = Machine.executable
                process.arguments = arguments
            }
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardOutput = output
            process.standardError = errors
            reader = PipeReader(output) { [weak self] data in
                let now = ContinuousClock.now
                guard let self else { return }
                self.lock.withLock {
                    self.received += String(decoding: data, as: UTF8.self)
                    for line in self.received.split(separator: "\n") where self.arrivals[String(line)] == nil {
                        self.arrivals[String(line)] = now
                    }
                }
            }
            errorsReader = PipeReader(errors)
            process.terminationHandler = { [weak self] _ in
                let now = ContinuousClock.now
                self?.lock.withLock { self?.end = now }
            }
            started = .now
            try process.run()
        }

        /// When `line` came, if it did.
        func arrival(of line: String) -> ContinuousClock.Instant? { lock.withLock { arrivals[line] } }

        /// When the process ended, if it did.
        var ended: ContinuousClock.Instant? { lock.withLock { end } }

        var lines: [String] { lock.withLock { received.split(separator: "\n").map(String.init) } }

        /// Waits up to `seconds` for a line; whether it came.
        func wait(for line: String, seconds: Double) async -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while !lines.contains(line) {
                if Date() > deadline { return false }
                try? await Task.sleep(for: .milliseconds(2))
            }
            return true
        }

        /// Waits for the process to end, at most five minutes (then ends it); its status and what it
        /// said on standard error. Foundation starts the termination handler on a thread of its own
        /// and may clear `isRunning` before that thread runs, so this also waits (up to 5 s more)
        /// for the handler to set `ended`.
        func finish() async -> (status: Int32, errors: String) {
            let deadline = ContinuousClock.now + .seconds(300)
            while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
            let handled = ContinuousClock.now + .seconds(5)
            while ended == nil, ContinuousClock.now < handled { try? await Task.sleep(for: .milliseconds(2)) }
            await reader?.waitForEnd()
            await errorsReader?.waitForEnd()
            return (process.terminationStatus, errorsReader?.text ?? "")
        }
    }
}

/// Processes standing for machines that share one suite through the server.
@Suite(.enabled(if: TestServer.isAvailable, "no PostgreSQL server: set PGHOST (.ci/postgres.sh start)"))
struct FleetTests {
    @Test func fourMachinesWritingAThousandKeysEachLoseNone() async throws {
        let suite = "fleet.keys.\(UUID())"
        let machines = try (0..<4).map { try Machine.Running("write-keys", suite, "m\($0)-", "1000") }
        for machine in machines {
            let (status, errors) = await machine.finish()
            #expect(status == 0, "\(errors)")
        }
        let values = try TestServer.backend(suite: suite).load()
        #expect(values.count == 4000)
        #expect(
            (0..<4).allSatisfy { m in
                (0..<1000).allSatisfy { values[DefaultsStoredKey("m\(m)-\($0)")] == .integer(Int64($0)) }
            })
    }

    @Test func fourMachinesIncrementingOneCounterLoseNoIncrement() async throws {
        let suite = "fleet.counter.\(UUID())"
        let machines = try (0..<4).map { _ in try Machine.Running("increment", suite, "counter", "50") }
        for machine in machines {
            let (status, errors) = await machine.finish()
            #expect(status == 0, "\(errors)")
        }
        #expect(try TestServer.backend(suite: suite).load()["counter"] == .integer(200))
    }

    @Test func anObserverOnAnotherMachineSeesAWrite() async throws {
        let suite = "fleet.observe.\(UUID())"
        let observer = try Machine.Running("observe", suite, "flag", "7")
        #expect(await observer.wait(for: "ready", seconds: 30))
        let store = DefaultsStore(backend: try TestServer.backend(suite: suite), durability: .immediate)
        store[DefaultsKey<Int>("flag", default: 0)] = 7
        #expect(await observer.wait(for: "seen", seconds: 2), "\(observer.lines)")
        _ = await observer.finish()
    }
}

/// A server restarted under a writer. It stops the server every other test uses, so it runs only
/// when asked for, alone: `TYPEDDEFAULTS_POSTGRES_RESTART=1 swift test --filter ServerRestartTests`,
/// on a server that `.ci/postgres.sh` started.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["TYPEDDEFAULTS_POSTGRES_RESTART"] == "1"
            && ProcessInfo.processInfo.environment["TYPEDDEFAULTS_POSTGRES_FOLDER"] != nil,
        "restarts the server: run alone with TYPEDDEFAULTS_POSTGRES_RESTART=1"), .serialized)
struct ServerRestartTests {
    /// Restarts the server with `.ci/postgres.sh restart` (or `outage SECONDS`); how long it took.
    private func restartServer(_ command: String = "restart", _ options: String...) async throws -> Duration {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../../.ci/postgres.sh").standardizedFileURL
        // waitpid, not Foundation's Process: the server the script starts keeps the pipe that
        // Process watches for the end of its child open, so it would never see pg_ctl end.
        let start = ContinuousClock.now
        var pid: pid_t = 0
        let arguments = ["/bin/bash", script.path, command] + options
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        #expect(posix_spawn(&pid, "/bin/bash", nil, nil, &argv, environ) == 0)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(status == 0)
        return ContinuousClock.now - start
    }

    @Test func aRestartInTheMiddleOfAWriteStreamLosesNothing() async throws {
        let suite = "fleet.restart.\(UUID())"
        let machine = try Machine.Running("stream", suite, "k", "1500")
        try await Task.sleep(for: .milliseconds(1000))
        _ = try await restartServer()
        let (machineStatus, errors) = await machine.finish()
        #expect(machineStatus == 0, "\(errors)")
        let values = try TestServer.backend(suite: suite).load()
        #expect(values.count == 1500)
        #expect((0..<1500).allSatisfy { values[DefaultsStoredKey("k\($0)")] == .integer(Int64($0)) })
    }

    @Test func fourMachinesIncrementingThroughARestartLoseNoIncrementAndAddNone() async throws {
        let suite = "fleet.restart.counter.\(UUID())"
        // Each machine has read the suite and made its first increment before the restart, and
        // makes the others through it, 20 ms apart, for over 4 s: a machine that starts while
        // the server is down reads defaults until it answers, and says so, which is not what this
        // test is about.
        let gate = FileManager.default.temporaryDirectory.appendingPathComponent("restart-gate-\(UUID())")
        defer { try? FileManager.default.removeItem(at: gate) }
        let machines = try (0..<4).map { _ in
            try Machine.Running(
                "increment", suite, "counter", "200", environment: ["POSTGRES_PROBE_GATE": gate.path])
        }
        for machine in machines { #expect(await machine.wait(for: "ready", seconds: 60), "\(machine.lines)") }
        #expect(FileManager.default.createFile(atPath: gate.path, contents: nil))
        let outage = try await restartServer()
        let restarted = ContinuousClock.now
        var reports = ""
        for machine in machines {
            let (status, errors) = await machine.finish()
            #expect(status == 0, "\(errors)")
            reports += errors
            // Still updating once the server was back, 20 ms apart at most: so through the whole
            // time it was down, an update of this machine met it and waited it out.
            let done = try #require(machine.arrival(of: "done"), "\(machine.lines)")
            #expect(done > restarted, "finished before the restart (\(outage)) was over")
        }
        #expect(try TestServer.backend(suite: suite).load()["counter"] == .integer(800), "restart took \(outage)")
        #expect(reports.isEmpty, "\(reports)")
    }

    @Test func anOutageLongerThanACommitWaitsKeepsWritesPendingReportsOnceAndCommitsThemAfter() async throws {
        Reports.install()
        let suite = "fleet.outage.\(UUID())"
        // A backend that waits out 2 s of outage at most, so that the 8 s one outlasts it.
        let backend = try PostgresBackend(
            configuration: try #require(TestServer.configuration), suite: suite, outageWait: 2)
        let store = DefaultsStore(backend: backend, durability: .coalesced(within: .milliseconds(10)))
        let limit = DefaultsKey<Int>("limit", default: 0, store: store)
        let counter = DefaultsKey<Int>("counter", default: 0, store: store)
        store[limit] = 1
        try store.flush()
        let outage = Task { try await restartServer("outage", "8") }
        try await Task.sleep(for: .milliseconds(1500))
        for value in 2...20 {
            store[limit] = value
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(store[limit] == 20)
        // Longer than an update waits (5 s here): reported, and nothing stored.
        store.update(counter) { $0 += 1 }
        _ = try await outage.value
        let other = try TestServer.backend(suite: suite)
        let deadline = Date().addingTimeInterval(20)
        while (try? other.load())?["limit"] != .integer(20), Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(try other.load() == ["limit": .integer(20)])
        #expect(store[counter] == 0)
        let reports = Reports.mentioning(suite)
        #expect(reports.count == 2, "\(reports)")
        #expect(reports.contains { $0.contains("the changes are kept") }, "\(reports)")
        #expect(reports.contains { $0.contains("cannot update \"counter\"") }, "\(reports)")
    }
}
