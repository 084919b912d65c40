import Foundation
import TypedDefaults
import TypedDefaultsSchema
import TypedDefaultsSecrets

/// The secrets a suite's schema declares (`@Secret`): kept in the system's keyring as the item
/// of the suite's name and the key. The tool shows whether one is set, never its value, takes a
/// new one from standard input only, and never writes one in the suite.
enum SecretKeys {
    /// The keys the schema declares secret, in its order.
    static func declared(in schema: DefaultsSchema?) -> [DefaultsSchema.Key] {
        schema?.keys.filter(\.isSecret) ?? []
    }

    static func isSecret(_ key: String, in schema: DefaultsSchema?) -> Bool {
        schema?[key]?.isSecret ?? false
    }

    /// Whether the suite's schema declares `key` a secret; see ``schema(of:writing:)``.
    static func isSecret(_ key: String, of store: DefaultsStore) throws -> Bool {
        isSecret(key, in: try schema(of: store, writing: key))
    }

    /// The suite's schema, for a command that would write `what` in the suite. A schema that
    /// cannot be read may declare it a secret: the command stops there, even with `--force`,
    /// since it cannot tell.
    static func schema(of store: DefaultsStore, writing what: String) throws -> DefaultsSchema? {
        do {
            return try store.publishedSchema()
        } catch {
            throw ToolError(
                "\(error); whether \(what) is a secret, which is never written in the suite, cannot be told: nothing "
                    + "was written (the program publishes its schema again at launch)")
        }
    }

    static func item(suite: String, key: String) -> KeyringItem {
        KeyringItem(service: suite, account: key)
    }

    /// What is shown in place of the value: `<secret: set>`, `<secret: not set>`, or why the
    /// keyring could not tell. A copy the suite still holds in clear (a program that has not
    /// moved it into the keyring yet) is said, and not shown either.
    static func shown(suite: String, key: String, storedInClear: Bool = false) -> String {
        let state: String
        do {
            state = try SystemKeyring().containsSecret(for: item(suite: suite, key: key)) ? "set" : "not set"
        } catch {
            state = "unknown, \(error)"
        }
        return "<secret: \(state)" + (storedInClear ? "; a copy in clear is in the suite" : "") + ">"
    }

    /// Stores `secret` in the keyring, once the keyring confirmed it.
    static func store(_ secret: Data, suite: String, key: String) throws {
        do {
            try SystemKeyring().setSecret(secret, for: item(suite: suite, key: key))
        } catch {
            throw ToolError("cannot store the secret \(key): \(error); nothing was written")
        }
    }

    /// Removes the secret from the keyring; none there is no error.
    static func remove(suite: String, key: String) throws {
        do {
            try SystemKeyring().removeSecret(for: item(suite: suite, key: key))
        } catch {
            throw ToolError("cannot delete the secret \(key): \(error); nothing was deleted")
        }
    }

    /// `values` without the secrets the suite's schema declares, nor a copy in clear the suite
    /// holds of one: each is named on standard error, `<suite> <key> is a secret, <why>: <secret: set>`.
    static func withheld(
        from values: [DefaultsStoredKey: DefaultsStoredValue], suite: String, store: DefaultsStore, _ why: String
    ) throws -> [DefaultsStoredKey: DefaultsStoredValue] {
        var values = values
        for secret in declared(in: try Suites.schema(of: store)) {
            let key = DefaultsStoredKey(secret.name)
            let state = shown(suite: suite, key: secret.name, storedInClear: values[key] != nil)
            values[key] = nil
            Output.error("typed-defaults: \(suite) \(secret.name) is a secret, \(why): \(state)")
        }
        return values
    }

    /// The refusal of a command that would put a secret's value in the suite or a file.
    static func refusal(_ key: String, _ doing: String) -> ToolError {
        ToolError(
            "\(key) is a secret, kept in the keyring, never in the suite: \(doing) (typed-defaults write "
                + "SUITE \(key) takes a new one from standard input)")
    }

    /// The largest secret taken: 1 MiB, what the keyring stores.
    static let limit = 1 << 20

    /// A new secret from standard input: typed at a terminal without echo, else everything the
    /// pipe or file holds, less one final line break (`echo "$TOKEN" |` gives the token).
    static func readNew(for key: String) throws -> Data {
        var data: Data
        if isatty(STDIN_FILENO) == 1 {
            data = try typed(prompt: "\(key) (not shown as you type): ")
        } else {
            do {
                // A final line break besides.
                data = try FileHandle.standardInput.readToEnd(within: limit + 2)
            } catch .unreadable(let error) {
                throw ToolError("cannot read standard input: \(error.localizedDescription); nothing was written")
            } catch .tooLarge {
                throw ToolError("the secret is over 1 MiB; nothing was written")
            }
            if data.last == UInt8(ascii: "\n") { data.removeLast() }
            if data.last == UInt8(ascii: "\r") { data.removeLast() }
        }
        guard !data.isEmpty else {
            throw ToolError("no secret on standard input; nothing was written (delete removes a secret)")
        }
        guard data.count <= limit else { throw ToolError("the secret is over 1 MiB; nothing was written") }
        guard String(data: data, encoding: .utf8) != nil else {
            throw ToolError("the secret is not UTF-8 text, which @Secret reads; nothing was written")
        }
        return data
    }

    /// One line typed at the terminal, with echo off while it is typed; Ctrl-C turns it on
    /// again before the tool ends.
    private static func typed(prompt: String) throws -> Data {
        FileHandle.standardError.write(Data(prompt.utf8))
        let hasTerminal = tcgetattr(STDIN_FILENO, &savedTerminal) == 0
        // The signals that end the tool, taken (and let through, should its parent have blocked
        // them) while echo is off, so that the terminal is never left without it.
        let ending = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
        var (endingSet, previousMask) = (sigset_t(), sigset_t())
        var previousHandlers: [(Int32, (@convention(c) (Int32) -> Void)?)] = []
        if hasTerminal {
            var quiet = savedTerminal
            // Lines, as a terminal left raw by another program would not give: Enter ends the
            // secret, Ctrl-C the tool.
            quiet.c_lflag &= ~tcflag_t(ECHO)
            quiet.c_lflag |= tcflag_t(ICANON | ISIG)
            quiet.c_iflag |= tcflag_t(ICRNL)
            for number in ending { previousHandlers.append((number, signal(number, restoreTerminalAndExit))) }
            sigemptyset(&endingSet)
            for number in ending { sigaddset(&endingSet, number) }
            pthread_sigmask(SIG_UNBLOCK, &endingSet, &previousMask)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        }
        defer {
            if hasTerminal {
                tcsetattr(STDIN_FILENO, TCSAFLUSH, &savedTerminal)
                pthread_sigmask(SIG_SETMASK, &previousMask, nil)
                for (number, handler) in previousHandlers { signal(number, handler ?? SIG_DFL) }
            }
            FileHandle.standardError.write(Data("\n".utf8))
        }
        var line = Data()
        var byte: UInt8 = 0
        while read(STDIN_FILENO, &byte, 1) == 1, byte != UInt8(ascii: "\n") {
            line.append(byte)
            guard line.count <= limit else { throw ToolError("the secret is over 1 MiB; nothing was written") }
        }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        // A terminal keeps a line of its own length (1,023 bytes on macOS, 4,095 on Linux) and
        // drops what is typed beyond it: a secret that long may have been cut.
        guard line.count < 1023 else {
            throw ToolError("a secret of 1,023 bytes or more may be cut by the terminal; give it from a file: < FILE")
        }
        return line
    }
}

/// The terminal's settings before echo was turned off: written once before the signal handlers
/// that read it are installed, and read only by them and by the prompt that wrote it.
nonisolated(unsafe) private var savedTerminal = termios()

/// Turns echo back on and ends the tool, as the signal would have (only async-signal-safe calls).
private func restoreTerminalAndExit(_ signal: Int32) {
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &savedTerminal)
    _exit(128 + signal)
}
