#if Web
    import Foundation
    import Hummingbird
    import HummingbirdCore
    import Logging
    import NIOCore
    import NIOHTTPTypes
    import Synchronization
    import TypedDefaults
    import TypedDefaultsSchema

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Serves a suite's settings page on its own, as `typed-defaults serve` does.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    public enum SettingsServer {
        /// Runs the page for `store` on `host`:`port` until the task is cancelled; `started` is
        /// told the page's address, with its token, once the server listens.
        /// - Parameters:
        ///   - store: the suite shown and edited.
        ///   - host: the address to listen on: loopback unless told otherwise.
        ///   - port: the port; 0 for any free one.
        ///   - started: called once with `http://HOST:PORT/?token=TOKEN`.
        public static func run(
            store: DefaultsStore, host: String = "127.0.0.1", port: Int = 0,
            started: @escaping @Sendable (String) -> Void
        ) async throws {
            let token = SettingsPage.makeToken()
            let router = Router()
            // Set once the port is known: until then no request can arrive.
            let hosts = HostList()
            var page = SettingsPage(store: store, token: token, allowedHosts: nil)
            // Requests reach the page with the body the server read them with: a client that
            // disconnects ends its event stream at once.
            page.endsStreamsAtDisconnect = true
            router.middlewares.add(HostCheck(hosts: hosts))
            page.addRoutes(to: router)
            var logger = Logger(label: "typed-defaults.serve")
            logger.logLevel = .warning
            let app = Application(
                router: router,
                // Connections that send nothing for 20 s are closed (an open page's event stream
                // sends a comment every 15 s), and at most 512 are open at once: a local process
                // cannot hold the server's file descriptors. A request whose body is over the limit
                // is answered 413 and its connection closed: the rest of its body is never read.
                server: .http1(
                    configuration: .init(
                        additionalChannelHandlers: [CloseAfterRefusedBody()], idleTimeout: .seconds(20))),
                configuration: .init(
                    address: .hostname(host, port: port), availableConnectionsDelegate: MaximumAvailableConnections(512)
                ),
                onServerRunning: { channel in
                    let bound = channel.localAddress?.port ?? port
                    hosts.set(port: bound)
                    let shown = host.contains(":") ? "[\(host)]" : host
                    started("http://\(shown):\(bound)/?token=\(token)")
                }, logger: logger)
            try await app.runService(gracefulShutdownSignals: [])
        }
    }

    /// The `Host` values the server answers to: its port, named by `localhost` or by an IP
    /// address. A name (`attacker.example`) is refused: it is how another site reaches a server on
    /// loopback (DNS rebinding), while a page on an address names that address.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    final class HostList: Sendable {
        private let port = Mutex<Int?>(nil)

        func set(port: Int) { self.port.withLock { $0 = port } }

        func allows(_ authority: String) -> Bool {
            guard let port = port.withLock({ $0 }), let colon = authority.lastIndex(of: ":"),
                authority[authority.index(after: colon)...] == "\(port)"
            else { return false }
            let host = authority[..<colon]
            if host == "localhost" { return true }
            if host.hasPrefix("["), host.hasSuffix("]") {
                var address = in6_addr()
                return inet_pton(AF_INET6, String(host.dropFirst().dropLast()), &address) == 1
            }
            let parts = host.split(separator: ".", omittingEmptySubsequences: false)
            return parts.count == 4
                && parts.allSatisfy { part in
                    !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isNumber)
                        && (part.count == 1 || part.first != "0")
                        && (Int(part) ?? 256) <= 255
                }
        }

        var description: String {
            port.withLock { port in port.map { "localhost:\($0) or an IP address with port \($0)" } ?? "no one yet" }
        }
    }

    /// Refuses a request whose `Host` is not the server's own: another site's page cannot reach the
    /// server by a name it controls that points at loopback (DNS rebinding).
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    struct HostCheck<Context: RequestContext>: RouterMiddleware {
        let hosts: HostList

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
            async throws
            -> Response
        {
            guard hosts.allows(request.head.authority ?? "") else {
                let reason = DefaultsStoredValue.string("this server answers to \(hosts.description)").json()
                return Response(
                    status: .forbidden, headers: SettingsPage.headers(type: "application/json"),
                    body: .init(byteBuffer: ByteBuffer(string: "{\"error\":\(reason)}")))
            }
            return try await next(request, context)
        }
    }

    /// Closes a connection once a response refusing its request's body as too large (413) is sent,
    /// and says so (`Connection: close`): the rest of that body, which may never end, is not read.
    /// The server would otherwise read and discard it before the connection's next request.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    final class CloseAfterRefusedBody: ChannelOutboundHandler, RemovableChannelHandler {
        typealias OutboundIn = HTTPResponsePart
        typealias OutboundOut = HTTPResponsePart

        private var closing = false

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            switch unwrapOutboundIn(data) {
            case .head(var head) where head.status == .contentTooLarge:
                closing = true
                head.headerFields[.connection] = "close"
                context.write(wrapOutboundOut(.head(head)), promise: promise)
            case .end where closing:
                let written = context.writeAndFlush(data)
                written.cascade(to: promise)
                written.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            default:
                context.write(data, promise: promise)
            }
        }
    }
#endif
