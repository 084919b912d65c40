import Foundation
import NIOPosix
import PostgresNIO
import Testing
import TypedDefaults

@testable import TypedDefaultsPostgres

extension DefaultsKeys {
    fileprivate static let telemetry = DefaultsKey<Bool>("telemetry", default: true)
    fileprivate static let channel = DefaultsKey<String>("updateChannel", default: "beta")
    fileprivate static let proxy = DefaultsKey<String>("net.proxy", default: "direct")
    fileprivate static let free = DefaultsKey<Int>("free", default: 7)
}

/// SQL sent as a program that does not use the library would send it: psql, a script, another
/// language's client.
enum RawSQL {
    /// What the server answered to `sql`, `values` bound as text: `nil` when it took it, else
    /// its SQLSTATE and message. As the tests' own role, or as `role` (its password `password`).
    @discardableResult
    static func run(
        _ sql: String, _ values: String..., role: (name: String, password: String)? = nil
    ) throws -> (state: String, message: String)? {
        var configuration = try #require(TestServer.configuration)
        if let role {
            configuration.username = role.name
            configuration.password = role.password
        }
        let connection = try PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration, id: 0,
            logger: PostgresBackend.quietLogger
        ).wait()
        defer { try? connection.close().wait() }
        var bindings = PostgresBindings(capacity: values.count)
        for value in values { bindings.append(value) }
        do {
            _ = try connection.query(
                PostgresQuery(unsafeSQL: sql, binds: bindings), logger: PostgresBackend.quietLogger
            )
            .wait()
            return nil
        } catch let error as PSQLError {
            return (error.serverInfo?[.sqlState] ?? "", error.serverInfo?[.message] ?? "\(error)")
        }
    }

    /// Sets a row of the administrator's table, in one statement: `value` as JSON (`nil`: none),
    /// locked or not.
    static func administer(_ suite: String, _ key: String, _ value: String?, locked: Bool) throws {
        let answer = try run(
            """
            INSERT INTO typed_defaults_admin (suite, key, value, locked)
            VALUES ($1, $2, NULLIF($3, ''), $4::boolean)
            ON CONFLICT (suite, key) DO UPDATE SET value = EXCLUDED.value, locked = EXCLUDED.locked
            """, suite, key, value ?? "", locked ? "true" : "false")
        if let answer { Issue.record("the administrator's write was refused: \(answer)") }
    }

    /// Removes a row of the administrator's table.
    static func unadminister(_ suite: String, _ key: String) throws {
        try run("DELETE FROM typed_defaults_admin WHERE suite = $1 AND key = $2", suite, key)
    }
}

/// A role of a fleet's member, granted what an administrator grants one: the members' rows and
/// the commit log to read and write, the administrator's table to read. Dropped by `drop()`.
struct MemberRole {
    let name = "member_\(UUID().uuidString.lowercased().filter(\.isHexDigit))"
    let password = UUID().uuidString

    init() throws {
        try RawSQL.run("CREATE ROLE \(name) LOGIN PASSWORD '\(password)'")
        try RawSQL.run("GRANT SELECT, INSERT, UPDATE, DELETE ON typed_defaults, typed_defaults_commits TO \(name)")
        try RawSQL.run("GRANT SELECT ON typed_defaults_admin TO \(name)")
    }

    var credentials: (name: String, password: String) { (name, password) }

    /// The server's configuration, logging in as this role.
    var configuration: PostgresConnection.Configuration {
        get throws {
            var configuration = try #require(TestServer.configuration)
            configuration.username = name
            configuration.password = password
            return configuration
        }
    }

    func drop() {
        _ = try? RawSQL.run("DROP OWNED BY \(name)")
        _ = try? RawSQL.run("DROP ROLE \(name)")
    }
}

/// A fleet's administrator's layer kept in the server: members read its defaults and locks, and
/// the server itself refuses a member's write of a locked key, whatever client sends it.
@Suite(.enabled(if: TestServer.isAvailable, "no PostgreSQL server: set PGHOST (.ci/postgres.sh start)"))
struct AdministrationTests {
    /// A suite no other test uses, its tables made sure of.
    private func newSuite(_ label: String = #function) throws -> String {
        let backend = try TestServer.backend(label)
        _ = try backend.load()
        return String(backend.location.split(separator: "#").last ?? "")
    }

    @Test func aMemberReadsTheAdministratorsDefaultsAndLocks() throws {
        let suite = try newSuite()
        try RawSQL.administer(suite, "updateChannel", #""stable""#, locked: false)
        try RawSQL.administer(suite, "telemetry", "false", locked: true)
        try RawSQL.administer(suite, "net.*", nil, locked: true)
        let backend = try TestServer.backend(suite: suite)
        let source = try #require(try backend.loadAdministration()?.source)
        #expect(source.hasSuffix("/typed_defaults_admin#\(suite)"), "\(source)")
        let store = DefaultsStore(backend: backend, durability: .immediate)
        #expect(store[.channel] == "stable")
        #expect(store.valueSource(of: .channel) == .administratorDefault(from: source))
        #expect(store[.telemetry] == false)
        #expect(store.valueSource(of: .telemetry) == .locked(by: source))
        #expect(!store.isWritable(.proxy) && store.isWritable(.free) && store.isWritable(.channel))
        store[.channel] = "beta"
        #expect(store.valueSource(of: .channel) == .user)
    }

    @Test func aLockedKeyIsRefusedByTheStoreAndByTheServerToAnyClient() throws {
        Reports.install()
        let suite = try newSuite()
        try RawSQL.administer(suite, "telemetry", "false", locked: true)
        try RawSQL.administer(suite, "net.*", nil, locked: true)
        let backend = try TestServer.backend(suite: suite)
        let store = DefaultsStore(backend: backend, durability: .immediate)
        store[.telemetry] = true
        store[.proxy] = "socks://elsewhere"
        #expect(Reports.mentioning(suite).count == 2)
        #expect(Reports.mentioning(suite).allSatisfy { $0.contains("is locked by your administrator") })
        let refused = try #require(throws: DefaultsError.self) {
            try store.editStoredValues { values in
                values["free"] = .integer(1)
                values["telemetry"] = .boolean(true)
            }
        }
        guard case .locked(let key, _) = refused else {
            Issue.record("not a lock's refusal: \(refused)")
            return
        }
        #expect(key == "telemetry")
        // The backend itself, without the store's layer, refuses it in the transaction.
        let direct = try #require(throws: DefaultsError.self) {
            try TestServer.backend(suite: suite).commit([:], before: .now + .seconds(5)) { values in
                values["net.proxy"] = .string("socks://elsewhere")
            }
        }
        guard case .locked("net.proxy", _) = direct else {
            Issue.record("not a lock's refusal: \(direct)")
            return
        }
        #expect(try backend.load().isEmpty)
        // A client that is not the library: the server refuses, naming the key.
        let insert = try #require(try RawSQL.run(StorableTextTests.insert, suite, "telemetry", "true"))
        #expect(insert.state == PostgresBackend.lockedState)
        #expect(insert.message.contains("'telemetry'") && insert.message.contains(suite), "\(insert.message)")
        let prefixed = try #require(try RawSQL.run(StorableTextTests.insert, suite, "net.dns", #""1.1.1.1""#))
        #expect(prefixed.state == PostgresBackend.lockedState && prefixed.message.contains("'net.dns'"))
        #expect(try RawSQL.run(StorableTextTests.insert, suite, "free", "1") == nil, "an unlocked key is written")
    }

    @Test func aMembersRoleReadsTheAdministratorsTableAndCannotWriteItNorALockedKey() throws {
        let suite = try newSuite()
        try RawSQL.administer(suite, "telemetry", "false", locked: true)
        let role = try MemberRole()
        defer { role.drop() }
        // The member's own backend connects to the tables the administrator made, creating nothing.
        let member = DefaultsStore(
            backend: try PostgresBackend(configuration: role.configuration, suite: suite), durability: .immediate)
        #expect(member[.telemetry] == false && !member.isWritable(.telemetry))
        member[.free] = 3
        #expect(try TestServer.backend(suite: suite).load() == ["free": .integer(3)])
        let unlock = try #require(
            try RawSQL.run(
                "UPDATE typed_defaults_admin SET locked = false WHERE suite = $1", suite, role: role.credentials))
        #expect(unlock.state == "42501", "permission denied: \(unlock.message)")
        let write = try #require(
            try RawSQL.run(StorableTextTests.insert, suite, "telemetry", "true", role: role.credentials))
        #expect(write.state == PostgresBackend.lockedState, "\(write)")
        let dropped = try #require(
            try RawSQL.run("DROP TRIGGER typed_defaults_locks ON typed_defaults", role: role.credentials))
        #expect(dropped.state == "42501", "\(dropped)")
    }

    @Test func aWriteMadeBeforeTheLockWasHeardOfIsKeptOutAndReportedAndHoldsBackNothing() throws {
        Reports.install()
        let suite = try newSuite()
        let store = DefaultsStore(
            backend: try TestServer.backend(suite: suite), durability: .coalesced(within: .seconds(60)))
        #expect(store.isWritable(.telemetry))
        store[.telemetry] = false
        store[.free] = 2
        try RawSQL.administer(suite, "telemetry", nil, locked: true)
        try store.flush()
        #expect(try TestServer.backend(suite: suite).load() == ["free": .integer(2)])
        let deadline = ContinuousClock.now + .seconds(10)
        while Reports.mentioning(suite).isEmpty, ContinuousClock.now < deadline { usleep(5_000) }
        let reports = Reports.mentioning(suite)
        #expect(reports.count == 1 && reports.allSatisfy { $0.contains("\"telemetry\" is locked") }, "\(reports)")
    }

    @Test func aLockAddedAndRemovedLiveIsSeenByEveryStoreAndTheUsersValueComesBack() async throws {
        let suite = try newSuite()
        let store = DefaultsStore(backend: try TestServer.backend(suite: suite), durability: .immediate)
        store[.telemetry] = false
        // Another store in this process, a member's role on connections of its own: another
        // location, so another state, as another machine's.
        let role = try MemberRole()
        defer { role.drop() }
        let other = DefaultsStore(
            backend: try PostgresBackend(configuration: role.configuration, suite: suite), durability: .immediate)
        #expect(other[.telemetry] == false)
        try RawSQL.administer(suite, "telemetry", "true", locked: true)
        #expect(await eventually { !store.isWritable(.telemetry) && !other.isWritable(.telemetry) })
        #expect(store[.telemetry] == true && other[.telemetry] == true)
        #expect(store.userValue(of: .telemetry) == false, "the user's value is kept under the lock")
        #expect(try TestServer.backend(suite: suite).load() == ["telemetry": .boolean(false)])
        try RawSQL.unadminister(suite, "telemetry")
        #expect(await eventually { store.isWritable(.telemetry) && other.isWritable(.telemetry) })
        #expect(store[.telemetry] == false && other[.telemetry] == false)
        try RawSQL.administer(suite, "updateChannel", #""stable""#, locked: false)
        #expect(await eventually { store[.channel] == "stable" && other[.channel] == "stable" })
    }

    @Test func aLockAddedWhileTwoMachinesRunIsSeenByBoth() async throws {
        let suite = try newSuite()
        let machines = try (0..<2).map { _ in try Machine.Running("observe", suite, "flag", "7") }
        for machine in machines { #expect(await machine.wait(for: "ready", seconds: 30)) }
        try RawSQL.administer(suite, "flag", "7", locked: true)
        for machine in machines {
            #expect(await machine.wait(for: "seen", seconds: 30), "\(machine.lines)")
            let (status, errors) = await machine.finish()
            #expect(status == 0, "\(errors)")
        }
    }

    @Test func theAdministratorsRowsReadAsALayer() throws {
        let rows: [(key: String, value: String?, locked: Bool)] = [
            ("telemetry", "false", true), ("updateChannel", #""stable""#, false), ("net.*", "1", true),
            ("*", nil, true), ("note", nil, false),
        ]
        let layer = try #require(try PostgresRows.administration(rows, source: "s"))
        #expect(layer.lockedKeys == ["telemetry"])
        #expect(layer.lockedPrefixes == ["", "net."])
        #expect(layer.defaults == ["telemetry": .boolean(false), "updateChannel": .string("stable")])
        #expect(try PostgresRows.administration([], source: "s") == nil)
        #expect(throws: RowError.self) { try PostgresRows.administration([("bad", "{", false)], source: "s") }
    }
}

/// Whether `condition` holds within 30 s, looked at every few milliseconds: what the server and
/// other connections do is waited for, never timed.
private func eventually(_ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(30)
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}
