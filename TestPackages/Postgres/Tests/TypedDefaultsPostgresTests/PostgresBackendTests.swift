import Foundation
import NIOSSL
import PostgresNIO
import Testing
import TypedDefaults
import TypedDefaultsTestSupport

@testable import TypedDefaultsPostgres

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

/// Every error reported to `DefaultsError.handler` in this process, still printed as by default;
/// each test picks out its own by a name no other test uses.
enum Reports {
    private static let recorded: NSLock & Sendable = NSLock()
    nonisolated(unsafe) private static var errors: [String] = []  // only under `recorded`
    private static let installed: Void = {
        DefaultsError.handler = { error in
            Reports.recorded.withLock { Reports.errors.append("\(error)") }
            DefaultsError.printToStandardError(error)
        }
    }()

    static func install() { Reports.installed }

    /// The reports that mention `name`.
    static func mentioning(_ name: String) -> [String] {
        recorded.withLock { errors.filter { $0.contains(name) } }
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

    @Test func theSizeBoundThatSparesSmallWritesTheirEncodingIsNeverBelowTheTruth() {
        let values: [DefaultsStoredValue] = [
            .string(""), .string("\u{0}\u{1}\u{1F}\"\\\n"), .string("é🙂\u{7F}"),
            .string(String(repeating: "\u{1}", count: 999)),
            .integer(.min), .unsignedInteger(.max), .real(-.greatestFiniteMagnitude), .real(.nan), .real(-0.0),
            .real(.leastNonzeroMagnitude), .boolean(true),
            .date(Date(timeIntervalSinceReferenceDate: -63_113_904_000.123456)),
            .date(Date(timeIntervalSinceReferenceDate: 1.000_000_001)), .data(Data()), .data(Data([0])),
            .data(Data(repeating: 255, count: 1_000)), .array([]), .array([.array([.integer(1)]), .string("\u{2}")]),
            .dictionary([:]), .dictionary(["$date": .integer(1), "\u{3}": .dictionary(["$x": .data(Data([1, 2]))])]),
        ]
        for value in values {
            #expect(PostgresBackend.jsonBytesAtMost(value) >= value.json().utf8.count, "\(value)")
        }
    }

    @Test func aListenerWhoseLoginIsRefusedWaitsLongerThanOneLosingItsServer() {
        var (refused, unreachable) = (0.1, 0.1)
        for _ in 0..<12 {
            refused = PostgresBackend.listenDelay(after: refused, refused: true)
            unreachable = PostgresBackend.listenDelay(after: unreachable, refused: false)
        }
        #expect(refused == 60)
        #expect(unreachable == 5)
    }

    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["TYPEDDEFAULTS_POSTGRES_CA"] != nil,
            "the server has no TLS certificate: start it with .ci/postgres.sh"))
    func overTLSNeitherQueriesNorValuesCrossTheNetworkReadable() throws {
        let server = try #require(TestServer.configuration)
        let authority = try #require(ProcessInfo.processInfo.environment["TYPEDDEFAULTS_POSTGRES_CA"])
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(authority))
        for secure in [true, false] {
            let relay = try CuttingRelay(to: UInt16(try #require(server.port)))
            let configuration = PostgresConnection.Configuration(
                host: "127.0.0.1", port: Int(relay.port), username: server.username, password: server.password,
                database: server.database, tls: secure ? .require(try NIOSSLContext(configuration: tls)) : .disable)
            let backend = try PostgresBackend(configuration: configuration, suite: "tls.\(UUID())")
            _ = try backend.commit(["token": .string("value-on-the-wire")], before: .now + .seconds(5)) { _ in
            }
            #expect(try backend.load() == ["token": .string("value-on-the-wire")])
            // Plain, the relay reads them: so, over TLS, it would have if they were there.
            #expect(relay.carried("value-on-the-wire") == !secure)
            #expect(relay.carried("SELECT key, value") == !secure)
        }
    }

    @Test func aTableNameThatIsNotAPlainIdentifierIsRefused() throws {
        let configuration = try #require(TestServer.configuration)
        // The commit log's index adds 13 characters, and PostgreSQL cuts names at 63.
        _ = try PostgresBackend(configuration: configuration, suite: "s", table: String(repeating: "a", count: 50))
        for table in ["", "Settings", "a;drop table x", "1abc", String(repeating: "a", count: 51)] {
            #expect(throws: DefaultsError.self, "\(table)") {
                try PostgresBackend(configuration: configuration, suite: "s", table: table)
            }
        }
    }

    @Test func keysAndValuesAreParametersNeverSQL() throws {
        let backend = try TestServer.backend(suite: "quotes'); DROP TABLE typed_defaults; --")
        let hostile = "'); DROP TABLE typed_defaults; --"
        _ = try backend.commit([DefaultsStoredKey(hostile): .string(hostile)], before: .now + .seconds(60)) { _ in }
        #expect(try backend.load() == [DefaultsStoredKey(hostile): .string(hostile)])
    }

    @Test func aValueOrKeyTooLargeIsRefusedWhenWrittenAndHoldsBackNoOtherChange() throws {
        Reports.install()
        let backend = try TestServer.backend()
        let suite = String(backend.location.split(separator: "#").last ?? "")
        let store = DefaultsStore(backend: backend, durability: .immediate)
        @UserDefault("notes", store: store) var notes = "short"
        @UserDefault("limit", store: store) var limit = 1
        notes = "kept"
        notes = String(repeating: "x", count: 2 << 20)
        #expect(notes == "kept")
        let longKey = "k" + String(repeating: "é", count: 600)
        store[DefaultsKey<Int>(longKey, default: 0)] = 1
        limit = 2
        $limit.update { _ in notes = String(repeating: "y", count: 2 << 20) }
        try store.flush()
        #expect(try TestServer.backend(suite: suite).load() == ["notes": .string("kept"), "limit": .integer(2)])
        let refusals = Reports.mentioning("more than")
        #expect(refusals.contains { $0.contains("notes") && $0.contains("2,097,15") && $0.contains("1,048,576") })
        #expect(refusals.contains { $0.contains("key is 1,201 bytes") && !$0.contains(longKey) })
        #expect(refusals.count == 3, "\(refusals)")
        // An edit that makes one is refused at commit, with nothing stored.
        #expect(throws: DefaultsError.self) {
            try backend.commit(["limit": .integer(3)], before: .now + .seconds(5)) { values in
                values["notes"] = .string(String(repeating: "z", count: 2 << 20))
            }
        }
        #expect(try backend.load()["limit"] == .integer(2))
        // The limit is the backend's to set.
        let small = try PostgresBackend(
            configuration: try #require(TestServer.configuration), suite: suite, maximumValueBytes: 10)
        #expect(throws: DefaultsError.self) {
            try small.check(.string("more than ten"), forKey: DefaultsStoredKey("a"))
        }
        // Up to what PostgreSQL takes: a larger value would fail every commit.
        let huge = try PostgresBackend(
            configuration: try #require(TestServer.configuration), suite: suite, maximumValueBytes: .max)
        #expect(huge.maximumValueBytes == 1_000_000_000)
        #expect(throws: DefaultsError.self) {
            try PostgresBackend(
                configuration: try #require(TestServer.configuration), suite: String(repeating: "s", count: 1_001))
        }
    }
}
