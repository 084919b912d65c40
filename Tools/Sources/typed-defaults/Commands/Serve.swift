import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the page server, `typed-defaults-serve`, a program of its own: the tool builds with
/// swift-argument-parser alone, and only those who serve pages fetch and build Hummingbird and
/// SwiftNIO for it (`bash Tools/install.sh --serve`). This command checks its arguments and
/// puts the server in its place (`exec`), so the server is the process a script started: its
/// output, its exit status and the signals that stop it are the command's.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a settings page for a suite, in the browser, live.",
        discussion: """
            Prints one line, the page's address with a fresh token (http://127.0.0.1:PORT/?token=…), \
            then serves the page until Ctrl-C or SIGTERM. One row per setting of the published \
            schema, with a control of its kind, then the keys the schema does not know; a change \
            is stored when a control changes, checked as write checks it, and every open page \
            shows what another process, the tool or another machine writes, as it happens.

            Every request needs the token (the address sets a cookie); the server listens on \
            loopback unless --host says otherwise.

            The page server is a program of its own, typed-defaults-serve, found beside \
            typed-defaults or on PATH: build and install it from a clone of TypedDefaults with \
            bash Tools/install.sh --serve (it fetches and builds Hummingbird and SwiftNIO, which \
            the rest of the tool does without).

            Examples:
              typed-defaults serve com.example.app
              typed-defaults serve com.example.app --port 8080
            """)

    /// The page server's name, beside the tool or on `PATH`.
    static let server = "typed-defaults-serve"

    @Argument(help: "The suite.") var suite: String
    @Option(help: "The port to listen on; 0 for any free one.") var port = 0
    @Option(help: "The address to listen on.") var host = "127.0.0.1"

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port takes 0 to 65535, not \(port)") }
        guard !host.isEmpty else { throw ValidationError("--host needs an address") }
    }

    func run() throws {
        guard let server = Self.findServer() else { throw ToolError(Self.missingServer()) }
        // `--` before the suite, so that a name starting with a dash is no option.
        let arguments = [server, "--port", "\(port)", "--host", host, "--", suite]
        let argv = arguments.map { strdup($0) } + [nil]
        execv(server, argv)
        let reason = String(cString: strerror(errno))
        throw ToolError("cannot run \(server): \(reason)")
    }

    /// The server beside this executable (an installed pair, or one build folder), else the
    /// first on `PATH`.
    static func findServer() -> String? {
        var folders: [String] = []
        if let own = ownExecutable() { folders.append((own as NSString).deletingLastPathComponent) }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        folders += path.split(separator: ":").map(String.init)
        return folders.lazy.map { ($0 as NSString).appendingPathComponent(server) }.first(where: isExecutableFile)
    }

    private static func ownExecutable() -> String? {
        #if os(Linux)
            return (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        #else
            return Bundle.main.executablePath
        #endif
    }

    private static func isExecutableFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && access(path, X_OK) == 0
    }

    /// What to do when the server is nowhere to be found: the exact command, with the clone's
    /// path when the tool was built from one that is still there, and the folder this tool was
    /// installed in when it is not the script's default.
    static func missingServer() -> String {
        let clone = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = clone.appendingPathComponent("Tools/install.sh").path
        let folder = ownExecutable().map { ($0 as NSString).deletingLastPathComponent }
        let home = ProcessInfo.processInfo.environment["HOME"].map { $0 + "/.local/bin" }
        // Installed elsewhere than the default: the server goes beside it. Run from a build
        // folder: both go to the default, on PATH.
        let prefix = folder.flatMap { $0 == home || $0.contains("/.build/") ? nil : $0 }.map { " \($0)" } ?? ""
        let install =
            FileManager.default.fileExists(atPath: script)
            ? "bash \(script) --serve\(prefix)"
            : "bash Tools/install.sh --serve\(prefix), from a clone of TypedDefaults,"
        let beside = folder.map { " (\($0))" } ?? ""
        return "serve runs the page server \(server), which is neither beside typed-defaults\(beside) nor on PATH: "
            + "it is built apart, as it needs Hummingbird and SwiftNIO (minutes to build); \(install) "
            + "builds it and installs it with typed-defaults"
    }
}
