import Foundation
import Testing
import TypedDefaults

/// `typed-defaults serve` runs the page server, `typed-defaults-serve`, a program of its own
/// (the package `TestPackages/Web/`, whose tests serve real pages): found beside the tool or on `PATH`, it
/// takes the tool's place with the arguments checked; missing, the tool says how to build it.
@Suite struct ServeCommandTests {
    /// A folder holding a stand-in server, a script that prints its arguments and what runs it.
    static func standIn() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-stand-in-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = folder.appendingPathComponent("typed-defaults-serve")
        let text = """
            #!/bin/sh
            printf 'argument %s\\n' "$@"
            echo "parent $(readlink /proc/$PPID/exe)"
            echo "preferences $XDG_CONFIG_HOME"
            exit 7
            """
        try text.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return folder
    }

    /// The server on `PATH` takes the tool's process: its output and exit status are the
    /// command's, and it was started by what started the tool (this test), not by the tool.
    @Test func theServerOnPathTakesTheToolsPlace() async throws {
        let folder = try Self.standIn()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await Tool.run(
            ["serve", "--port", "8080", "--host", "::1", "--", "-com.example.app"],
            environment: ["PATH": folder.path + ":/usr/bin:/bin"])
        #expect(result.status == 7, "the server's exit status: \(result.errors)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(
            lines.prefix(6) == [
                "argument --port", "argument 8080", "argument --host", "argument ::1", "argument --",
                "argument -com.example.app",
            ], "\(result.output)")
        let parent = lines.first { $0.hasPrefix("parent ") } ?? ""
        #expect(!parent.hasSuffix("/typed-defaults"), "the tool is replaced, not the server's parent: \(parent)")
        #expect(lines.contains("preferences \(Tool.folder.path)"), "the same environment")
    }

    /// Without the server, one line that names the command that builds and installs it, and 1.
    @Test func withoutTheServerTheToolSaysHowToBuildIt() async throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("serve-none-\(UUID())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let result = try await Tool.run(["serve", "com.example.app"], environment: ["PATH": empty.path])
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.errors.split(separator: "\n").count == 1, "one line: \(result.errors)")
        #expect(
            result.errors.hasPrefix("typed-defaults: serve runs the page server typed-defaults-serve, which is neither")
                && result.errors.contains("Tools/install.sh --serve"), "\(result.errors)")
    }

    /// Arguments of the wrong shape are refused before any server is looked for.
    @Test(arguments: [
        (["serve", "suite", "--port", "70000"], "--port takes 0 to 65535, not 70000"),
        (["serve", "suite", "--host", ""], "--host needs an address"),
        (["serve"], "missing expected argument '<suite>'"),
    ])
    func aBadCommandLineIsAUsageError(arguments: [String], message: String) async throws {
        let folder = try Self.standIn()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await Tool.run(arguments, environment: ["PATH": folder.path])
        #expect(result.status == 64)
        #expect(result.errors.contains(message), "\(result.errors)")
        #expect(result.output.isEmpty, "no server ran: \(result.output)")
    }
}
