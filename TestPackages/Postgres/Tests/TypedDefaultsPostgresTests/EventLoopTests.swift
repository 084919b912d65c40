import Foundation
import NIOCore
import NIOPosix
import Testing
import TypedDefaults
import TypedDefaultsPostgres

/// A backend called on a SwiftNIO event loop: on another group's loop it waits as on any thread
/// (`PostgresNeverBlocksTests` reads there, in a child); on one of its own group's loops, where
/// what it waits for runs, it fails at once instead of deadlocking.
@Suite struct EventLoopTests {
    /// The backend's group: never shut down, since the store, and its backend's listener, live
    /// as long as the process.
    static let backendGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    @Test func aCallOnTheBackendsOwnEventLoopFailsAtOnceAndTheStoreReadsDefaults() throws {
        Reports.install()
        let server = try SilentServer()
        let group = Self.backendGroup
        let suite = "eventLoop.own.\(UUID())"
        let backend = try PostgresBackend(
            configuration: server.configuration, suite: suite, connectTimeout: 5, eventLoopGroup: group)
        let store = DefaultsStore(backend: backend)
        let start = ContinuousClock.now
        let (value, loadError, commitError) = try group.next().submit { () -> (Int, String, String) in
            let value = store[DefaultsKey<Int>("limit", default: 10)]
            let load = Result { () throws(DefaultsError) in try backend.load() }
            let commit = Result { () throws(DefaultsError) in
                try backend.commit(["limit": .integer(1)], before: .now + .seconds(5)) { _ in }
            }
            return (value, "\(load)", "\(commit)")
        }.wait()
        let took = seconds(since: start)
        print("own event loop: a read, a load and a commit failed after \(took) s in all")
        #expect(value == 10)
        #expect(loadError.contains("own event loops"), "\(loadError)")
        #expect(commitError.contains("own event loops"), "\(commitError)")
        #expect(took < 2, "took \(took) s: waited for the server")
        let reports = Reports.mentioning(suite)
        #expect(reports.count == 1 && reports.allSatisfy { $0.contains("own event loops") }, "\(reports)")
    }

    @Test(.enabled(if: TestServer.isAvailable, "no PostgreSQL server: set PGHOST (.ci/postgres.sh start)"))
    func aStoreOnAnotherGroupsEventLoopReadsAndWritesTheServer() throws {
        let backend = try TestServer.backend()
        let store = DefaultsStore(backend: backend, durability: .immediate)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let key = DefaultsKey<Int>("limit", default: 10)
        let read = try group.next().submit { () -> Int in
            store[key] = 20
            return store[key]
        }.wait()
        #expect(read == 20)
        #expect(try backend.load() == ["limit": .integer(20)])
    }
}
