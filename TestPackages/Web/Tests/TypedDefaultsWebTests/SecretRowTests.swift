import Foundation
import Synchronization
import Testing
import TypedDefaults
import TypedDefaultsSchema
import TypedDefaultsSecrets

/// A secret on the page, against a real keyring daemon of the test's own: its row says whether
/// the keyring holds it, never its value; a write goes to the keyring, never the suite.
@Suite(.enabled(if: KeyringDaemon.isInstalled || ProcessInfo.processInfo.environment["CI"] != nil))
struct SecretRowTests {
    static let secret = "tok-\(UUID().uuidString)"

    @Test(.timeLimit(.minutes(2))) func theRowIsWriteOnlyAndWritesGoToTheKeyring() async throws {
        let daemon = try KeyringDaemon()
        let (suite, store) = try Serve.suite()
        _ = try DefaultsSchema.publish(SecretTestAccount(suite: suite, store: store, keyring: daemon.keyring))
        let item = KeyringItem(service: suite, account: "apiToken")
        let server = try await ServeTests.Server(
            suite: suite, environment: ["DBUS_SESSION_BUS_ADDRESS": daemon.address])
        defer { server.stop() }
        var bodies: [String] = []

        let listed = try await server.send("GET", "api/settings")
        bodies.append(listed.body)
        let row = try #require(try Self.row("apiToken", in: listed.body))
        #expect(row["control"] as? String == "secret")
        #expect(row["secret"] as? String == "not set")
        #expect(row["value"] is NSNull)
        #expect(row["title"] as? String == "API token")

        let written = try await server.send(
            "PUT", "api/settings/apiToken", body: #"{"value": "\#(Self.secret)"}"#)
        bodies.append(written.body)
        #expect(written.status == 200, "\(written.body)")
        #expect(written.body.contains(#""secret":"set""#), "\(written.body)")
        #expect(try daemon.keyring.secret(for: item) == Data(Self.secret.utf8))
        #expect(try store.storedValues().isEmpty, "nothing in the suite")

        // Only text: a number, an empty string are refused, the secret kept.
        for body in [#"{"value": 5}"#, #"{"value": ""}"#] {
            let refused = try await server.send("PUT", "api/settings/apiToken", body: body)
            bodies.append(refused.body)
            #expect(refused.status == 422, "\(refused.body)")
        }
        #expect(try daemon.keyring.secret(for: item) == Data(Self.secret.utf8))

        // A copy in clear in the suite: said, never shown.
        try store.editStoredValues { $0[DefaultsStoredKey("apiToken")] = .string("clear-\(Self.secret)") }
        let again = try await server.send("GET", "api/settings")
        bodies.append(again.body)
        let clearRow = try #require(try Self.row("apiToken", in: again.body))
        #expect(clearRow["stored"] as? Bool == true && clearRow["secret"] as? String == "set")

        let removed = try await server.send("DELETE", "api/settings/apiToken")
        bodies.append(removed.body)
        #expect(removed.status == 200 && removed.body.contains(#""secret":"not set""#), "\(removed.body)")
        #expect(try !daemon.keyring.containsSecret(for: item))
        #expect(try store.storedValues().isEmpty, "the copy in clear removed too")

        // The keyring tells no one: the page's other viewers hear of a secret stored through it.
        let told = try await server.event(containing: #""key":"apiToken""#) {
            _ = try await server.send("PUT", "api/settings/apiToken", body: #"{"value": "again-\#(Self.secret)"}"#)
        }
        #expect(told?.contains(#""secret":"set""#) == true, "\(told ?? "no event")")
        bodies.append(told ?? "")
        for body in bodies { #expect(!body.contains(Self.secret)) }
    }

    @Test(.timeLimit(.minutes(2))) func withoutAKeyringAWriteIsRefusedAndStoresNothing() async throws {
        let (suite, store) = try Serve.suite()
        _ = try DefaultsSchema.publish(
            SecretTestAccount(suite: suite, store: store, keyring: SystemKeyring(timeout: .seconds(1))))
        let missing = Serve.folder.appendingPathComponent("no-bus-\(UUID())").path
        let server = try await ServeTests.Server(
            suite: suite, environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(missing)"])
        defer { server.stop() }
        let row = try #require(try Self.row("apiToken", in: try await server.send("GET", "api/settings").body))
        #expect((row["secret"] as? String)?.hasPrefix("unknown: ") == true, "\(row)")
        let refused = try await server.send("PUT", "api/settings/apiToken", body: #"{"value": "\#(Self.secret)"}"#)
        #expect(refused.status == 503, "\(refused.body)")
        #expect(!refused.body.contains(Self.secret))
        #expect(try store.storedValues().isEmpty)
    }

    /// A keyring that starts locked lists none of its items: the row says locked, never "not
    /// set", and neither a removal nor a write claims to have done what it could not.
    @Test(.timeLimit(.minutes(2))) func aKeyringThatStartsLockedIsShownLockedNotUnset() async throws {
        let daemon = try KeyringDaemon()
        let (suite, store) = try Serve.suite()
        _ = try DefaultsSchema.publish(SecretTestAccount(suite: suite, store: store, keyring: daemon.keyring))
        let item = KeyringItem(service: suite, account: "apiToken")
        try daemon.keyring.setSecret(Data(Self.secret.utf8), for: item)
        try daemon.restart(unlocking: false)
        let server = try await ServeTests.Server(
            suite: suite, environment: ["DBUS_SESSION_BUS_ADDRESS": daemon.address])
        defer { server.stop() }
        let listed = try await server.send("GET", "api/settings")
        let row = try #require(try Self.row("apiToken", in: listed.body))
        let state = row["secret"] as? String ?? ""
        #expect(state.hasPrefix("unknown: ") && state.contains("locked"), "\(row)")
        let removed = try await server.send("DELETE", "api/settings/apiToken")
        #expect(removed.status == 503 && removed.body.contains("locked"), "\(removed.body)")
        let written = try await server.send("PUT", "api/settings/apiToken", body: #"{"value": "other"}"#)
        #expect(written.status == 503 && written.body.contains("locked"), "\(written.body)")
        for body in [listed.body, removed.body, written.body] {
            #expect(!body.contains("not set") && !body.contains(Self.secret))
        }
        try daemon.restart(unlocking: true)
        #expect(try daemon.keyring.secret(for: item) == Data(Self.secret.utf8))
    }

    @Test(.timeLimit(.minutes(2))) func aSecretsFieldOfAStalePageIsNeverWrittenInTheSuite() async throws {
        let daemon = try KeyringDaemon()
        let (suite, store) = try Serve.suite()
        _ = try DefaultsSchema.publish(SecretTestAccount(suite: suite, store: store, keyring: daemon.keyring))
        let server = try await ServeTests.Server(
            suite: suite, environment: ["DBUS_SESSION_BUS_ADDRESS": daemon.address])
        defer { server.stop() }
        // As the field sends it, to a key the schema (since the page loaded) declares plain.
        let refused = try await server.send("PUT", "api/settings/server", body: #"{"value": "x", "secret": true}"#)
        #expect(refused.status == 409, "\(refused.body)")
        #expect(try store.storedValues().isEmpty)
    }

    /// A keyring that never answers holds each secret's request until its timeout, on a thread of
    /// its own: a request that needs no keyring is answered before them.
    @Test(.timeLimit(.minutes(2))) func aHungKeyringHoldsNoOtherRequest() async throws {
        let (suite, store) = try Serve.suite()
        _ = try DefaultsSchema.publish(SecretTestAccount(suite: suite, store: store, keyring: MemoryKeyring()))
        let path = Serve.folder.appendingPathComponent("silent-\(UUID().uuidString.prefix(8))").path
        let silent = try SilentSocket(path: path, backlog: 16)
        defer { silent.close() }
        let server = try await ServeTests.Server(
            suite: suite, environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(path)"])
        defer { server.stop() }
        let finished = Received<String>()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<4 {
                group.addTask {
                    _ = try await server.send("GET", "api/settings")
                    finished.append("get \(index)")
                }
            }
            try await Task.sleep(for: .milliseconds(300))
            let written = try await server.send("PUT", "api/settings/server", body: #"{"value": "api.example.org"}"#)
            finished.append("put \(written.status)")
            try await group.waitForAll()
        }
        #expect(finished.all.first == "put 200", "\(finished.all)")
    }

    /// What finished, in order, from any task.
    final class Received<Element: Sendable>: Sendable {
        private let items = Mutex<[Element]>([])
        func append(_ item: Element) { items.withLock { $0.append(item) } }
        var all: [Element] { items.withLock { $0 } }
    }

    static func row(_ key: String, in body: String) throws -> [String: Any]? {
        let root = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        let rows = root?["settings"] as? [[String: Any]] ?? []
        return rows.first { $0["key"] as? String == key }
    }
}
