import Foundation
import PostgresNIO
import Testing
import TypedDefaults
import TypedDefaultsPostgres

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback server that accepts TCP connections and never answers: what a hung server looks
/// like to a client, or a port whose proxy has lost what is behind it.
final class SilentServer: @unchecked Sendable {  // `accepted` only under `lock`.
    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var accepted: [Int32] = []

    init() throws {
        let (listener, port) = try LoopbackSocket.listening(backlog: 64)
        self.listener = listener
        self.port = port
        LoopbackSocket.acceptOnThread(listener) { [weak self] client in
            guard let self else { return false }
            // Kept open, never read from nor written to.
            self.lock.withLock { self.accepted.append(client) }
            return true
        }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        for client in lock.withLock({ accepted }) { close(client) }
    }

    /// How many connections it accepted.
    var connections: Int { lock.withLock { accepted.count } }

    /// A configuration that logs in to it.
    var configuration: PostgresConnection.Configuration {
        .init(host: "127.0.0.1", port: Int(port), username: "app", password: "secret", database: "app", tls: .disable)
    }
}

/// Seconds since `start`, as a number the tests print and compare.
func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// A server that accepts connections and never answers holds a read, a flush and the process's
/// exit no longer than their bounds. No PostgreSQL server is needed. The
/// bounds are asserted with a generous margin, for a loaded machine: they prove nothing hangs,
/// and the times measured are printed.
@Suite struct SilentServerTests {
    @Test func aFirstReadFallsBackToDefaultsWithinTheConnectTimeoutAndReportsIt() throws {
        Reports.install()
        let server = try SilentServer()
        let suite = "silent.read.\(UUID())"
        let backend = try PostgresBackend(configuration: server.configuration, suite: suite, connectTimeout: 1)
        let store = DefaultsStore(backend: backend)
        let start = ContinuousClock.now
        #expect(store[DefaultsKey<Int>("limit", default: 10)] == 10)
        let read = seconds(since: start)
        print("silent server: first read fell back to the default after \(read) s (connectTimeout 1 s)")
        #expect(read < 1 + 3)
        #expect(server.connections >= 1)
        let reports = Reports.mentioning(suite)
        #expect(reports.count == 1, "\(reports)")
        #expect(reports.allSatisfy { $0.contains("not connected in 1 s") }, "\(reports)")
        // The default bound: 5 s.
        let byDefault = try PostgresBackend(configuration: server.configuration, suite: suite)
        let defaultStart = ContinuousClock.now
        let error = try #require(throws: DefaultsError.self) { try byDefault.load() }
        let load = seconds(since: defaultStart)
        print("silent server: a load with the default connectTimeout failed after \(load) s")
        #expect("\(error)".contains("not connected in 5 s"), "\(error)")
        #expect(load < 5 + 3)
    }

    @Test func aFlushFailsWithinItsBoundAndACommitKeepsAShortDeadline() throws {
        Reports.install()
        let server = try SilentServer()
        let suite = "silent.flush.\(UUID())"
        let backend = try PostgresBackend(
            configuration: server.configuration, suite: suite, connectTimeout: 1, outageWait: 2)
        let store = DefaultsStore(backend: backend, durability: .coalesced(within: .seconds(60)))
        store[DefaultsKey<Int>("limit", default: 0)] = 1
        // A flush waits out an outage for the 5 s the store gives a commit (outageWait is less).
        let start = ContinuousClock.now
        let error = try #require(throws: DefaultsError.self) { try store.flush() }
        let flush = seconds(since: start)
        print("silent server: a flush failed after \(flush) s (store's 5 s, outageWait 2 s, connectTimeout 1 s)")
        #expect("\(error)".contains("changes are kept"), "\(error)")
        #expect(flush < 5 + 3)
        // A deadline under the store's 5 s (2 s at exit) is kept by every wait.
        let commitStart = ContinuousClock.now
        #expect(throws: DefaultsError.self) {
            try backend.commit(["limit": .integer(2)], before: .now + .seconds(0.5)) { _ in }
        }
        let commit = seconds(since: commitStart)
        print("silent server: a commit given 0.5 s failed after \(commit) s")
        #expect(commit < 0.5 + 2)
    }

    @Test func aCommitGivenAShortDeadlineDoesNotWaitPastItForAReadConnecting() throws {
        let server = try SilentServer()
        let backend = try PostgresBackend(
            configuration: server.configuration, suite: "silent.busy.\(UUID())", connectTimeout: 4)
        // A read connecting for 4 s has the backend's connection; a commit at exit waits its turn
        // for its own deadline only. The read runs on a thread of its own, not a task: a busy
        // machine could run a task too late to be connecting still.
        let readDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? backend.load()
            readDone.signal()
        }
        while server.connections == 0 { usleep(10_000) }
        let start = ContinuousClock.now
        let error = try #require(throws: DefaultsError.self) {
            try backend.commit(["limit": .integer(1)], before: .now + .seconds(0.5)) { _ in }
        }
        let commit = seconds(since: start)
        print("silent server: a commit given 0.5 s behind a read connecting for 4 s failed after \(commit) s")
        #expect("\(error)".contains("was busy for 0.5 s"), "\(error)")
        #expect(commit < 0.5 + 2)
        readDone.wait()
    }

    @Test func aProcessThatWritesAndExitsEndsWithinTheExitBound() async throws {
        let server = try SilentServer()
        let machine = try Machine.Running(
            "write-and-exit", "silent.exit.\(UUID())", "limit", "7",
            environment: ["PGHOST": "127.0.0.1", "PGPORT": "\(server.port)", "PGUSER": "app", "PGPASSWORD": "x"])
        let (status, errors) = await machine.finish()
        #expect(status == 0, "\(errors)")
        #expect(errors.contains("not connected"), "\(errors)")
        // Its write reads the suite first (the default connectTimeout, 5 s); then the flush at
        // exit keeps the store's 2 s.
        let written = try #require(machine.arrival(of: "written"), "\(machine.lines)")
        let ended = try #require(machine.ended)
        let (write, exit) = (written - machine.started, ended - written)
        print("silent server: the child wrote after \(write) and ended \(exit) later (exit bound 2 s)")
        #expect(write < .seconds(5 + 3))
        #expect(exit < .seconds(2 + 3))
    }

    /// How far ahead the `ahead` case sets the child's wall clock, in seconds: ten minutes, and
    /// never more than the machine has been up less a minute. libfaketime moves the absolute
    /// deadlines of the monotonic timers libdispatch arms by its offset too, and one moved before
    /// the machine started never fires (measured with Debian's libfaketime 0.9.10 on a machine up
    /// 57 minutes: a 2 s `asyncAfter` had not fired after 20 s with +3600, and fired after 2.0 s
    /// with +600 and +3000). Any step of minutes shows a wall-clock wait as plainly as an hour.
    static func aheadStep() throws -> Int {
        let uptime = try String(contentsOfFile: "/proc/uptime", encoding: .utf8).split(separator: " ").first
            .flatMap { Double($0) }
        return max(1, min(600, Int(try #require(uptime, "/proc/uptime")) - 60))
    }

    static let libfaketime = ["x86_64", "aarch64"].map { "/usr/lib/\($0)-linux-gnu/faketime/libfaketimeMT.so.1" }
        .first { FileManager.default.fileExists(atPath: $0) }

    /// The same bounds hold when the machine's clock is stepped: the child runs under
    /// libfaketime, which fakes its wall clock only. `back`: stepped back an hour while the
    /// child's exit flush connects and retries (a wait measured by `Date()` would last the hour);
    /// `ahead`: ahead from the start by `aheadStep` (a system wait given a wall-clock deadline, as
    /// a semaphore's timed wait is on Linux, would sleep through the step).
    @Test(
        .enabled(
            if: Self.libfaketime != nil || ProcessInfo.processInfo.environment["CI"] == "true",
            "needs libfaketime (Debian's faketime; CI installs it)"),
        arguments: ["back", "ahead"])
    func aProcessThatWritesAndExitsKeepsItsBoundsWhenTheClockIsStepped(mode: String) async throws {
        let library = try #require(Self.libfaketime, "CI=true: faketime must be installed")
        let server = try SilentServer()
        let stamp = FileManager.default.temporaryDirectory.appendingPathComponent("faketime-\(UUID())")
        defer { try? FileManager.default.removeItem(at: stamp) }
        try (mode == "back" ? "+0" : "+\(try Self.aheadStep())").write(to: stamp, atomically: true, encoding: .utf8)
        // Through env: a Swift program that a process without libfaketime starts with it
        // preloaded sees no command-line arguments (measured with Debian's libfaketime 0.9.10).
        let machine = try Machine.Running(
            "write-and-exit", "silent.stepped.\(UUID())", "limit", "7",
            environment: [
                "PGHOST": "127.0.0.1", "PGPORT": "\(server.port)", "PGUSER": "app", "PGPASSWORD": "x",
                "LD_PRELOAD": library, "FAKETIME_TIMESTAMP_FILE": stamp.path, "FAKETIME_NO_CACHE": "1",
                "FAKETIME_DONT_FAKE_MONOTONIC": "1",
            ],
            launcher: ["/usr/bin/env"])
        if mode == "back" {
            // Once it has written: while its exit flush connects and retries.
            while machine.arrival(of: "written") == nil, machine.process.isRunning {
                try await Task.sleep(for: .milliseconds(10))
            }
            try await Task.sleep(for: .milliseconds(300))
            try "-3600".write(to: stamp, atomically: true, encoding: .utf8)
        }
        let ending = Task { await machine.finish() }
        let watchdog = Task {
            try await Task.sleep(for: .seconds(60))
            kill(machine.process.processIdentifier, SIGKILL)
        }
        let (status, errors) = await ending.value
        watchdog.cancel()
        #expect(status == 0, "\(errors)")
        let written = try #require(machine.arrival(of: "written"), "\(machine.lines) \(errors)")
        let ended = try #require(machine.ended)
        let (write, exit) = (written - machine.started, ended - written)
        print("silent server, clock \(mode): the child wrote after \(write) and ended \(exit) later")
        #expect(write < .seconds(5 + 3))
        #expect(exit < .seconds(2 + 3))
    }
}

/// A server that logs in and then stops answering: each query waits `requestTimeout`.
@Suite(.enabled(if: TestServer.isAvailable, "no PostgreSQL server: set PGHOST (.ci/postgres.sh start)"))
struct StoppedAnsweringTests {
    @Test func aQueryWaitsTheRequestTimeoutAndACommitItsBound() throws {
        let server = try #require(TestServer.configuration)
        let relay = try CuttingRelay(to: UInt16(try #require(server.port)))
        let configuration = PostgresConnection.Configuration(
            host: "127.0.0.1", port: Int(relay.port), username: server.username, password: server.password,
            database: server.database, tls: .disable)
        let suite = "stopped.answering.\(UUID())"
        let backend = try PostgresBackend(
            configuration: configuration, suite: suite, connectTimeout: 1, requestTimeout: 1, outageWait: 2)
        _ = try backend.commit(["limit": .integer(1)], before: .now + .seconds(5)) { _ in }
        relay.freeze()
        let start = ContinuousClock.now
        let error = try #require(throws: DefaultsError.self) { try backend.load() }
        let load = seconds(since: start)
        print("stopped answering: a load failed after \(load) s (requestTimeout 1 s)")
        #expect("\(error)".contains("no answer in 1 s"), "\(error)")
        #expect(load < 1 + 3)
        let commitStart = ContinuousClock.now
        #expect(throws: DefaultsError.self) {
            try backend.commit(["limit": .integer(2)], before: .now + .seconds(5)) { _ in }
        }
        let commit = seconds(since: commitStart)
        print("stopped answering: a commit given 5 s failed after \(commit) s (outageWait 2 s)")
        #expect(commit < 5 + 3)
        #expect(try TestServer.backend(suite: suite).load() == ["limit": .integer(1)])
    }

    /// A store whose server does not answer: its first read waits `connectTimeout`; then reads
    /// give defaults at once, not after `connectTimeout` again at each try of the load; and once
    /// the server answers, the store loads.
    @Test func readsGiveDefaultsAtOnceUntilTheServerAnswersThenTheStoreLoads() throws {
        let server = try #require(TestServer.configuration)
        let suite = "stopped.unanswered.\(UUID())"
        _ = try TestServer.backend(suite: suite).commit(["limit": .integer(7)], before: .now + .seconds(5)) {
            _ in
        }
        let relay = try CuttingRelay(to: UInt16(try #require(server.port)))
        relay.freeze()
        let configuration = PostgresConnection.Configuration(
            host: "127.0.0.1", port: Int(relay.port), username: server.username, password: server.password,
            database: server.database, tls: .disable)
        let store = DefaultsStore(
            backend: try PostgresBackend(configuration: configuration, suite: suite, connectTimeout: 1))
        let limit = DefaultsKey<Int>("limit", default: 10)
        #expect(store[limit] == 10)
        // Past the store's first tries of the load again (0.5 s, then 1 s later).
        var slowest = 0.0
        let start = ContinuousClock.now
        while seconds(since: start) < 3 {
            let read = ContinuousClock.now
            #expect(store[limit] == 10)
            slowest = max(slowest, seconds(since: read))
            usleep(10_000)
        }
        print("stopped answering: the slowest read after the first took \(slowest) s (connectTimeout 1 s)")
        #expect(slowest < 0.5)
        relay.thaw()
        let thawed = ContinuousClock.now
        while store[limit] != 7, seconds(since: thawed) < 20 { usleep(50_000) }
        print("stopped answering: the store read the server's value \(seconds(since: thawed)) s after it answered")
        #expect(store[limit] == 7)
    }

    @Test func aProcessThatWritesAndExitsCommitsAtExit() async throws {
        let suite = "exit.commit.\(UUID())"
        let machine = try Machine.Running("write-and-exit", suite, "limit", "7")
        let (status, errors) = await machine.finish()
        #expect(status == 0, "\(errors)")
        #expect(try TestServer.backend(suite: suite).load() == ["limit": .integer(7)])
    }
}
