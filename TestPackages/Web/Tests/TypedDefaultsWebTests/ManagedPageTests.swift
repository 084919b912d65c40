import Foundation
import Synchronization
import Testing
import TypedDefaults
import TypedDefaultsSchema
import TypedDefaultsWeb

/// A managed suite on the page: each row says where its value came from, a locked row is
/// read-only and names the file that locks it, bounds are shown, and a request that bypasses the
/// page to change what the administrator forbids is refused with 403, nothing stored.
@Suite struct ManagedPageTests {
    static let volume = DefaultsKey<Int>("volume", default: 20)
    static let proxy = DefaultsKey<String>("net.proxy", default: "")
    static let telemetry = DefaultsKey<Bool>("telemetry", default: true)

    /// A file name with markup in it: it comes back as text, exactly.
    static let file = "/etc/<b>admin</b>/page.locks"

    /// The page in this process, over `store`, on loopback.
    final class InProcess: Sendable {
        let task: Task<Void, any Error>
        let address: String

        init(store: DefaultsStore) async throws {
            let started = Mutex<String?>(nil)
            task = Task { try await SettingsServer.run(store: store) { url in started.withLock { $0 = url } } }
            let deadline = Date().addingTimeInterval(30)
            while started.withLock({ $0 }) == nil, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
            address = try #require(started.withLock { $0 }, "the page did not start")
        }

        deinit { task.cancel() }

        /// Sends a request with the token as a bearer token; its status and body.
        func send(_ method: String, _ path: String, body: String? = nil) async throws -> (status: Int, body: String) {
            let parts = address.split(separator: "/?token=", maxSplits: 1)
            try #require(parts.count == 2, "not an address with a token: \(address)")
            var arguments = [
                "-s", "-m", "10", "-X", method, "-w", "\n%{http_code}", "-H", "Authorization: Bearer \(parts[1])",
            ]
            if let body { arguments += ["--data-binary", body] }
            arguments.append("\(parts[0])/\(path)")
            let lines = try await Curl.run(arguments).split(separator: "\n", omittingEmptySubsequences: false)
            return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
        }
    }

    /// A store in memory whose administrator locks `net.*`, locks `telemetry` off and keeps
    /// `volume` in 1 to 50.
    static func managedStore() throws -> DefaultsStore {
        var administration = DefaultsAdministration(source: file)
        administration.lock(keysWithPrefix: "net.")
        administration.lock(telemetry, to: false)
        administration.limit(volume, to: 1...50)
        let store = DefaultsStore.inMemory(administration: administration)
        try store.editStoredValues { $0["volume"] = .integer(10) }
        return store
    }

    @Test(.timeLimit(.minutes(2))) func aForgedWriteOfALockedKeyIs403AndStoresNothing() async throws {
        let store = try Self.managedStore()
        let page = try await InProcess(store: store)
        let written = try await page.send("PUT", "api/settings/net.proxy", body: #"{"value": "evil.example"}"#)
        #expect(written.status == 403, "\(written.body)")
        let expected =
            #"{"error":"\"net.proxy\" is locked by your administrator in \#(Self.file); nothing was written"}"#
        #expect(written.body == expected)
        #expect(store.storedValue(forKey: "net.proxy") == nil, "nothing stored")
        #expect(try await page.send("DELETE", "api/settings/net.proxy").status == 403, "nor removed")
        #expect(store.storedValue(forKey: "net.proxy") == nil)
    }

    @Test(.timeLimit(.minutes(2))) func aValueOutsideTheBoundsIs403AndTheValueStays() async throws {
        let store = try Self.managedStore()
        let page = try await InProcess(store: store)
        let refused = try await page.send("PUT", "api/settings/volume", body: #"{"value": 99}"#)
        #expect(refused.status == 403, "\(refused.body)")
        #expect(
            refused.body.contains(#"\"volume\" must be 1 to 50"#) && refused.body.contains(Self.file), "\(refused.body)"
        )
        #expect(store.storedValue(forKey: "volume") == .integer(10))
        let inside = try await page.send("PUT", "api/settings/volume", body: #"{"value": 40}"#)
        #expect(inside.status == 200, "\(inside.body)")
        #expect(store.storedValue(forKey: "volume") == .integer(40))
    }

    /// A bounded row gives its bounds, the file and the range's ends for the control; the user's
    /// value says it is the user's.
    @Test(.timeLimit(.minutes(2))) func aBoundedRowGivesItsBoundsAndSource() async throws {
        let page = try await InProcess(store: try Self.managedStore())
        let listed = try await page.send("GET", "api/settings")
        let row = try #require(try ServeTests.row(listed.body, "volume"), "\(listed.body)")
        #expect(row["source"] as? String == "user" && row["sourceText"] as? String == "the user's", "\(row)")
        #expect(row["locked"] as? Bool == false)
        let bounds = try #require(row["bounds"] as? [String: Any], "\(row)")
        #expect(bounds["text"] as? String == "1 to 50" && bounds["source"] as? String == Self.file, "\(bounds)")
        #expect(bounds["min"] as? Int == 1 && bounds["max"] as? Int == 50, "\(bounds)")
        // The file name is a JSON string, markup and all: the script sets it as text.
        #expect(listed.body.contains(#""source":"\#(Self.file)""#))
    }

    /// A locked row, listed though the user stores nothing and no schema declares it: read-only,
    /// the administrator's value, and the lock's file as a JSON string, markup and all.
    @Test(.timeLimit(.minutes(2))) func aLockedRowNamesItsFile() async throws {
        let page = try await InProcess(store: try Self.managedStore())
        let listed = try await page.send("GET", "api/settings")
        let row = try #require(try ServeTests.row(listed.body, "telemetry"), "\(listed.body)")
        #expect(row["locked"] as? Bool == true && row["source"] as? String == "locked", "\(row)")
        #expect(row["lockedBy"] as? String == Self.file && row["value"] as? Bool == false, "\(row)")
        #expect(row["sourceText"] as? String == "locked by \(Self.file)")
        #expect(listed.body.contains(#""lockedBy":"\#(Self.file)""#), "text, never markup the page would parse")
    }

    /// The script that renders the rows disables a locked row's control and reset, says
    /// "Managed by your administrator" and sets the lock's file as text, never as markup.
    @Test(.timeLimit(.minutes(2))) func thePageRendersALockedRowReadOnly() async throws {
        let page = try await InProcess(store: try Self.managedStore())
        let script = try await page.send("GET", "page.js")
        #expect(script.status == 200)
        for part in [
            "input.disabled = true;", "reset.disabled = true;", #"text: "Managed by your administrator""#,
            #"element("code", { class: "lock-file", text: row.lockedBy })"#,
        ] {
            #expect(script.body.contains(part), "\(part)")
        }
        #expect(!script.body.contains("innerHTML"), "nothing is set as markup")
    }

    /// An administrator's folder of the test's own, its name with markup in it, for a server
    /// process started with `XDG_CONFIG_DIRS` naming it (this process's folders are read once).
    static func adminFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("typed-defaults-admin-\(UUID().uuidString.prefix(8))")
            .appendingPathComponent("<i>admin</i>")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Through a real server with the administrator's files: a locked row is read-only, names its
    /// file, shows the administrator's value and keeps the user's; a forged write is 403.
    @Test(.timeLimit(.minutes(2))) func aLockedRowFromTheAdministratorsFiles() async throws {
        let (suite, store) = try Serve.suite()
        _ = try DefaultsSchema.publish(ServeTestSettings(store: store))
        try store.editStoredValues {
            $0["theme"] = .string("light")
            $0["fontSize"] = .integer(40)
        }
        let admin = try Self.adminFolder()
        defer { try? FileManager.default.removeItem(at: admin.deletingLastPathComponent()) }
        let locks = admin.appendingPathComponent("\(suite).locks")
        try "# the page's test\ntheme\n".write(to: locks, atomically: true, encoding: .utf8)
        let defaults = try PropertyListSerialization.data(fromPropertyList: ["theme": "dark"], format: .xml, options: 0)
        try defaults.write(to: admin.appendingPathComponent("\(suite).plist"))
        let limits: [String: Any] = [
            "fontSize": ["minimum": 10, "maximum": 20], "theme": ["allowed": ["light", "dark"]],
        ]
        try PropertyListSerialization.data(fromPropertyList: limits, format: .xml, options: 0)
            .write(to: admin.appendingPathComponent("\(suite).bounds"))
        let server = try await ServeTests.Server(suite: suite, environment: ["XDG_CONFIG_DIRS": admin.path])
        defer { server.stop() }

        let listed = try await server.send("GET", "api/settings")
        let theme = try #require(try ServeTests.row(listed.body, "theme"), "\(listed.body)")
        #expect(theme["locked"] as? Bool == true && theme["source"] as? String == "locked", "\(theme)")
        #expect(theme["lockedBy"] as? String == locks.path, "the file, markup and all, as text: \(theme)")
        #expect(theme["value"] as? String == "dark", "the administrator's value is in force: \(theme)")
        #expect(theme["stored"] as? Bool == true, "the user's own value is kept")
        let allowed = try #require(theme["bounds"] as? [String: Any], "\(theme)")
        #expect(allowed["options"] as? [Int] == [1, 2], "light and dark of system, light, dark: \(allowed)")
        let fontSize = try #require(try ServeTests.row(listed.body, "fontSize"))
        #expect(fontSize["value"] as? Int == 20, "the user's 40 reads as the range's nearest end: \(fontSize)")
        let bounds = try #require(fontSize["bounds"] as? [String: Any], "\(fontSize)")
        #expect(bounds["min"] as? Int == 10 && bounds["max"] as? Int == 20, "\(bounds)")

        let forged = try await server.send("PUT", "api/settings/theme", body: #"{"value": "system"}"#)
        #expect(forged.status == 403, "\(forged.body)")
        #expect(forged.body.contains(#"\"theme\" is locked"#) && forged.body.contains(locks.path), "\(forged.body)")
        let outside = try await server.send("PUT", "api/settings/fontSize", body: #"{"value": 30}"#)
        #expect(outside.status == 403, "\(outside.body)")
        store.refresh()
        #expect(try store.storedValues()["theme"] == .string("light"), "the user's value unchanged")
        #expect(try store.storedValues()["fontSize"] == .integer(40), "nothing stored")
    }

    /// A lock that appears or goes while the page is open is an event of the row: its read-only
    /// state changes without a reload.
    @Test(.timeLimit(.minutes(2))) func aLockThatComesOrGoesIsAnEvent() async throws {
        let (suite, store) = try Serve.suite()
        _ = try DefaultsSchema.publish(ServeTestSettings(store: store))
        let admin = try Self.adminFolder()
        defer { try? FileManager.default.removeItem(at: admin.deletingLastPathComponent()) }
        let locks = admin.appendingPathComponent("\(suite).locks")
        let server = try await ServeTests.Server(suite: suite, environment: ["XDG_CONFIG_DIRS": admin.path])
        defer { server.stop() }
        #expect(
            try ServeTests.row(try await server.send("GET", "api/settings").body, "volume")?["locked"] as? Bool == false
        )
        let locked = try await server.event(containing: #""locked":true"#) {
            try "volume\n".write(to: locks, atomically: true, encoding: .utf8)
        }
        #expect(locked?.contains(#""key":"volume""#) == true, "\(locked ?? "no event")")
        let unlocked = try await server.event(containing: #""key":"volume""#) {
            try FileManager.default.removeItem(at: locks)
        }
        #expect(unlocked?.contains(#""locked":false"#) == true, "\(unlocked ?? "no event")")
    }
}
