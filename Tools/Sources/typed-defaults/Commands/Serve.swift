import ArgumentParser
import Dispatch
import Foundation
import TypedDefaults
import TypedDefaultsWeb

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve a settings page for a suite, in the browser, live.",
        discussion: """
            Prints one line, the page's address with a fresh token (http://127.0.0.1:PORT/?token=…), \
            then serves the page until Ctrl-C or SIGTERM. One row per setting of the published \
            schema, with a control of its kind, then the keys the schema does not know; a change \
            is stored when a control changes, checked as write checks it, and every open page \
            shows what another process, the tool or another machine writes, as it happens.

            Every request needs the token (the address sets a cookie); the server listens on \
            loopback unless --host says otherwise.

            Examples:
              typed-defaults serve com.example.app
              typed-defaults serve com.example.app --port 8080
            """)

    @Argument(help: "The suite.") var suite: String
    @Option(help: "The port to listen on; 0 for any free one.") var port = 0
    @Option(help: "The address to listen on.") var host = "127.0.0.1"

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port takes 0 to 65535, not \(port)") }
        guard !host.isEmpty else { throw ValidationError("--host needs an address") }
    }

    func run() throws {
        if !["127.0.0.1", "::1", "localhost"].contains(host) {
            Output.error(
                "typed-defaults: serving on \(host), beyond this machine: the token and every value travel "
                    + "unencrypted; put a TLS proxy in front, or keep to loopback")
        }
        let store = try Suites.store(suite)
        _ = try Suites.values(of: store)  // a suite that cannot be read is an error now, not a blank page
        let signals = Serve.stopOnSignals()
        let (host, port) = (self.host, self.port)
        Task {
            do {
                try await SettingsServer.run(store: store, host: host, port: port) { address in Output.line(address) }
            } catch {
                Output.error("typed-defaults: cannot serve on \(host):\(port): \(error)")
                Foundation.exit(1)
            }
            Foundation.exit(0)
        }
        withExtendedLifetime(signals) { dispatchMain() }
    }

    /// Ends the process on SIGINT or SIGTERM: every write was committed when it was made.
    private static func stopOnSignals() -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
            source.setEventHandler { Foundation.exit(0) }
            source.resume()
            return source
        }
    }
}
