import Foundation
import Testing
import TypedDefaults
import TypedDefaultsSchema
import TypedDefaultsSecrets

/// The tool and a secret the schema declares, against a real keyring daemon of the test's own:
/// every command shows whether it is set, none prints it, and only standard input gives one.
@Suite(.enabled(if: KeyringDaemon.isInstalled || ProcessInfo.processInfo.environment["CI"] != nil))
struct SecretCommandTests {
    static let secret = "tok-\(UUID().uuidString)"

    /// A suite whose schema declares `apiToken` a secret, and a keyring daemon to keep it.
    struct Fixture {
        let daemon: KeyringDaemon
        let suite: String
        let store: DefaultsStore
        let item: KeyringItem

        init(_ label: String = #function) throws {
            daemon = try KeyringDaemon()
            (suite, store) = try Tool.suite(label)
            item = KeyringItem(service: suite, account: "apiToken")
            let published = try DefaultsSchema.publish(
                SecretTestAccount(suite: suite, store: store, keyring: daemon.keyring))
            #expect(published.count == 1)
        }

        var bus: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": daemon.address] }

        func run(_ arguments: String..., input: Data? = nil) async throws -> Tool.Result {
            try await Tool.run(arguments, input: input, environment: bus)
        }
    }

    @Test func theSchemaDeclaresTheSecretWithNothingOfItsValue() throws {
        let fixture = try Fixture()
        let declared = try #require(try fixture.store.publishedSchema()?["apiToken"])
        #expect(declared.isSecret)
        #expect(declared.title == "API token")
        #expect(declared.defaultValue == nil)
        let text = try String(
            contentsOf: Tool.folder.appendingPathComponent("\(fixture.suite).schema.json"), encoding: .utf8)
        #expect(text.contains(#""secret" : true"#) || text.contains(#""secret": true"#))
    }

    @Test func writeTakesTheSecretFromStandardInputIntoTheKeyringOnly() async throws {
        let fixture = try Fixture()
        let written = try await fixture.run("write", fixture.suite, "apiToken", input: Data((Self.secret + "\n").utf8))
        #expect(written.status == 0, "\(written.errors)")
        #expect(try fixture.daemon.keyring.secret(for: fixture.item) == Data(Self.secret.utf8))
        #expect(try fixture.store.storedValues()[DefaultsStoredKey("apiToken")] == nil)

        // On the command line, where ps and the history see it: refused, nothing stored.
        for given in ["other-\(Self.secret)", "--\(Self.secret)"] {
            let onCommandLine = try await fixture.run("write", fixture.suite, "apiToken", given)
            #expect(onCommandLine.status == 64)
            #expect(onCommandLine.errors.contains("standard input"), "\(onCommandLine.errors)")
            #expect(!onCommandLine.errors.contains(Self.secret), "the refusal does not repeat it")
        }
        // Nothing on standard input, or not text: refused, the secret kept.
        #expect(try await fixture.run("write", fixture.suite, "apiToken", input: Data()).status == 1)
        #expect(try await fixture.run("write", fixture.suite, "apiToken", input: Data([0xFF, 0xFE])).status == 1)
        #expect(try fixture.daemon.keyring.secret(for: fixture.item) == Data(Self.secret.utf8))
        // Even --force never writes it into the suite.
        let forced = try await fixture.run("write", fixture.suite, "apiToken", "--force", "x")
        #expect(forced.status == 64)
        #expect(try fixture.store.storedValues().isEmpty)
    }

    @Test func readExportAndDescribeShowThatItIsSetNeverItsValue() async throws {
        let fixture = try Fixture()
        try fixture.daemon.keyring.setSecret(Data(Self.secret.utf8), for: fixture.item)
        let export = Tool.folder.appendingPathComponent("\(fixture.suite).export.json")
        defer { try? FileManager.default.removeItem(at: export) }
        let results = [
            try await fixture.run("read", fixture.suite),
            try await fixture.run("read", fixture.suite, "apiToken"),
            try await fixture.run("read", fixture.suite, "--json"),
            try await fixture.run("read", fixture.suite, "apiToken", "--json"),
            try await fixture.run("read"),
            try await fixture.run("export", fixture.suite, export.path, "--format", "json"),
            try await fixture.run("export", fixture.suite),
            try await fixture.run("describe", fixture.suite, "apiToken"),
        ]
        #expect(results[0].output.contains("apiToken = <secret: set>;"), "\(results[0].output)")
        #expect(results[1].output == "<secret: set>\n")
        #expect(
            results[2].status == 0 && results[2].errors.contains("apiToken is a secret, not printed: <secret: set>"))
        #expect(results[3].status == 1 && results[3].errors.contains("never printed"))
        #expect(results[5].status == 0 && results[5].errors.contains("not exported: <secret: set>"))
        #expect(results[7].output.contains("value: <secret: set>"))
        let written = try Data(contentsOf: export)
        for (index, result) in results.enumerated() {
            #expect(!result.output.contains(Self.secret) && !result.errors.contains(Self.secret), "command \(index)")
        }
        #expect(!written.contains(Data(Self.secret.utf8)))
        #expect(!String(decoding: written, as: UTF8.self).contains("apiToken"))
    }

    @Test func aCopyInClearIsSaidAndNeitherShownNorExportedNorImported() async throws {
        let fixture = try Fixture()
        let clear = "clear-\(Self.secret)"
        try fixture.store.editStoredValues { $0[DefaultsStoredKey("apiToken")] = .string(clear) }
        let read = try await fixture.run("read", fixture.suite)
        #expect(read.output.contains("<secret: not set; a copy in clear is in the suite>"), "\(read.output)")
        let exported = try await fixture.run("export", fixture.suite, "-", "--format", "json")
        let described = try await fixture.run("describe", fixture.suite, "apiToken")
        let listed = try await fixture.run("list-recursively", fixture.suite)
        let type = try await fixture.run("read-type", fixture.suite, "apiToken")
        #expect(
            listed.output.contains("\(fixture.suite) apiToken <secret: not set; a copy in clear"), "\(listed.output)")
        #expect(type.output.hasPrefix("Type is a secret"), "\(type.output)")
        // Renamed neither away (into a key shown in clear) nor into from another key.
        for arguments in [
            ["rename", fixture.suite, "apiToken", "moved"], ["rename", fixture.suite, "server", "apiToken"],
        ] {
            let renamed = try await Tool.run(arguments, environment: fixture.bus)
            #expect(renamed.status == 1 && renamed.errors.contains("apiToken is a secret"), "\(renamed.errors)")
        }
        #expect(try fixture.store.storedValues()[DefaultsStoredKey("moved")] == nil)
        for result in [read, exported, described, listed, type] {
            #expect(!result.output.contains(clear) && !result.errors.contains(clear))
        }
        // A file naming the secret is refused, with --force too; the suite is left as it was.
        let file = Data(#"{"server": "other.example", "apiToken": "imported"}"#.utf8)
        for arguments in [["import", fixture.suite, "-", "--merge"], ["import", fixture.suite, "-", "--force"]] {
            let imported = try await Tool.run(arguments, input: file, environment: fixture.bus)
            #expect(imported.status == 1 && imported.errors.contains("apiToken is a secret"), "\(imported.errors)")
        }
        #expect(try fixture.store.storedValues()[DefaultsStoredKey("server")] == nil)
        // Deleting the secret removes the copy in clear too.
        #expect(try await fixture.run("delete", fixture.suite, "apiToken").status == 0)
        #expect(try fixture.store.storedValues()[DefaultsStoredKey("apiToken")] == nil)
    }

    /// A schema that cannot be read may declare the key a secret: nothing writes it in the
    /// suite, `--force` neither; deleting from the suite still works.
    @Test func aSchemaThatCannotBeReadWritesNoSecretInTheSuite() async throws {
        let fixture = try Fixture()
        let schemaFile = Tool.folder.appendingPathComponent("\(fixture.suite).schema.json")
        let key =
            #"{"name": "apiToken", "swiftType": "String", "title": "", "info": "", "formattedDefault": "", "valueType": {"kind": "string"}, "secret": true}"#
        let twice = #"{"format": "typed-defaults schema", "version": 1, "suite": "s", "keys": [\#(key), \#(key)]}"#
        try Data(twice.utf8).write(to: schemaFile)
        let file = Tool.folder.appendingPathComponent("\(fixture.suite).import.json")
        try Data(#"{"apiToken": "\#(Self.secret)"}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        for arguments in [
            ["write", "--force", fixture.suite, "apiToken", Self.secret],
            ["import", fixture.suite, file.path, "--force"],
        ] {
            let result = try await Tool.run(arguments, environment: fixture.bus)
            #expect(result.status == 1 && result.errors.contains("cannot be told"), "\(arguments[0]): \(result.errors)")
        }
        #expect(try fixture.store.storedValues().isEmpty)
        #expect(try await fixture.run("write", "--force", fixture.suite, "other", "plain").status == 1)
        try fixture.store.editStoredValues { $0[DefaultsStoredKey("plain")] = .string("x") }
        #expect(try await fixture.run("delete", fixture.suite, "plain").status == 0)
    }

    @Test func watchLearnsOfASchemaPublishedWhileItRuns() async throws {
        let daemon = try KeyringDaemon()
        let (suite, store) = try Tool.suite()
        try store.editStoredValues { $0[DefaultsStoredKey("server")] = .string("example.com") }
        let watcher = try Tool.Running(["watch", suite], environment: ["DBUS_SESSION_BUS_ADDRESS": daemon.address])
        defer { watcher.stop() }
        #expect(await watcher.wait { $0.errorText.contains("Watching") })
        _ = try DefaultsSchema.publish(SecretTestAccount(suite: suite, store: store, keyring: daemon.keyring))
        try store.editStoredValues { $0[DefaultsStoredKey("apiToken")] = .string("clear-\(Self.secret)") }
        let line = "apiToken: <secret: not set; a copy in clear is in the suite>"
        #expect(await watcher.wait { $0.lines.contains(line) }, "\(watcher.lines)")
        #expect(!watcher.lines.joined().contains(Self.secret))
    }

    @Test func deleteRemovesItFromTheKeyringAndResetIsRefused() async throws {
        let fixture = try Fixture()
        try fixture.daemon.keyring.setSecret(Data(Self.secret.utf8), for: fixture.item)
        let reset = try await fixture.run("reset", fixture.suite, "apiToken")
        #expect(reset.status == 1 && reset.errors.contains("delete"))
        #expect(try fixture.daemon.keyring.containsSecret(for: fixture.item))
        #expect(try await fixture.run("delete", fixture.suite, "apiToken").status == 0)
        #expect(try !fixture.daemon.keyring.containsSecret(for: fixture.item))
        let folder = try FileManager.default.contentsOfDirectory(atPath: Tool.folder.path)
        #expect(!folder.contains { $0.hasPrefix(fixture.suite + ".plist") }, "no suite file, no lock file made")
        #expect(try await fixture.run("read", fixture.suite, "apiToken").output == "<secret: not set>\n")
    }

    @Test func withoutAKeyringReadSaysWhyAndWriteStoresNothingAnywhere() async throws {
        let fixture = try Fixture()
        let missing = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(Tool.folder.path)/no-bus-here"]
        let read = try await Tool.run(["read", fixture.suite, "apiToken"], environment: missing)
        #expect(read.output.hasPrefix("<secret: unknown, "), "\(read.output)")
        let write = try await Tool.run(
            ["write", fixture.suite, "apiToken"], input: Data(Self.secret.utf8), environment: missing)
        #expect(write.status == 1 && write.errors.contains("cannot store the secret apiToken"), "\(write.errors)")
        #expect(try fixture.store.storedValues().isEmpty)
        try fixture.daemon.lockAll()
        let locked = try await fixture.run("write", fixture.suite, "apiToken", input: Data(Self.secret.utf8))
        #expect(locked.status == 1, "\(locked.errors)")
        #expect(try fixture.store.storedValues().isEmpty)
    }

    /// A keyring that starts locked lists none of its items: the tool says locked, never "not
    /// set", and a delete that cannot see the secret deletes nothing.
    @Test func aKeyringThatStartsLockedIsShownLockedNotUnset() async throws {
        let fixture = try Fixture()
        try fixture.daemon.keyring.setSecret(Data(Self.secret.utf8), for: fixture.item)
        try fixture.daemon.restart(unlocking: false)
        let state = "<secret: unknown, the keyring is locked; unlock it with the desktop's keyring tool>"
        let key = try await fixture.run("read", fixture.suite, "apiToken")
        #expect(key.output == state + "\n", "\(key.output)\(key.errors)")
        let suite = try await fixture.run("read", fixture.suite)
        #expect(suite.output.contains("apiToken = \(state);"), "\(suite.output)")
        let deleted = try await fixture.run("delete", fixture.suite, "apiToken")
        #expect(deleted.status == 1 && deleted.errors.contains("locked"), "\(deleted.errors)")
        for result in [key, suite, deleted] {
            #expect(!(result.output + result.errors).contains("not set") && !result.output.contains(Self.secret))
        }
        try fixture.daemon.restart(unlocking: true)
        #expect(try fixture.daemon.keyring.secret(for: fixture.item) == Data(Self.secret.utf8))
    }

    /// A terminal of the test's own: what the tool's prompt turns echo off on.
    struct Terminal {
        var controller: Int32 = -1
        var device: Int32 = -1

        init() throws {
            guard openpty(&controller, &device, nil, nil, nil) == 0 else { throw POSIXError(.ENOTTY) }
        }

        var echoes: Bool {
            var settings = termios()
            tcgetattr(device, &settings)
            return settings.c_lflag & tcflag_t(ECHO) != 0
        }

        /// What the terminal would show: what the tool wrote to it, and what it echoed.
        func shown() -> String {
            var flags = fcntl(controller, F_GETFL)
            flags |= O_NONBLOCK
            _ = fcntl(controller, F_SETFL, flags)
            var bytes = [UInt8](repeating: 0, count: 4096)
            let count = read(controller, &bytes, bytes.count)
            return count > 0 ? String(decoding: bytes.prefix(count), as: UTF8.self) : ""
        }

        func end() {
            close(controller)
            close(device)
        }
    }

    /// The tool typed into at a terminal: it prompts on standard error, turns echo off while the
    /// secret is typed and on again after; Ctrl-C (SIGINT) in between turns it on again too.
    enum Typing: CaseIterable { case typed, interrupted, tooLong, rawTerminal }

    /// A secret of 1,023 bytes or more is refused: a terminal's line may have cut it.
    @Test(arguments: Typing.allCases) func typingASecretAtATerminalEchoesNothing(_ typing: Typing) async throws {
        let fixture = try Fixture()
        let terminal = try Terminal()
        defer { terminal.end() }
        if typing == .rawTerminal {
            // As a program that ended without restoring its terminal leaves it: Enter sends \r.
            var raw = termios()
            tcgetattr(terminal.device, &raw)
            cfmakeraw(&raw)
            tcsetattr(terminal.device, TCSANOW, &raw)
        }
        let echoedBefore = terminal.echoes
        let process = Process()
        process.executableURL = Tool.executable
        process.arguments = ["write", fixture.suite, "apiToken"]
        process.environment = Tool.environment().merging(fixture.bus) { $1 }
        process.standardInput = FileHandle(fileDescriptor: terminal.device, closeOnDealloc: false)
        let errors = Pipe()
        process.standardError = errors
        let reader = PipeReader(errors)
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        #expect(await WatchTests.eventually { reader.text.contains("not shown as you type") }, "\(reader.text)")
        #expect(await WatchTests.eventually { !terminal.echoes }, "echo is off while the secret is typed")
        let typed = typing == .tooLong ? String(repeating: "x", count: 1023) : Self.secret
        if typing == .interrupted {
            kill(process.processIdentifier, SIGINT)
        } else {
            let end = typing == .rawTerminal ? "\r" : "\n"
            _ = (typed + end).withCString { write(terminal.controller, $0, strlen($0)) }
        }
        #expect(await WatchTests.eventually { !process.isRunning })
        #expect(terminal.echoes == echoedBefore, "the terminal's echo as it was")
        let status: Int32 = [.typed: 0, .interrupted: 128 + SIGINT, .tooLong: 1, .rawTerminal: 0][typing]!
        #expect(process.terminationStatus == status, "\(reader.text)")
        #expect(!terminal.shown().contains(typed), "the terminal never showed the secret")
        let stored = try fixture.daemon.keyring.secret(for: fixture.item)
        #expect(stored == ([.typed, .rawTerminal].contains(typing) ? Data(Self.secret.utf8) : nil))
    }

    @Test func watchShowsTheSecretSetAndRemovedByAnotherProcess() async throws {
        let fixture = try Fixture()
        let watcher = try Tool.Running(["watch", fixture.suite], environment: fixture.bus)
        defer { watcher.stop() }
        // Told once the keyring's first answers are in: the state it starts from.
        #expect(await watcher.wait { $0.errorText.contains("Watching") })
        #expect(try await fixture.run("write", fixture.suite, "apiToken", input: Data(Self.secret.utf8)).status == 0)
        #expect(await watcher.wait { $0.lines.contains("apiToken: <secret: set>") }, "\(watcher.lines)")
        #expect(try await fixture.run("delete", fixture.suite, "apiToken").status == 0)
        #expect(await watcher.wait { $0.lines.contains("apiToken: <secret: not set>") }, "\(watcher.lines)")
        // A copy in clear another program stores under the secret's key: said, never shown.
        try fixture.store.editStoredValues { $0[DefaultsStoredKey("apiToken")] = .string("clear-\(Self.secret)") }
        let inClear = "apiToken: <secret: not set; a copy in clear is in the suite>"
        #expect(await watcher.wait { $0.lines.contains(inClear) }, "\(watcher.lines)")
        #expect(!watcher.lines.joined().contains(Self.secret))
    }
}
