import Foundation
import NIOPosix
import PostgresNIO
import Testing
import TypedDefaults

@testable import TypedDefaultsPostgres

/// What the server cannot store is refused where it is written, so that it holds back no other
/// change; what it stores is not refused. Each form is first sent to the real server raw, so the
/// checks follow the server rather than a guess.
@Suite(.enabled(if: TestServer.isAvailable, "no PostgreSQL server: set PGHOST (.ci/postgres.sh start)"))
struct StorableTextTests {
    /// What the server answers to `sql` with `values` bound as text, on a connection made as
    /// `backend` makes its own: `nil` when it took them, else its message.
    ///
    /// - Parameters:
    ///   - sql: The statement, with `$1`… for `values`.
    ///   - backend: Whose connection settings to use.
    ///   - database: Another database of the same server.
    static func refusal(
        of sql: String, _ values: String..., as backend: PostgresBackend, database: String? = nil
    ) throws -> String? {
        var configuration = backend.configuration
        if let database { configuration.database = database }
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
            return error.serverInfo?[.message] ?? "\(error)"
        }
    }

    /// The table's insert, as the backend's upsert sends suite, key and value.
    static let insert = "INSERT INTO typed_defaults (suite, key, value) VALUES ($1, $2, $3)"

    @Test func aKeyHoldingNULIsRefusedWhenWrittenAndHoldsBackNoOtherChange() throws {
        Reports.install()
        let backend = try TestServer.backend()
        let suite = String(backend.location.split(separator: "#").last ?? "")
        let store = DefaultsStore(backend: backend, durability: .coalesced(within: .milliseconds(20)))
        let id = UUID().uuidString
        let nulKey = DefaultsKey<String>("nul\u{0}key-\(id)", default: "none")
        store[DefaultsKey<Int>("limit", default: 0)] = 2
        store[nulKey] = "x"
        store[DefaultsKey<String>("name", default: "")] = "Ada"
        #expect(store[nulKey] == "none")
        try store.flush()
        // Another machine sees the other keys.
        #expect(try TestServer.backend(suite: suite).load() == ["limit": .integer(2), "name": .string("Ada")])
        let reports = Reports.mentioning(id)
        #expect(reports.count == 1, "\(reports)")
        #expect(reports.allSatisfy { $0.contains("U+0000") && $0.contains("nul\\u{0}key") }, "\(reports)")
    }

    /// A value changed to one Swift's `==` takes for it — a string in its other normalization,
    /// `-0.0` for `0.0` — is written: the commit compared values with `==` and left such a row as
    /// it was (the class of defect the fuzz-import target found in the file store, Fuzz/README.md).
    @Test func aValueChangedToAnEqualLookingOneIsWritten() throws {
        let backend = try TestServer.backend()
        let suite = String(backend.location.split(separator: "#").last ?? "")
        _ = try backend.commit(["name": .string("caf\u{E9}"), "zero": .real(0)], before: .now + .seconds(5)) {
            _ in
        }
        _ = try backend.commit(
            ["name": .string("cafe\u{301}"), "zero": .real(-0.0)], before: .now + .seconds(5)
        ) { _ in }
        let stored = try TestServer.backend(suite: suite).load()
        guard case .string(let name)? = stored["name"], case .real(let zero)? = stored["zero"] else {
            Issue.record("\(stored)")
            return
        }
        #expect(Array(name.unicodeScalars) == Array("cafe\u{301}".unicodeScalars))
        #expect(zero == 0 && zero.sign == .minus)
    }

    @Test func anEditThatMakesAKeyHoldingNULIsRefusedAtCommitStoringNothingAndNotRetried() throws {
        let backend = try TestServer.backend()
        let suite = String(backend.location.split(separator: "#").last ?? "")
        _ = try backend.commit(["limit": .integer(1)], before: .now + .seconds(5)) { _ in }
        var runs = 0
        let error = try #require(throws: DefaultsError.self) {
            try backend.commit(["limit": .integer(2)], before: .now + .seconds(5)) { values in
                runs += 1
                values["migrated\u{0}"] = .string("x")
            }
        }
        #expect(runs == 1)
        #expect(!PostgresBackend.isPassing(error))
        guard case .encodingFailed(let key, let underlying) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(key == "migrated\\u{0}")
        #expect("\(underlying)".contains("U+0000"), "\(underlying)")
        #expect(try TestServer.backend(suite: suite).load() == ["limit": .integer(1)])
        // A change of the commit itself, and a store's edit (as a migration makes), likewise.
        #expect(throws: DefaultsError.self) {
            try backend.commit(["a\u{0}": .integer(2)], before: .now + .seconds(5)) { _ in }
        }
        let store = DefaultsStore(backend: backend, durability: .coalesced(within: .seconds(60)))
        store[DefaultsKey<Int>("limit", default: 0)] = 3
        #expect(throws: DefaultsError.self) {
            try store.editStoredValues { values in values["b\u{0}"] = .integer(1) }
        }
        #expect(try TestServer.backend(suite: suite).load() == ["limit": .integer(1)])
        // The write that was pending when the edit failed is still committed.
        try store.flush()
        #expect(try TestServer.backend(suite: suite).load() == ["limit": .integer(3)])
    }

    @Test func theServerRefusesNULInKeysAndSuitesSentRawAndStoresItInValuesSentAsJSON() throws {
        let backend = try TestServer.backend()
        let suite = String(backend.location.split(separator: "#").last ?? "")
        _ = try backend.load()
        let nul = "a\u{0}b"
        // A key and a suite name are sent as they are: the server refuses them, and so do we.
        let keyRefusal = try Self.refusal(of: Self.insert, suite, nul, "1", as: backend)
        #expect(keyRefusal?.contains("0x00") == true, "\(keyRefusal ?? "accepted")")
        #expect(throws: DefaultsError.self) { try backend.check(.integer(1), forKey: DefaultsStoredKey(nul)) }
        let suiteRefusal = try Self.refusal(of: Self.insert, "s\u{0}\(suite)", "k", "1", as: backend)
        #expect(suiteRefusal?.contains("0x00") == true, "\(suiteRefusal ?? "accepted")")
        let configuration = try #require(TestServer.configuration)
        #expect(throws: DefaultsError.self) { try PostgresBackend(configuration: configuration, suite: "s\u{0}") }
        // A string value, at any depth, and a nested dictionary's key are sent as their JSON,
        // which writes U+0000 as \u0000: the server refuses them raw and stores them so.
        let values: [DefaultsStoredKey: DefaultsStoredValue] = [
            "text": .string(nul),
            "nested": .array([.dictionary([DefaultsStoredKey(nul): .dictionary(["k": .string(nul)])])]),
        ]
        for (key, value) in values {
            let raw = value.json().replacingOccurrences(of: "\\u0000", with: "\u{0}")
            #expect(try Self.refusal(of: Self.insert, suite, "raw.\(key)", raw, as: backend) != nil, "\(key)")
            #expect(try Self.refusal(of: Self.insert, suite, "json.\(key)", value.json(), as: backend) == nil)
            try backend.check(value, forKey: key)
        }
        _ = try backend.commit(values, before: .now + .seconds(5)) { _ in }
        let stored = try TestServer.backend(suite: suite).load()
        #expect(stored["text"] == values["text"])
        #expect(stored["nested"] == values["nested"])
        // What a reader casting the column to jsonb meets (the Backends article says so).
        #expect(try Self.refusal(of: "SELECT $1::jsonb", DefaultsStoredValue.string(nul).json(), as: backend) != nil)
    }

    @Test func whatTheServerStoresIsNotRefused() throws {
        let configuration = try #require(TestServer.configuration)
        let texts = [
            "\u{1}\u{1F}\u{7F}", "\t\n\r", "\u{80}\u{85}\u{9F}", "\u{FFFF}", "\u{FFFE}", "\u{FEFF}", "\u{E000}",
            "\u{10FFFF}", "🙂", "👩‍👩‍👧", "e\u{301}", "\u{2028}\u{2029}",
        ]
        for text in texts {
            let suite = "tests.accepted.\(text).\(UUID())"
            let backend = try PostgresBackend(configuration: configuration, suite: suite)
            _ = try backend.load()
            #expect(try Self.refusal(of: Self.insert, suite, "raw\(text)", "1", as: backend) == nil, "\(text)")
            let key = DefaultsStoredKey(text)
            try backend.check(.string(text), forKey: key)
            _ = try backend.commit([key: .dictionary([key: .string(text)])], before: .now + .seconds(5)) {
                _ in
            }
            let stored = try TestServer.backend(suite: suite).load()
            // Keys compare by scalars: `==` on strings would take e + U+0301 for é.
            #expect(Set(stored.keys) == [key, DefaultsStoredKey("raw\(text)")], "\(text)")
            let scalars = { (text: String) in text.unicodeScalars.map(\.value) }
            let json = DefaultsStoredValue.dictionary([key: .string(text)]).json()
            #expect(stored[key].map { scalars($0.json()) } == scalars(json), "\(text)")
        }
    }

    /// Rows another writer stored under "caf\u{E9}" and "cafe\u{301}" are two keys with two values,
    /// whatever a store on them reads or writes (one read answered for both before).
    @Test func keysThatDifferOnlyInNormalizationAreTwoRowsEachReadAsItsOwn() throws {
        let (nfc, nfd) = ("caf\u{E9}", "cafe\u{301}")
        let suite = "tests.normalization.\(UUID())"
        let backend = try TestServer.backend(suite: suite)
        _ = try backend.load()
        #expect(try Self.refusal(of: Self.insert, suite, nfc, #""one""#, as: backend) == nil)
        #expect(try Self.refusal(of: Self.insert, suite, nfd, #""two""#, as: backend) == nil)
        let store = DefaultsStore(backend: backend, durability: .immediate)
        let precomposed = UserDefault(wrappedValue: "", nfc, store: store)
        let decomposed = UserDefault(wrappedValue: "", nfd, store: store)
        #expect(precomposed.wrappedValue == "one" && decomposed.wrappedValue == "two")
        UserDefault(wrappedValue: 0, "unrelated", store: store).wrappedValue = 1
        decomposed.wrappedValue = "deux"
        #expect(precomposed.wrappedValue == "one")
        let stored = try TestServer.backend(suite: suite).load()
        #expect(
            stored == [
                DefaultsStoredKey(nfc): .string("one"), DefaultsStoredKey(nfd): .string("deux"),
                "unrelated": .integer(1),
            ])
    }

    @Test func aDatabaseThatCannotHoldEveryCharacterIsRefusedWhenConnected() throws {
        let backend = try TestServer.backend()
        let configuration = try #require(TestServer.configuration)
        let name = "td_\(UUID().uuidString.prefix(8).lowercased())"
        let (latin, ascii) = ("\(name)_latin1", "\(name)_sql_ascii")
        for (database, encoding) in [(latin, "LATIN1"), (ascii, "SQL_ASCII")] {
            let created = try Self.refusal(
                of: "CREATE DATABASE \(database) ENCODING '\(encoding)' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0",
                as: backend)
            try #require(created == nil, "\(created ?? "")")
        }
        defer {
            for database in [latin, ascii] {
                _ = try? Self.refusal(of: "DROP DATABASE IF EXISTS \(database) WITH (FORCE)", as: backend)
            }
        }
        // LATIN1 has no 🙂: a key or value holding one could never be committed.
        let refusal = try Self.refusal(of: "SELECT $1::text", "🙂", as: backend, database: latin)
        #expect(refusal?.contains("no equivalent") == true, "\(refusal ?? "accepted")")
        var onLatin = configuration
        onLatin.database = latin
        let refused = try PostgresBackend(configuration: onLatin, suite: "s")
        let error = try #require(throws: DefaultsError.self) { try refused.load() }
        #expect("\(error)".contains("LATIN1"), "\(error)")
        let commitError = try #require(throws: DefaultsError.self) {
            try refused.commit(["k": .integer(1)], before: .now + .seconds(5)) { _ in }
        }
        #expect(!PostgresBackend.isPassing(commitError))
        // SQL_ASCII stores the bytes it is given, every one but 0.
        var onASCII = configuration
        onASCII.database = ascii
        let taken = try PostgresBackend(configuration: onASCII, suite: "s🙂")
        _ = try taken.commit(["k🙂": .string("é🙂")], before: .now + .seconds(5)) { _ in }
        #expect(try taken.load() == ["k🙂": .string("é🙂")])
    }
}
