import Foundation
import NIOCore
import NIOPosix
import Testing
import TypedDefaults
import TypedDefaultsPostgres

/// The PostgreSQL backend never crashes or blocks its caller: a read on an event loop's thread,
/// an exit while a flush waits for a server that never answers, and a cached read while another
/// thread loads. Each test fails without the handling it guards. No PostgreSQL server
/// is needed: the loopback `SilentServer` stands for one.
@Suite struct PostgresNeverBlocksTests {
    /// What a child run of this test binary did: how it ended, when (taken on Foundation's own
    /// thread: the test resumes later when other tests hold the cooperative threads), and what
    /// it printed on either output.
    struct ChildRun {
        var status: Int32
        var reason: Process.TerminationReason
        var ended: Date
        var printed: String
    }

    /// Runs this test binary again with only the tests `filter` names, with
    /// `TYPEDDEFAULTS_HOSTILE_CHILD` and `environment` set, to its end. Its output goes to a file,
    /// so the child never blocks on a full pipe.
    static func runThisBinary(filter: String, environment: [String: String] = [:]) async throws -> ChildRun {
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: outputFile) }
        let output = try FileHandle(forWritingTo: outputFile)
        defer { try? output.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["--testing-library", "swift-testing", "--filter", filter]
        process.environment = ProcessInfo.processInfo.environment.merging(
            environment.merging(["TYPEDDEFAULTS_HOSTILE_CHILD": "1", "SWIFT_BACKTRACE": "enable=no"]) { $1 }
        ) { $1 }
        process.standardOutput = output
        process.standardError = output
        let (status, ended): (Int32, Date) = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: ($0.terminationStatus, Date())) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        let printed = String(decoding: try Data(contentsOf: outputFile), as: UTF8.self)
        return ChildRun(status: status, reason: process.terminationReason, ended: ended, printed: printed)
    }

    /// A store on a `PostgresBackend` read for the first time on a SwiftNIO event-loop thread (a
    /// Vapor route handler, a channel handler, an `EventLoopFuture` callback; here a loop of a
    /// group of the test's own, not the backend's): the backend blocks on its futures with
    /// `EventLoopFuture.wait()`, and SwiftNIO's precondition kills the process: "Precondition
    /// failed: BUG DETECTED: wait() must not be called when on an EventLoop"
    /// (from the backend's connection code), SIGILL. So do an `.immediate` write, an `update` and
    /// a `refresh()` there. The Semantics article promises that a read never crashes, and says
    /// nothing of event loops. The crash would end the test process, so the read runs in a child:
    /// this test binary again, running only `readOnAnEventLoopInAChild`.
    @Test func aReadOnAnEventLoopThreadDoesNotCrashTheProcess() async throws {
        let child = try await Self.runThisBinary(filter: "readOnAnEventLoopInAChild")
        #expect(
            child.reason == .exit && child.status == 0,
            "the child ended with \(child.status): \(child.printed.suffix(600))")
        #expect(child.printed.contains("read on an event loop: 10"), "\(child.printed.suffix(600))")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["TYPEDDEFAULTS_HOSTILE_CHILD"] != nil))
    func readOnAnEventLoopInAChild() throws {
        let server = try SilentServer()
        let backend = try PostgresBackend(
            configuration: server.configuration, suite: "hostile.eventLoop.\(UUID())", connectTimeout: 0.5)
        let store = DefaultsStore(backend: backend)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let value = try group.next().submit { store[DefaultsKey<Int>("limit", default: 10)] }.wait()
        print("read on an event loop: \(value)")
    }

    /// A process writes on a store whose server accepts connections and never answers, its
    /// coalesced flush starts (and waits for the server), and it exits 0.5 s later. The Backends
    /// article: "at exit every wait ... ends by the store's 2 s deadline, so the flush at exit ends
    /// within 2 s". The existing test exits right after its write, before a flush is under way;
    /// here one is, and the exit first waits for it (up to 30 s, for a flush of this process
    /// already committing), and that flush's deadline is the store's 5 s, not the exit's 2 s.
    @Test func anExitWhileAFlushWaitsForASilentServerEndsWithinTwoSeconds() async throws {
        let server = try SilentServer()
        let start = Date()
        let child = try await Self.runThisBinary(
            filter: "writeThenExitOnASilentServer", environment: ["TYPEDDEFAULTS_HOSTILE_PORT": "\(server.port)"])
        let (status, printed) = (child.status, child.printed)
        let took = child.ended.timeIntervalSince(start)
        let exitAt = printed.split(separator: "\n").first { $0.hasPrefix("exiting after ") }
            .flatMap { Double($0.dropFirst("exiting after ".count)) }
        let exitTook = took - (exitAt ?? 0)
        for line in printed.split(separator: "\n") where line.contains("write done") { print("silent server: \(line)") }
        print("silent server: exit() after \(exitAt ?? -1) s, the child ended \(exitTook) s later (status \(status))")
        #expect(exitAt != nil, "\(printed.suffix(300))")
        // 2 s, and a margin for a loaded machine, as SilentServerTests gives.
        #expect(exitTook < 2 + 3, "exit took \(exitTook) s")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["TYPEDDEFAULTS_HOSTILE_CHILD"] != nil))
    func writeThenExitOnASilentServer() throws {
        let port = try #require(ProcessInfo.processInfo.environment["TYPEDDEFAULTS_HOSTILE_PORT"].flatMap { Int($0) })
        let start = Date()
        let backend = try PostgresBackend(
            configuration: .init(
                host: "127.0.0.1", port: port, username: "app", password: "secret", database: "app", tls: .disable),
            suite: "hostile.silentExit.\(UUID())")
        let store = DefaultsStore(backend: backend)
        // A write with no read first: nothing waits for the server before the flush.
        store[DefaultsKey<Int>("limit", default: 10)] = 20
        print("first write done after \(Date().timeIntervalSince(start))")
        Thread.sleep(forTimeInterval: 0.5)  // the flush, 0.1 s after the write, now waits for the server
        store[DefaultsKey<Int>("other", default: 0)] = 1
        print("second write done after \(Date().timeIntervalSince(start))")
        print("exiting after \(Date().timeIntervalSince(start))")
        exit(0)
    }

    /// Reads of a key already read wait for another thread's load. On a server that never
    /// answers, a write of a key not read yet (on any thread) loads the suite, and the load runs
    /// holding the suite's lock while it connects (`connectTimeout`, and first its turn on the
    /// backend's connection, which a flush may hold for as long): every read of a `String` (or
    /// any value holding references), cached or not, waits for that lock. Measured with
    /// `connectTimeout: 2`: a read of a cached `String` took 3.1 s; with the defaults a second
    /// plain write in a process took 9.6 s (`anExitWhileAFlushWaitsForASilentServer…` prints it).
    /// The Backends article: "Until the server answers, reads give defaults at once".
    @Test func aCachedReadDoesNotWaitForAnotherThreadsLoad() throws {
        let server = try SilentServer()
        let backend = try PostgresBackend(
            configuration: server.configuration, suite: "hostile.blockedRead.\(UUID())", connectTimeout: 2)
        let store = DefaultsStore(backend: backend)
        let name = DefaultsKey<String>("name", default: "default")
        _ = store[name]  // falls back after connectTimeout, and caches the default
        Thread.sleep(forTimeInterval: 0.7)  // past the 0.5 s before the store loads again
        Thread.detachNewThread { store[DefaultsKey<Int>("other", default: 0)] = 1 }
        Thread.sleep(forTimeInterval: 0.1)
        var slowest = 0.0
        let start = Date()
        while Date().timeIntervalSince(start) < 4 {
            let read = Date()
            #expect(store[name] == "default")
            slowest = max(slowest, Date().timeIntervalSince(read))
        }
        print("silent server: the slowest read of a cached String took \(slowest) s")
        #expect(slowest < 0.5, "a cached read waited \(slowest) s for another thread's load")
    }
}
