import Foundation
import Hummingbird
import Logging
import Synchronization
import TypedDefaults

/// Serves a suite's settings page on its own, as `typed-defaults serve` does.
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
        // Filled in once the port is known: until then no request can arrive.
        let hosts = HostList()
        let page = SettingsPage(store: store, token: token, allowedHosts: nil)
        router.middlewares.add(HostCheck(hosts: hosts))
        page.addRoutes(to: router)
        var logger = Logger(label: "typed-defaults.serve")
        logger.logLevel = .warning
        let app = Application(
            router: router, configuration: .init(address: .hostname(host, port: port)),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                let shown = host.contains(":") ? "[\(host)]" : host
                hosts.set(["\(shown):\(bound)", "localhost:\(bound)"])
                started("http://\(shown):\(bound)/?token=\(token)")
            }, logger: logger)
        try await app.runService(gracefulShutdownSignals: [])
    }
}

/// The `Host` values the server answers to, known once it listens.
final class HostList: Sendable {
    private let hosts = Mutex<Set<String>>([])
    func set(_ new: Set<String>) { hosts.withLock { $0 = new } }
    func contains(_ host: String) -> Bool { hosts.withLock { $0.contains(host) } }
    var all: [String] { hosts.withLock { $0.sorted() } }
}

/// Refuses a request whose `Host` is not the server's own: another site's page cannot reach the
/// server by a name it controls that points at loopback (DNS rebinding).
struct HostCheck<Context: RequestContext>: RouterMiddleware {
    let hosts: HostList

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard hosts.contains(request.head.authority ?? "") else {
            throw HTTPError(.forbidden, message: "this server answers to \(hosts.all.joined(separator: ", "))")
        }
        return try await next(request, context)
    }
}
