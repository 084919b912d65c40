#if Web
    import Foundation
    import Hummingbird
    import TypedDefaults
    import TypedDefaultsSchema
    import TypedDefaultsSecrets

    /// A settings page for one suite, and the HTTP API it uses: every setting of the suite's
    /// published schema with a control of its kind, live as the suite changes.
    ///
    /// ```swift
    /// let page = SettingsPage(store: try DefaultsStore(suiteName: "com.example.app"), token: SettingsPage.makeToken())
    /// let router = Router()
    /// page.addRoutes(to: router)
    /// ```
    ///
    /// Routes, all under the router they are added to:
    /// - `GET /`: the page (HTML, its script and style from memory: no network but the server's);
    /// - `GET /api/settings`: every row: key, title, info, control, value and default (in the exact
    ///   JSON form of `typed-defaults read --json`), whether it is declared, reserved and stored,
    ///   options, range, shape;
    /// - `PUT /api/settings/{key}` with `{"value": …}`: checked against the schema as `typed-defaults
    ///   write` checks it; 422 with `{"error": "…"}` when refused, 413 for a body over 1 MiB; nothing
    ///   stored when refused;
    /// - `DELETE /api/settings/{key}`: back to the default;
    /// - a secret the schema declares (`@Secret`): its row says whether the keyring holds it, never
    ///   its value; `PUT` with `{"value": "…"}` stores a new one in the keyring (never the suite),
    ///   `DELETE` removes it; 503 with `{"error": "…"}` when the keyring cannot; a `PUT` with
    ///   `"secret": true` of a key the schema no longer declares secret is 409, nothing stored;
    /// - a `PUT` or `DELETE` of a key an administrator locked, or a `PUT` of a value outside the
    ///   administrator's bounds: 403 with `{"error": "…"}` naming the key and the file, nothing
    ///   stored or removed; each row says where its value came from, and which file locks or
    ///   bounds it;
    /// - a `PUT` or `DELETE` of a key the library keeps for itself (named `TypedDefaults.…`, as
    ///   `TypedDefaults.schemaVersion`): 403 with `{"error": "…"}`, nothing stored or removed;
    /// - `GET /api/events`: the rows that change, as server-sent events.
    ///
    /// Every request needs the token: `?token=` on the page's first load (which sets an `HttpOnly;
    /// SameSite=Strict` cookie), the cookie, or `Authorization: Bearer`; without it, 401, and with
    /// a wrong one, 403. A request that changes something must come from the page's own origin
    /// (`Origin` is checked; without one, only a bearer token is accepted), and every request's
    /// `Host` must be the server's, so another site cannot reach it through DNS rebinding. Keys and
    /// values are always shown as text, never as markup.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    public struct SettingsPage: Sendable {
        public let store: DefaultsStore
        let token: String
        let hub: EventHub
        /// The hosts a request may name (`127.0.0.1:8080`, `localhost:8080`); `nil` accepts any,
        /// for a program that mounts the page behind its own checks.
        let allowedHosts: Set<String>?
        /// Where the suite's secrets are kept.
        let keyring: any Keyring

        /// A page for `store`.
        /// - Parameters:
        ///   - store: the suite shown and edited.
        ///   - token: what every request must carry; ``makeToken()`` makes a fresh one.
        ///   - allowedHosts: the `Host` values a request may carry (`127.0.0.1:8080`); `nil` for any.
        ///   - keyring: where the secrets the suite's schema declares are kept; the system's unless given.
        public init(
            store: DefaultsStore, token: String, allowedHosts: Set<String>? = nil,
            keyring: any Keyring = SystemKeyring()
        ) {
            self.store = store
            self.token = token
            self.allowedHosts = allowedHosts
            self.keyring = keyring
            let rows = SettingRows.reader(store, keyring: keyring)
            hub = EventHub(store: store) { key in (try? rows())?.row(DefaultsStoredKey(key)) }
        }

        /// 32 random bytes, in hexadecimal.
        public static func makeToken() -> String {
            var generator = SystemRandomNumberGenerator()
            return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        }

        /// The largest request body read: a setting's JSON, far above any real one.
        static let bodyLimit = 1 << 20

        /// Whether an event stream ends the moment its client disconnects, told by the request's
        /// connection closing: only where requests reach the page with the body the server read them
        /// with (``SettingsServer`` is such a server); elsewhere a stream ends at the first keep-alive
        /// comment or change that fails to reach its client.
        var endsStreamsAtDisconnect = false

        /// Adds the page's routes to `router`.
        public func addRoutes<Context: RequestContext>(to router: Router<Context>) {
            router.get("/") { request, _ in
                await answer(request, queryToken: request.uri.queryParameters.get("token")) { try page(request) }
            }
            router.get("page.js") { request, _ in
                await answer(request) { asset(PageAssets.script, type: "text/javascript; charset=utf-8") }
            }
            router.get("page.css") { request, _ in
                await answer(request) { asset(PageAssets.style, type: "text/css; charset=utf-8") }
            }
            router.get("api/settings") { request, _ in
                await answer(request) {
                    try await Self.blocking {
                        json(.ok, "{\"suite\":\(text(suiteName)),\"settings\":\(try rows().json())}")
                    }
                }
            }
            router.put("api/settings/:key") { request, context in
                await answer(request, changing: true) {
                    var body = try await Self.body(of: request)
                    let (key, text) = (try Self.key(context), body.readString(length: body.readableBytes) ?? "")
                    return try await Self.blocking { write(key, body: text) }
                }
            }
            router.delete("api/settings/:key") { request, context in
                await answer(request, changing: true) {
                    let key = try Self.key(context)
                    return try await Self.blocking { reset(key) }
                }
            }
            router.get("api/events") { request, _ in
                await answer(request, queryToken: request.uri.queryParameters.get("token")) { events(request) }
            }
        }

        /// Runs `work`, which waits on the disk or the keyring (a keyring that hangs, up to its
        /// timeout), on a thread of its own: not on one of the few that serve every request.
        static func blocking<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
            try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
            }
        }

        /// Runs `body` for a request that passed ``authorize(_:changing:queryToken:)``; every
        /// failure, the checks' included, is `{"error": "…"}` with its status.
        private func answer(
            _ request: Request, changing: Bool = false, queryToken: String? = nil,
            _ body: () async throws -> Response
        ) async -> Response {
            do {
                try authorize(request, changing: changing, queryToken: queryToken)
                return try await body()
            } catch let error as HTTPError {
                return refusal(error.status, error.body ?? "\(error.status.reasonPhrase)")
            } catch {
                return refusal(.internalServerError, "\(error)")
            }
        }

        /// The request's body, up to ``bodyLimit`` bytes; a longer one, announced by its length or
        /// found while reading, is 413 with an error that names the limit.
        private static func body(of request: Request) async throws -> ByteBuffer {
            let refusal = HTTPError(
                .contentTooLarge, message: "the request body is over the limit of \(bodyLimit) bytes")
            if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > bodyLimit { throw refusal }
            do {
                return try await request.body.collect(upTo: bodyLimit)
            } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
                throw refusal
            }
        }

        /// The key a path names: its last segment, percent-decoded (a key may hold any character).
        private static func key(_ context: some RequestContext) throws -> String {
            let raw = try context.parameters.require("key")
            guard let key = raw.removingPercentEncoding else {
                throw HTTPError(.badRequest, message: "the key is not percent-encoded UTF-8")
            }
            return key
        }

        private var suiteName: String {
            store.suiteName ?? "suite"
        }

        // MARK: Handlers

        private func page(_ request: Request) throws -> Response {
            var response = Response(
                status: .ok, headers: Self.headers(type: "text/html; charset=utf-8"),
                body: .init(byteBuffer: ByteBuffer(string: PageAssets.html(title: suiteName))))
            if request.uri.queryParameters.get("token") != nil {
                response.setCookie(
                    Cookie(name: Self.cookieName(request), value: token, path: "/", httpOnly: true, sameSite: .strict))
            }
            return response
        }

        private func asset(_ text: String, type: String) -> Response {
            Response(status: .ok, headers: Self.headers(type: type), body: .init(byteBuffer: ByteBuffer(string: text)))
        }

        /// The cookie's name, which names the server's port: a browser sends a host's cookies to
        /// every port of it, and two servers on one host must not take each other's.
        static func cookieName(_ request: Request) -> String {
            let port = (request.head.authority ?? "").split(separator: ":").last.map(String.init) ?? ""
            return "typed_defaults_token_" + port.filter(\.isNumber)
        }

        func rows() throws -> SettingRows {
            do {
                return try SettingRows.reader(store, keyring: keyring)()
            } catch {
                throw HTTPError(.internalServerError, message: "\(error)")
            }
        }

        /// 403 for a key the library keeps for itself (``SettingRows/isReserved(_:)``): no request
        /// changes or removes it, whatever its body.
        private func refusingReserved(_ key: String) -> Response? {
            guard SettingRows.isReserved(DefaultsStoredKey(key)) else { return nil }
            return refusal(.forbidden, "\(key) is the TypedDefaults library's own key: the page does not change it")
        }

        private func write(_ key: String, body: String) -> Response {
            if let refused = refusingReserved(key) { return refused }
            let value: DefaultsStoredValue
            var sentAsSecret = false
            do {
                guard case .dictionary(let members) = try DefaultsStoredValue(json: body), let given = members["value"]
                else {
                    return refusal(.badRequest, "the body must be {\"value\": …}")
                }
                value = given
                sentAsSecret = members["secret"] == .boolean(true)
            } catch {
                return refusal(.badRequest, "the body is not JSON: \(error)")
            }
            do {
                let rows = try rows()
                let declared = rows.schema?[key]
                if let declared, declared.isSecret { return writeSecret(key, value, rows) }
                if let refused = refusingLocked(key) { return refused }
                // Typed into a secret's field of a page loaded before the schema changed: never
                // written in the suite, where it would be in clear.
                if sentAsSecret {
                    return refusal(.conflict, "\(key) is no longer a secret the schema declares; reload the page")
                }
                if rows.schema != nil, declared == nil, rows.values[DefaultsStoredKey(key)] == nil {
                    return refusal(.unprocessableContent, "the schema declares no key \(key)")
                }
                var checked = declared.map { Self.asDeclared(value, $0) } ?? value
                if let declared {
                    // A Codable value's JSON as the program stores it, members sorted.
                    do {
                        checked = try declared.valueType.storedForm(of: checked)
                    } catch {
                        return refusal(.unprocessableContent, "\(error)")
                    }
                }
                if let problem = declared?.problem(with: checked) { return refusal(.unprocessableContent, problem) }
                try store.editStoredValues { $0[DefaultsStoredKey(key)] = checked }
                return json(.ok, try self.rows().row(DefaultsStoredKey(key)))
            } catch let error as DefaultsError {
                // Past the store's size limit: the server could not store it, and says why.
                if case .sizeLimitExceeded = error {
                    return refusal(.init(code: 507, reasonPhrase: "Insufficient Storage"), "\(error)")
                }
                return Self.administratorsRefusal(error).map { refusal(.forbidden, $0) }
                    ?? refusal(.internalServerError, "\(error)")
            } catch {
                return refusal(.internalServerError, "\(error)")
            }
        }

        private func reset(_ key: String) -> Response {
            if let refused = refusingReserved(key) { return refused }
            do {
                let current = try rows()
                if let declared = current.schema?[key], declared.isSecret {
                    do {
                        try keyring.removeSecret(for: current.item(key))
                    } catch {
                        return refusal(.serviceUnavailable, "the secret \(key) was not removed: \(error)")
                    }
                    hub.changed(key)
                } else if let refused = refusingLocked(key) {
                    return refused
                }
                try store.editStoredValues { $0[DefaultsStoredKey(key)] = nil }
                return json(.ok, try rows().row(DefaultsStoredKey(key)))
            } catch {
                return Self.administratorsRefusal(error).map { refusal(.forbidden, $0) }
                    ?? refusal(.internalServerError, "\(error)")
            }
        }

        /// 403 for a key an administrator locked: a request that bypasses the page's disabled
        /// control changes nothing, and hears which file locks it.
        private func refusingLocked(_ key: String) -> Response? {
            guard let file = store.administration(ofKey: key).lockedBy else { return nil }
            return refusal(.forbidden, "\(DefaultsError.locked(key: key, path: file))")
        }

        /// The store's refusal of an edit an administrator's lock or bounds forbid, in words that
        /// name the key and the file; `nil` for any other error.
        static func administratorsRefusal(_ error: any Error) -> String? {
            switch error as? DefaultsError {
            case .locked?, .outsideAdministratorBounds?: "\(error)"
            default: nil
            }
        }

        /// Stores a secret in the keyring: text, never in the suite.
        private func writeSecret(_ key: String, _ value: DefaultsStoredValue, _ rows: SettingRows) -> Response {
            guard case .string(let secret) = value, !secret.isEmpty else {
                return refusal(.unprocessableContent, "a secret is text: {\"value\": \"…\"}, not empty")
            }
            do {
                try keyring.setSecret(Data(secret.utf8), for: rows.item(key))
                // The keyring tells no one: the other pages open on the suite hear it here.
                hub.changed(key)
                // The suite is as it was read: the row asks the keyring for its state.
                return json(.ok, rows.row(DefaultsStoredKey(key)))
            } catch {
                return refusal(.serviceUnavailable, "the secret \(key) was not stored: \(error)")
            }
        }

        /// A value as the declared type stores it: a whole number given for a float is a float (a
        /// page's JSON has one kind of number; `typed-defaults write` reads `2` as 2.0 there too).
        static func asDeclared(_ value: DefaultsStoredValue, _ declared: DefaultsSchema.Key) -> DefaultsStoredValue {
            switch (SettingRows.unwrapped(declared.valueType), value) {
            case (.real, .integer(let number)): .real(Double(number))
            case (.real, .unsignedInteger(let number)): .real(Double(number))
            default: value
            }
        }

        // MARK: Access

        /// Throws 401 without a token, 403 with a wrong one, from another host, or, for a change,
        /// from another origin.
        func authorize(_ request: Request, changing: Bool = false, queryToken: String? = nil) throws {
            if let allowedHosts, !allowedHosts.contains(request.head.authority ?? "") {
                throw HTTPError(
                    .forbidden, message: "this server answers to \(allowedHosts.sorted().joined(separator: ", "))")
            }
            let bearer = request.headers[.authorization].flatMap { value -> String? in
                value.hasPrefix("Bearer ") ? String(value.dropFirst("Bearer ".count)) : nil
            }
            let cookie = request.cookies[Self.cookieName(request)]?.value
            guard let given = queryToken ?? bearer ?? cookie else {
                throw HTTPError(.unauthorized, message: "the token is missing")
            }
            guard Self.same(given, token) else { throw HTTPError(.forbidden, message: "the token is wrong") }
            guard changing else { return }
            if let origin = request.headers[.origin] {
                let own = request.head.authority ?? ""
                guard origin == "http://\(own)" else {
                    throw HTTPError(.forbidden, message: "a change must come from the page itself")
                }
            } else if bearer == nil {
                throw HTTPError(.forbidden, message: "a change without an Origin needs the token as a bearer token")
            }
        }

        /// Compares in time independent of where the strings differ.
        private static func same(_ first: String, _ second: String) -> Bool {
            let (a, b) = (Array(first.utf8), Array(second.utf8))
            guard a.count == b.count else { return false }
            return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
        }

        // MARK: Responses

        static func headers(type: String) -> HTTPFields {
            var fields: HTTPFields = [.contentType: type, .cacheControl: "no-store"]
            // Scripts, styles and connections from the server itself only; never in a frame.
            fields[.contentSecurityPolicy] = "default-src 'self'; frame-ancestors 'none'"
            fields[.xContentTypeOptions] = "nosniff"
            return fields
        }

        func json(_ status: HTTPResponse.Status, _ text: String) -> Response {
            Response(
                status: status, headers: Self.headers(type: "application/json"),
                body: .init(byteBuffer: ByteBuffer(string: text)))
        }

        func refusal(_ status: HTTPResponse.Status, _ reason: String) -> Response {
            json(status, "{\"error\":\(text(reason))}")
        }

        func text(_ string: String) -> String {
            DefaultsStoredValue.string(string).json()
        }
    }
#endif
