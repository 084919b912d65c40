import Foundation
import Testing
import TypedDefaults
import TypedDefaultsSchema

/// curl, which sends a request exactly as told.
enum Curl {
    static func run(_ arguments: [String]) async throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl"] + arguments
        let output = Pipe()
        process.standardOutput = output
        let reader = PipeReader(output)
        let _: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        await reader.waitForEnd()
        return reader.text
    }
}

/// The page server `typed-defaults serve` runs, `typed-defaults-serve`, as a process, and its
/// HTTP API through a real server on loopback. (The page itself is driven in a real browser by
/// .ci/web-page.py, through `typed-defaults serve`.)
@Suite struct ServeTests {
    /// A running `serve`, the address it printed, and requests to it.
    final class Server: @unchecked Sendable {  // `running` is only read after it started
        let running: Serve.Running
        let base: URL
        let token: String

        init(suite: String, environment: [String: String] = [:]) async throws {
            running = try Serve.Running([suite], environment: environment)
            _ = await running.wait(seconds: 30) { $0.lines.contains { $0.hasPrefix("http://") } }
            let line = try #require(running.lines.first, "serve printed nothing: \(running.text)")
            let parts = line.split(separator: "?token=", maxSplits: 1)
            try #require(parts.count == 2, "not an address with a token: \(line)")
            base = try #require(URL(string: String(parts[0])))
            token = String(parts[1])
        }

        func stop() { running.stop() }

        /// Sends a request with curl, which sends exactly the headers given (`Host` among them);
        /// its status and body.
        func send(
            _ method: String, _ path: String, body: String? = nil, headers: [String: String] = [:],
            bearer: Bool = true
        ) async throws -> (status: Int, body: String) {
            // At most 10 s: a request the server took as an event stream would never end.
            var arguments = ["-s", "-m", "10", "-X", method, "-w", "\n%{http_code}"]
            var all = headers
            if bearer { all["Authorization"] = "Bearer \(token)" }
            for (name, value) in all.sorted(by: { $0.key < $1.key }) { arguments += ["-H", "\(name): \(value)"] }
            if let body { arguments += ["--data-binary", body] }
            arguments.append(base.absoluteString + "/" + path)
            let output = try await Curl.run(arguments)
            let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
            return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
        }

        /// Reads the event stream with curl until a `data:` line contains `text`, or 20 s pass.
        func event(containing text: String, after trigger: @escaping @Sendable () async throws -> Void) async throws
            -> String?
        {
            let stream = Process()
            stream.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            stream.arguments = [
                "curl", "-sN", "-m", "20", "-H", "Authorization: Bearer \(token)", base.absoluteString + "/api/events",
            ]
            let output = Pipe()
            stream.standardOutput = output
            let reader = PipeReader(output)
            try stream.run()
            defer { stream.terminate() }
            // Connected: the stream's first comment.
            let deadline = Date().addingTimeInterval(20)
            while !reader.text.contains(": connected"), Date() < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            try await trigger()
            while Date() < deadline {
                let found = reader.text.split(separator: "\n").first {
                    $0.hasPrefix("data: ") && $0.contains(text)
                }
                if let found { return String(found.dropFirst("data: ".count)) }
                try await Task.sleep(for: .milliseconds(5))
            }
            return nil
        }
    }

    /// The demo's kind of suite: a schema with a range, options and a Codable value.
    func publishedSuite(_ label: String = #function) throws -> (name: String, store: DefaultsStore) {
        let (suite, store) = try Serve.suite(label)
        _ = try DefaultsSchema.publish(ServeTestSettings(store: store))
        return (suite, store)
    }

    @Test(.timeLimit(.minutes(2))) func printsOneAddressAndServesTheAPIWithTheToken() async throws {
        let (suite, store) = try publishedSuite()
        let server = try await Server(suite: suite)
        defer { server.stop() }
        #expect(server.running.lines.count == 1, "\(server.running.text)")
        #expect(server.base.host == "127.0.0.1", "loopback unless told otherwise")
        #expect(server.token.count == 64)

        let missing = try await server.send("GET", "api/settings", bearer: false)
        #expect(missing.status == 401)
        #expect(missing.body == #"{"error":"the token is missing"}"#, "every refusal has one shape")
        #expect(
            try await server.send("GET", "api/settings", headers: ["Authorization": "Bearer wrong"], bearer: false)
                .status == 403)
        let listed = try await server.send("GET", "api/settings")
        #expect(listed.status == 200)
        let keys = try Self.keys(listed.body)
        #expect(Array(keys.prefix(3)) == ["fontSize", "volume", "theme"], "the schema's order")

        // A write checked as `write` checks it; refused, nothing stored.
        let written = try await server.send("PUT", "api/settings/fontSize", body: #"{"value": 16}"#)
        #expect(written.status == 200, "\(written.body)")
        store.refresh()
        #expect(ServeTestSettings(store: store).fontSize == 16)
        let refused = try await server.send("PUT", "api/settings/fontSize", body: #"{"value": 100}"#)
        #expect(refused.status == 422)
        #expect(refused.body == #"{"error":"100 is above the range 8 to 72"}"#)
        #expect(try await server.send("PUT", "api/settings/theme", body: #"{"value": "purple"}"#).status == 422)
        #expect(try await server.send("PUT", "api/settings/nowhere", body: #"{"value": 1}"#).status == 422)
        #expect(try await server.send("PUT", "api/settings/fontSize", body: "not json").status == 400)
        store.refresh()
        #expect(ServeTestSettings(store: store).fontSize == 16)

        // Reset: back to the default.
        let reset = try await server.send("DELETE", "api/settings/fontSize")
        #expect(reset.status == 200)
        #expect(reset.body.contains(#""stored":false"#) && reset.body.contains(#""value":12"#), "\(reset.body)")
    }

    /// A `Codable` value's JSON is stored as the program stores the value, members sorted; a
    /// member named twice is refused, nothing stored.
    @Test(.timeLimit(.minutes(2))) func aCodableValueIsStoredAsTheProgramStoresIt() async throws {
        let (suite, store) = try publishedSuite()
        let server = try await Server(suite: suite)
        defer { server.stop() }
        let written = try await server.send(
            "PUT", "api/settings/profile", body: #"{"value": "{\"zone\": 1, \"name\": \"Grace\"}"}"#)
        #expect(written.status == 200, "\(written.body)")
        #expect(try store.storedValues()["profile"] == .string(#"{"name":"Grace","zone":1}"#))
        let twice = try await server.send(
            "PUT", "api/settings/profile", body: #"{"value": "{\"name\": \"A\", \"name\": \"B\"}"}"#)
        #expect(twice.status == 422)
        #expect(twice.body == #"{"error":"the member \"name\" appears twice"}"#, "\(twice.body)")
        #expect(try store.storedValues()["profile"] == .string(#"{"name":"Grace","zone":1}"#))
    }

    /// A change from another origin is refused; so is one with a cookie and no origin, and a
    /// request that names another host (DNS rebinding).
    @Test(.timeLimit(.minutes(2))) func originsAndHostsAreChecked() async throws {
        let (suite, store) = try publishedSuite()
        let server = try await Server(suite: suite)
        defer { server.stop() }
        let own = "http://\(server.base.host ?? ""):\(server.base.port ?? 0)"
        let foreign = try await server.send(
            "PUT", "api/settings/fontSize", body: #"{"value": 20}"#, headers: ["Origin": "http://evil.example"])
        #expect(foreign.status == 403)
        let cookieOnly = try await server.send(
            "PUT", "api/settings/fontSize", body: #"{"value": 20}"#,
            headers: ["Cookie": "typed_defaults_token_\(server.base.port ?? 0)=\(server.token)"], bearer: false)
        #expect(cookieOnly.status == 403, "a cookie without an Origin is no proof of the page")
        let fromPage = try await server.send(
            "PUT", "api/settings/fontSize", body: #"{"value": 20}"#,
            headers: ["Cookie": "typed_defaults_token_\(server.base.port ?? 0)=\(server.token)", "Origin": own],
            bearer: false)
        #expect(fromPage.status == 200, "\(fromPage.body)")
        let port = server.base.port ?? 0
        for (host, allowed) in [
            ("attacker.example:\(port)", false), ("attacker.example:80", false), ("127.0.0.1:\(port + 1)", false),
            ("localhost:\(port)", true), ("10.0.0.5:\(port)", true), ("[::1]:\(port)", true),
            ("127.00.0.1:\(port)", false),
        ] {
            let answer = try await server.send("GET", "api/settings", headers: ["Host": host])
            #expect(answer.status == (allowed ? 200 : 403), "\(host): \(answer.body)")
        }
        store.refresh()
        #expect(ServeTestSettings(store: store).fontSize == 20)
    }

    /// The first load takes the token from the address and sets an HttpOnly, SameSite=Strict
    /// cookie; the page, its script and its style come from the server itself.
    @Test(.timeLimit(.minutes(2))) func theFirstLoadSetsAStrictCookie() async throws {
        let (suite, _) = try publishedSuite()
        let server = try await Server(suite: suite)
        defer { server.stop() }
        let head = try await Curl.run([
            "-s", "-D", "-", "-o", "/dev/null", "\(server.base.absoluteString)/?token=\(server.token)",
        ])
        #expect(head.hasPrefix("HTTP/1.1 200"), "\(head)")
        let cookie = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") } ?? ""
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "\(head)")
        #expect(head.lowercased().contains("content-security-policy: default-src 'self'"))
        let page = try await server.send("GET", "", bearer: true)
        #expect(page.status == 200)
        #expect(!page.body.contains("https://") && !page.body.contains("//cdn"), "no network but the server's")
        #expect(try await server.send("GET", "page.js").status == 200)
    }

    /// Every open page hears of another process's write (this one's: the server is a process
    /// of its own): the event stream carries its row.
    @Test(.timeLimit(.minutes(2))) func theEventStreamCarriesAnotherProcesssWrite() async throws {
        let (suite, store) = try publishedSuite()
        let server = try await Server(suite: suite)
        defer { server.stop() }
        let event = try await server.event(containing: #""key":"fontSize""#) {
            try store.editStoredValues { $0["fontSize"] = .integer(18) }
        }
        let row = try #require(event, "no event within 20 s")
        #expect(row.contains(#""value":18"#) && row.contains(#""stored":true"#), "\(row)")
    }

    /// Keys and values are text: a key named like markup comes back as a JSON string, exactly.
    @Test(.timeLimit(.minutes(2))) func keysAndValuesAreText() async throws {
        let (suite, store) = try Serve.suite()
        let markup = #"<img src=x onerror="alert(1)">"#
        try store.editStoredValues { $0[DefaultsStoredKey(markup)] = .string("<b>bold</b>") }
        let server = try await Server(suite: suite)
        defer { server.stop() }
        let listed = try await server.send("GET", "api/settings")
        #expect(try Self.keys(listed.body) == [markup])
        #expect(listed.body.contains(#""value":"<b>bold</b>""#))
        let path = "api/settings/" + (markup.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        let written = try await server.send("PUT", path, body: #"{"value": "<i>x</i>"}"#)
        #expect(written.status == 200, "\(written.body)")
        #expect(try store.storedValues()[DefaultsStoredKey(markup)] == .string("<i>x</i>"))
    }

    /// A key the library keeps for itself (the count of migration steps run) is listed as
    /// reserved, and no request changes or removes it: 403, nothing stored or removed, however
    /// the key is spelled in the path. Removing it would run the migration steps again.
    @Test(.timeLimit(.minutes(2))) func theLibrarysOwnKeysAreNeverChanged() async throws {
        let (suite, store) = try publishedSuite()
        try store.migrate([.dropKey("retired")])
        #expect(store.migrationVersion == 1)
        let server = try await Server(suite: suite)
        defer { server.stop() }
        let listed = try await server.send("GET", "api/settings")
        let version = try #require(try Self.row(listed.body, DefaultsStore.migrationVersionKey), "\(listed.body)")
        #expect(version["reserved"] as? Bool == true)
        #expect(version["value"] as? Int == 1)
        #expect(try Self.row(listed.body, "fontSize")?["reserved"] as? Bool == false)

        let refusal =
            #"{"error":"TypedDefaults.schemaVersion is the TypedDefaults library's own key: the page does not change it"}"#
        for path in ["api/settings/TypedDefaults.schemaVersion", "api/settings/TypedDefaults%2EschemaVersion"] {
            for value in ["0", "1", "\"x\""] {
                let written = try await server.send("PUT", path, body: #"{"value": \#(value)}"#)
                #expect(written.status == 403, "\(path) \(value)")
                #expect(written.body == refusal)
            }
            let reset = try await server.send("DELETE", path)
            #expect(reset.status == 403, "\(path)")
            #expect(reset.body == refusal)
        }
        // Another key of the library's, not stored: refused as well, nothing stored.
        let other = try await server.send("PUT", "api/settings/TypedDefaults.other", body: #"{"value": 1}"#)
        #expect(other.status == 403, "\(other.body)")
        store.refresh()
        #expect(store.migrationVersion == 1)
        #expect(try store.storedValues()[DefaultsStoredKey(DefaultsStore.migrationVersionKey)] == .integer(1))
        #expect(try store.storedValues()["TypedDefaults.other"] == nil)
    }

    /// A row has a default only when the schema declares the key with one: an optional's `nil`
    /// is `null`, a key the schema does not declare has neither a default nor a formatted one.
    /// A number's range comes with its step.
    @Test(.timeLimit(.minutes(2))) func aRowsDefaultAndRangeAreTheSchemas() async throws {
        let (suite, store) = try publishedSuite()
        try store.editStoredValues { $0["undeclared"] = .integer(7) }
        let server = try await Server(suite: suite)
        defer { server.stop() }
        let listed = try await server.send("GET", "api/settings")
        let undeclared = try #require(try Self.row(listed.body, "undeclared"), "\(listed.body)")
        #expect(undeclared["declared"] as? Bool == false)
        #expect(undeclared["default"] == nil && undeclared["formattedDefault"] == nil, "\(undeclared)")
        let nickname = try #require(try Self.row(listed.body, "nickname"), "\(listed.body)")
        #expect(nickname["declared"] as? Bool == true)
        #expect(nickname["default"] is NSNull, "an optional's nil default is null: \(nickname)")
        let fontSize = try #require(try Self.row(listed.body, "fontSize"))
        #expect(fontSize["default"] as? Int == 12)
        let range = try #require(fontSize["range"] as? [String: Any], "\(fontSize)")
        #expect(range["min"] as? Int == 8 && range["max"] as? Int == 72 && range["step"] as? Int == 2, "\(range)")
        #expect(range["text"] as? String == "8 to 72, step 2", "as a refusal names it")
        let volume = try #require(try Self.row(listed.body, "volume")?["range"] as? [String: Any])
        #expect(volume["text"] as? String == "0.0 to 1.0, step 0.1", "\(volume)")
    }

    /// At most 64 event streams are open at once; a stream whose client went away is let go of
    /// at the next change it is sent, and the next client is served.
    @Test(.timeLimit(.minutes(2))) func eventStreamsAreBounded() async throws {
        let (suite, _) = try publishedSuite()
        let server = try await Server(suite: suite)
        defer { server.stop() }
        let port = try #require(server.base.port)
        let request =
            "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
            + "Authorization: Bearer \(server.token)\r\n\r\n"
        var streams: [RawConnection] = []
        for _ in 0..<64 {
            let stream = try RawConnection(port: port, request: request)
            #expect(stream.status() == 200)
            streams.append(stream)
        }
        let refused = try RawConnection(port: port, request: request)
        #expect(refused.status() == 503, "the 65th stream is refused")
        streams.removeAll()  // closes them
        // A change is sent to every stream: those whose clients went away fail the write and end.
        #expect(try await server.send("PUT", "api/settings/fontSize", body: #"{"value": 14}"#).status == 200)
        var again = 0
        let deadline = Date().addingTimeInterval(20)
        while again != 200, Date() < deadline {
            again = try RawConnection(port: port, request: request).status()
            if again != 200 { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(again == 200, "a stream is served again once the closed ones are let go of")
        let event = try await server.event(containing: #""key":"fontSize""#) {
            _ = try await server.send("PUT", "api/settings/fontSize", body: #"{"value": 16}"#)
        }
        #expect(event != nil, "a new stream is served once the closed ones are let go of")
    }

    /// A command line of the wrong shape is one line and exit status 64, as the tool gives;
    /// a suite name the library refuses is one line and 1. Nothing is served.
    @Test(arguments: [
        (["suite", "--port", "70000"], 64, "--port takes 0 to 65535, not 70000"),
        (["suite", "--port"], 64, "missing value for '--port'"),
        (["suite", "--host", ""], 64, "--host needs an address"),
        (["suite", "--verbose"], 64, "unknown option '--verbose'"),
        (["suite", "other"], 64, "unexpected argument 'other'"),
        ([], 64, "missing expected argument '<suite>'"),
        (["../escape"], 1, #""../escape" is not a suite name"#),
    ])
    func aBadCommandLineIsOneLineAndServesNothing(arguments: [String], status: Int32, message: String) async throws {
        let result = try await Serve.run(arguments)
        #expect(result.status == status, "\(result.errors)")
        #expect(result.errors.hasPrefix("typed-defaults: ") && result.errors.contains(message), "\(result.errors)")
        #expect(result.errors.split(separator: "\n").count == 1, "one line: \(result.errors)")
        #expect(result.output.isEmpty, "no address: \(result.output)")
    }

    /// The row of `key` in a `GET /api/settings` answer.
    static func row(_ body: String, _ key: String) throws -> [String: Any]? {
        let root = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        let rows = root?["settings"] as? [[String: Any]] ?? []
        return rows.first { $0["key"] as? String == key }
    }

    static func keys(_ body: String) throws -> [String] {
        let root = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        let rows = root?["settings"] as? [[String: Any]] ?? []
        return rows.compactMap { $0["key"] as? String }
    }
}
