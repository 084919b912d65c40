import Foundation
import PostgresNIO
import Testing
import TypedDefaults
import TypedDefaultsPostgres
import TypedDefaultsTestSupport

/// The server the tests use, from the standard PG* variables (`.ci/postgres.sh start` sets them).
enum TestServer {
    static let configuration = PostgresBackend.environmentConfiguration()
    static var isAvailable: Bool { configuration != nil }

    /// A backend on a suite no other test uses.
    static func backend(_ label: String = #function, suite: String? = nil) throws -> PostgresBackend {
        guard let configuration else { throw CancellationError() }
        return try PostgresBackend(configuration: configuration, suite: suite ?? "tests.\(label).\(UUID())")
    }
}

@Suite(.enabled(if: TestServer.isAvailable, "no PostgreSQL server: set PGHOST (.ci/postgres.sh start)"))
struct PostgresBackendTests {
    @Test func passesTheConformanceKit() throws {
        let failures = DefaultsBackendConformance.check(
            makeBackend: { try TestServer.backend() },
            reopen: { backend in
                let suite = String(backend.location.split(separator: "#").last ?? "")
                return try TestServer.backend(suite: suite)
            })
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func aStoreOnTheBackendKeepsTypedValues() throws {
        let store = DefaultsStore(backend: try TestServer.backend(), durability: .immediate)
        @UserDefault("limit", store: store) var limit = 10
        @UserDefault("hosts", store: store) var hosts: [String] = []
        @UserDefault("maintenance", store: store) var maintenance: Date? = nil
        limit = 200
        hosts = ["a.internal", "b.internal"]
        maintenance = Date(timeIntervalSinceReferenceDate: 1.25)
        $limit.update { $0 += 1 }
        let stored = try store.backend.load()
        #expect(stored["limit"] == .integer(201))
        #expect(stored["hosts"] == .array([.string("a.internal"), .string("b.internal")]))
        #expect(limit == 201)
        #expect(maintenance == Date(timeIntervalSinceReferenceDate: 1.25))
    }

    @Test func aLoginTheServerRefusesIsAClearErrorAndTheStoreReadsDefaults() throws {
        var configuration = try #require(TestServer.configuration)
        configuration.password = "not-the-password"
        let backend = try PostgresBackend(configuration: configuration, suite: "refused.\(UUID())")
        let error = try #require(throws: DefaultsError.self) { try backend.load() }
        #expect("\(error)".contains("password authentication failed"), "\(error)")
        #expect(!"\(error)".contains("not-the-password"))
        #expect(!backend.location.contains("not-the-password"))
        let store = DefaultsStore(backend: backend)
        @UserDefault("limit", store: store) var limit = 10
        #expect(limit == 10)
    }

    @Test func aTableNameThatIsNotAPlainIdentifierIsRefused() throws {
        let configuration = try #require(TestServer.configuration)
        for table in ["", "Settings", "a;drop table x", "1abc", String(repeating: "a", count: 64)] {
            #expect(throws: DefaultsError.self, "\(table)") {
                try PostgresBackend(configuration: configuration, suite: "s", table: table)
            }
        }
    }

    @Test func keysAndValuesAreParametersNeverSQL() throws {
        let backend = try TestServer.backend(suite: "quotes'); DROP TABLE typed_defaults; --")
        let hostile = "'); DROP TABLE typed_defaults; --"
        _ = try backend.commit([hostile: .string(hostile)], before: .distantFuture) { _ in }
        #expect(try backend.load() == [hostile: .string(hostile)])
    }
}
