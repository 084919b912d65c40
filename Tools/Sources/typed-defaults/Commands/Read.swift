import ArgumentParser
import TypedDefaults
import TypedDefaultsToolSupport

struct Read: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Print a suite, or one key's value.",
        discussion: """
            Without a suite, prints every suite. One key's string or date is printed as it is, \
            unquoted, as macOS defaults prints it (x=$(typed-defaults read SUITE KEY) takes the text \
            itself); inside arrays and dictionaries strings are quoted where needed. Values \
            TypedDefaults stores are shown as they were written: Codable values as JSON, an explicit nil as nil, archived objects as their class \
            and size. Keys a published schema declares and the suite does not store show their \
            defaults, marked /* default */. A secret the schema declares shows whether the \
            keyring holds it, <secret: set>, never its value.

            --json prints what is stored, exactly, in the JSON form export writes and import reads \
            (integers and floats apart, {"$date": …}, {"$data": …}, null for an explicit nil; a \
            string stays a string, even one holding JSON): a suite as one object, which import \
            reads back; every suite as one object of suites; one key as its value, which \
            write --json reads back (a declared key not stored: its default, as stored). Defaults \
            of keys not stored are not printed for a suite, nor are secrets: each is named on \
            standard error, and one secret's key is refused.

            Examples:
              typed-defaults read com.example.app
              typed-defaults read com.example.app fontSize
              typed-defaults read com.example.app --json > backup.json
              typed-defaults write com.example.app fontSize --json "$(typed-defaults read other.app fontSize --json)"
            """,
        // As `gsettings get` is spelled.
        aliases: ["get"])

    @Argument(help: "The suite.") var suite: String?
    @Argument(help: "The key.") var key: String?
    @Flag(help: "Print the exact JSON form of what is stored.") var json = false

    func run() throws {
        guard let suite else {
            // Every suite: one that cannot be read is reported, and the others still listed.
            var suites: [(name: String, values: [DefaultsStoredKey: DefaultsStoredValue])] = []
            let readable = Suites.forEach(Suites.names()) { name in
                if json {
                    suites.append((name, try printable(name, try Suites.existing(name))))
                } else {
                    let (values, notes, secrets) = try effective(name)
                    Output.line("\(ValueDisplay.quotedIfNeeded(name)) = " + block(values, notes, secrets) + ";")
                }
            }
            if json { Output.line(ExportFile.json(suites: suites)) }
            if !readable { throw ExitCode.failure }
            return
        }
        if json {
            try printJSON(suite)
            return
        }
        let (values, notes, secrets) = try effective(suite)
        guard let key else {
            Output.line(block(values, notes, secrets))
            return
        }
        if let secret = secrets[DefaultsStoredKey(key)] {
            Output.line(secret)
            return
        }
        guard let value = values[DefaultsStoredKey(key)] else {
            throw ToolError("the key \(key) does not exist in the suite \(suite)")
        }
        Output.line(ValueDisplay.topLevelText(value))
    }

    /// The suite's stored values, or one key's, in the exact JSON form.
    private func printJSON(_ suite: String) throws {
        let store = try Suites.existing(suite)
        guard let key else {
            Output.line(ExportFile.json(try printable(suite, store)))
            return
        }
        let values = try Suites.values(of: store)
        if SecretKeys.isSecret(key, in: try Suites.schema(of: store)) {
            let inClear = values[DefaultsStoredKey(key)] != nil
            throw ToolError(
                "\(key) is a secret: its value is never printed; "
                    + SecretKeys.shown(suite: suite, key: key, storedInClear: inClear))
        }
        guard let value = try values[DefaultsStoredKey(key)] ?? Suites.schema(of: store)?[key]?.defaultValue else {
            throw ToolError("the key \(key) does not exist in the suite \(suite)")
        }
        Output.line(value.json())
    }

    private func block(
        _ values: [DefaultsStoredKey: DefaultsStoredValue], _ notes: [DefaultsStoredKey: String],
        _ secrets: [DefaultsStoredKey: String]
    ) -> String {
        guard !values.isEmpty || !secrets.isEmpty else { return "{\n}" }
        return "{\n" + ValueDisplay.entryLines(values, indent: "    ", notes: notes, shown: secrets) + "\n}"
    }

    /// The stored values but the schema's secrets, each of which is named on standard error.
    private func printable(_ suite: String, _ store: DefaultsStore) throws -> [DefaultsStoredKey: DefaultsStoredValue] {
        try SecretKeys.withheld(from: Suites.values(of: store), suite: suite, store: store, "not printed")
    }

    /// The stored values, the schema's defaults for keys not stored, noted as such, and what
    /// is shown of each secret.
    private func effective(_ suite: String) throws -> (
        values: [DefaultsStoredKey: DefaultsStoredValue], notes: [DefaultsStoredKey: String],
        secrets: [DefaultsStoredKey: String]
    ) {
        let store = try Suites.existing(suite)
        var values = try Suites.values(of: store)
        var notes: [DefaultsStoredKey: String] = [:]
        var secrets: [DefaultsStoredKey: String] = [:]
        for declared in try Suites.schema(of: store)?.keys ?? [] {
            let name = DefaultsStoredKey(declared.name)
            if declared.isSecret {
                secrets[name] = SecretKeys.shown(suite: suite, key: declared.name, storedInClear: values[name] != nil)
                values[name] = nil
            } else if let value = values[name] {
                values[name] = ValueDisplay.presented(value, as: declared.valueType)
            } else if let defaultValue = declared.defaultValue {
                values[name] = ValueDisplay.presented(defaultValue, as: declared.valueType)
                notes[name] = "default"
            }
        }
        return (values, notes, secrets)
    }
}
