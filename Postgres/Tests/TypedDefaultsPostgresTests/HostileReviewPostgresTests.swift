import Foundation
import NIOCore
import NIOPosix
import Testing
import TypedDefaults
import TypedDefaultsPostgres

/// Defects of the PostgreSQL backend found by the hostile review of issue 28. Each test FAILS on
/// the code it was written against (branch issue28-hostile, 8fd355b) and says what it shows. No
/// PostgreSQL server is needed: the loopback `SilentServer` stands for one.
@Suite struct HostileReviewPostgresTests {
    /// A store on a `PostgresBackend` read for the first time on a SwiftNIO event-loop thread (a
    /// Vapor route handler, a channel handler, an `EventLoopFuture` callback; here a loop of a
    /// group of the test's own, not the backend's): the backend blocks on its futures with
    /// `EventLoopFuture.wait()`, and SwiftNIO's precondition kills the process: "Precondition
    /// failed: BUG DETECTED: wait() must not be called when on an EventLoop"
    /// (PostgresBackend+Connection.swift:229), SIGILL. So do an `.immediate` write, an `update`
    /// and a `refresh()` there. The README promises that a read never crashes, and says nothing
    /// of event loops. The crash would end the test process, so the read runs in a child: this
    /// test binary again, running only `readOnAnEventLoopInAChild`.
    @Test func aReadOnAnEventLoopThreadDoesNotCrashTheProcess() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["--testing-library", "swift-testing", "--filter", "readOnAnEventLoopInAChild"]
        var environment = ProcessInfo.processInfo.environment
        environment["TYPEDDEFAULTS_HOSTILE_CHILD"] = "1"
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(
            process.terminationReason == .exit && status == 0, "the child ended with \(status): \(printed.suffix(600))")
        #expect(printed.contains("read on an event loop: 10"), "\(printed.suffix(600))")
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
}
