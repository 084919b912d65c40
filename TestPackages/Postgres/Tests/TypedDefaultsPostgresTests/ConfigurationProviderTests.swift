import Configuration
import Foundation
import Synchronization
import Testing
import TypedDefaults
import TypedDefaultsConfiguration
import TypedDefaultsPostgres

/// A server reading its settings through swift-configuration from a PostgreSQL suite picks up
/// a change another machine makes (here: a second backend, a store of its own).
@Suite(.enabled(if: TestServer.isAvailable, "no PostgreSQL server: set PGHOST (.ci/postgres.sh start)"))
struct ConfigurationProviderTests {
    @Test func aWatchSeesAWriteMadeThroughAnotherPostgreSQLStore() async throws {
        let suite = "tests.configuration.\(UUID())"
        let server = DefaultsStore(backend: try TestServer.backend(suite: suite), durability: .immediate)
        let operatorStore = DefaultsStore(backend: try TestServer.backend(suite: suite), durability: .immediate)
        let limit = DefaultsKey<Int>("http.maxConnections", default: 0)
        operatorStore[limit] = 100
        let config = ConfigReader(provider: try DefaultsProvider(store: server))
        #expect(config.int(forKey: "http.maxConnections") == 100)

        let seen = Mutex<[Int?]>([])
        let watching = Task {
            try await config.watchInt(forKey: "http.maxConnections") { updates in
                for await value in updates {
                    seen.withLock { $0.append(value) }
                    if value == 250 { return }
                }
            }
        }
        // The first value must be seen before the write, or a watch that buffers only the newest
        // update may rightly skip it. Other tests here block the cooperative pool for seconds
        // (flushes to a silent server), so the bound is generous, and the test stops if it passes.
        let deadline = Date().addingTimeInterval(60)
        while seen.withLock({ $0.isEmpty }), Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        try #require(seen.withLock { $0 } == [100], "the watch's first value arrives before any write")
        // Its listener connects in the background; a write before that is still heard (it
        // reloads on connecting), so no wait is needed for correctness, only for the test.
        operatorStore[limit] = 250
        try await watching.value
        #expect(seen.withLock { $0 }.first == 100)
        #expect(seen.withLock { $0 }.last == 250)
        #expect(config.int(forKey: "http.maxConnections") == 250)
    }
}
