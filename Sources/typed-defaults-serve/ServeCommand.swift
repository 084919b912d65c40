#if Web
    import Dispatch
    import Foundation
    import TypedDefaults
    import TypedDefaultsWeb

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// `typed-defaults-serve SUITE [--port N] [--host ADDRESS]`: the settings page of one suite.
    /// `typed-defaults serve` runs it, with the arguments it checked; it is a program of its own so
    /// that the tool builds with swift-argument-parser alone, and this one alone fetches the
    /// server's packages. Its command line is three options, read here by hand for that reason.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    struct ServeCommand {
        var suite: String
        var port = 0
        var host = "127.0.0.1"

        static let usage = "usage: typed-defaults serve <suite> [--port <port>] [--host <host>]"

        static let help = """
            Serve a settings page for a suite, in the browser, live.

            \(usage)

            Prints one line, the page's address with a fresh token (http://127.0.0.1:PORT/?token=…), \
            then serves the page until Ctrl-C or SIGTERM. Every request needs the token (the \
            address sets a cookie); the server listens on loopback unless --host says otherwise.

            Options:
              --port <port>   The port to listen on; 0 for any free one. (default: 0)
              --host <host>   The address to listen on. (default: 127.0.0.1)
              -h, --help      Show help information.
            """

        /// What the command line asks for.
        enum Parsed {
            case serve(ServeCommand)
            case help
        }

        /// A command line of the wrong shape: exit status 64, as the tool gives.
        struct UsageError: Error, CustomStringConvertible {
            let description: String
        }

        /// Reads the arguments, without the program's name.
        static func parse(_ arguments: [String]) throws(UsageError) -> Parsed {
            var suite: String?
            var port: Int?
            var host: String?
            var index = 0
            var optionsEnded = false
            while index < arguments.count {
                let argument = arguments[index]
                index += 1
                if !optionsEnded, argument == "-h" || argument == "--help" { return .help }
                if !optionsEnded, argument == "--" {
                    optionsEnded = true
                    continue
                }
                if !optionsEnded, argument.hasPrefix("-"), argument.count > 1 {
                    let (name, inline) = split(argument)
                    guard name == "--port" || name == "--host" else {
                        throw UsageError(description: "unknown option '\(name)'")
                    }
                    let value: String
                    if let inline {
                        value = inline
                    } else {
                        guard index < arguments.count else {
                            throw UsageError(description: "missing value for '\(name)'")
                        }
                        value = arguments[index]
                        index += 1
                    }
                    if name == "--port" {
                        guard let number = Int(value), (0...65_535).contains(number) else {
                            throw UsageError(description: "--port takes 0 to 65535, not \(value)")
                        }
                        port = number
                    } else {
                        guard !value.isEmpty else { throw UsageError(description: "--host needs an address") }
                        host = value
                    }
                    continue
                }
                guard suite == nil else { throw UsageError(description: "unexpected argument '\(argument)'") }
                suite = argument
            }
            guard let suite else { throw UsageError(description: "missing expected argument '<suite>'") }
            return .serve(ServeCommand(suite: suite, port: port ?? 0, host: host ?? "127.0.0.1"))
        }

        /// `--port=80` as a name and a value.
        private static func split(_ argument: String) -> (String, String?) {
            guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
            return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
        }

        /// Serves the suite until SIGINT or SIGTERM; returns only by throwing.
        func run() throws {
            if !["127.0.0.1", "::1", "localhost"].contains(host) {
                Self.error(
                    "typed-defaults: serving on \(host), beyond this machine: the token and every value travel "
                        + "unencrypted; put a TLS proxy in front, or keep to loopback")
            }
            let store: DefaultsStore
            do {
                store = try DefaultsStore(suiteName: suite, durability: .immediate)
                // A suite that cannot be read is an error now, not a blank page.
                _ = try store.storedValues()
            } catch {
                throw Failure(description: Self.message(for: error))
            }
            let signals = Self.stopOnSignals()
            let (host, port) = (self.host, self.port)
            Task {
                do {
                    try await SettingsServer.run(store: store, host: host, port: port) { address in
                        FileHandle.standardOutput.write(Data((address + "\n").utf8))
                    }
                } catch {
                    Self.error("typed-defaults: cannot serve on \(host):\(port): \(error)")
                    exit(1)
                }
                exit(0)
            }
            withExtendedLifetime(signals) { dispatchMain() }
        }

        /// What the library's error means to someone at a shell, as `typed-defaults` says it.
        static func message(for error: DefaultsError) -> String {
            if case .invalidSuiteName(let name, let reason) = error {
                return "\(String(reflecting: name)) is not a suite name: \(reason)"
            }
            return error.description
        }

        /// A failure that is not the command line's shape: exit status 1.
        struct Failure: Error, CustomStringConvertible {
            let description: String
        }

        static func error(_ text: String) {
            FileHandle.standardError.write(Data((text + "\n").utf8))
        }

        /// Ends the process on SIGINT or SIGTERM: every write was committed when it was made.
        private static func stopOnSignals() -> [any DispatchSourceSignal] {
            [SIGINT, SIGTERM].map { signalNumber in
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
                source.setEventHandler { exit(0) }
                source.resume()
                return source
            }
        }
    }
#endif
