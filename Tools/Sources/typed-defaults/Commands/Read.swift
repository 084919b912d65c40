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

            In a suite an administrator manages (files in $XDG_CONFIG_DIRS, else /etc/xdg), a key \
            shows the value its program reads, with a comment saying where it came from: \
            /* locked by FILE */, /* the administrator's default, from FILE */, and the bounds \
            FILE sets. --source prints, after one key's value, the lines describe prints (source:, \
            your value:, administrator's default:, bounds:), and with --json an object for each \
            key in place of its value: "source" ("locked", "user", "administratorDefault" or \
            "codeDefault"), "value" (in force, as stored), "userValue", "lockedBy", \
            "administratorDefault" and "administratorDefaultSource", "bounds" and "boundsSource", \
            each member present when it applies.

            Examples:
              typed-defaults read com.example.app
              typed-defaults read com.example.app fontSize
              typed-defaults read com.example.app --json > backup.json
              typed-defaults read com.example.app fontSize --json --source
              typed-defaults write com.example.app fontSize --json "$(typed-defaults read other.app fontSize --json)"
            """,
        // As `gsettings get` is spelled.
        aliases: ["get"])

    @Argument(help: "The suite.") var suite: String?
    @Argument(help: "The key.") var key: String?
    @Flag(help: "Print the exact JSON form of what is stored.") var json = false
    @Flag(help: "Print where each value comes from: the user, a default, an administrator's file.") var source = false

    func run() throws {
        guard let suite else {
            // Every suite: one that cannot be read is reported, and the others still listed.
            var suites: [(name: String, values: [DefaultsStoredKey: DefaultsStoredValue])] = []
            let readable = Suites.forEach(Suites.names()) { name in
                if json {
                    let store = try Suites.existing(name)
                    suites.append((name, try source ? sourced(name, store) : printable(name, store)))
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
        let (values, notes, secrets) = try effective(suite, naming: key)
        guard let key else {
            Output.line(block(values, notes, secrets))
            return
        }
        if let secret = secrets[DefaultsStoredKey(key)] {
            Output.line(secret)
            return
        }
        let value = values[DefaultsStoredKey(key)]
        guard source else {
            guard let value else { throw ToolError("the key \(key) does not exist in the suite \(suite)") }
            Output.line(ValueDisplay.topLevelText(value))
            return
        }
        let store = try Suites.existing(suite)
        let declared = try Suites.schema(of: store)?[key]
        let stored = try Suites.values(of: store)[DefaultsStoredKey(key)]
        let shown = Administered.shown(key, in: store, user: stored, declaredDefault: declared?.defaultValue)
        // A lock of a key with nothing known of its value: where it comes from is all there is.
        guard value != nil || shown.isAdministered else {
            throw ToolError("the key \(key) does not exist in the suite \(suite)")
        }
        if let value { Output.line(ValueDisplay.topLevelText(value)) }
        for line in Administered.lines(shown) { Output.line(line) }
    }

    /// The suite's stored values, or one key's, in the exact JSON form.
    private func printJSON(_ suite: String) throws {
        let store = try Suites.existing(suite)
        guard let key else {
            Output.line(ExportFile.json(try source ? sourced(suite, store) : printable(suite, store)))
            return
        }
        let values = try Suites.values(of: store)
        let schema = try Suites.schema(of: store)
        if SecretKeys.isSecret(key, in: schema) {
            let inClear = values[DefaultsStoredKey(key)] != nil
            throw ToolError(
                "\(key) is a secret: its value is never printed; "
                    + SecretKeys.shown(suite: suite, key: key, storedInClear: inClear))
        }
        let stored = values[DefaultsStoredKey(key)]
        if source {
            let shown = Administered.shown(key, in: store, user: stored, declaredDefault: schema?[key]?.defaultValue)
            guard shown.value != nil || shown.isAdministered else {
                throw ToolError("the key \(key) does not exist in the suite \(suite)")
            }
            Output.line(Administered.json(shown).json())
            return
        }
        guard let value = stored ?? schema?[key]?.defaultValue else {
            throw ToolError("the key \(key) does not exist in the suite \(suite)")
        }
        Output.line(value.json())
    }

    /// Each key stored or declared, but secrets, as ``Administered/json(_:)`` gives it.
    private func sourced(_ suite: String, _ store: DefaultsStore) throws -> [DefaultsStoredKey: DefaultsStoredValue] {
        let stored = try printable(suite, store)
        let declared = try Suites.schema(of: store)?.keys.filter { !$0.isSecret } ?? []
        var defaults: [DefaultsStoredKey: DefaultsStoredValue?] = [:]
        for key in declared { defaults[DefaultsStoredKey(key.name)] = .some(key.defaultValue) }
        var sourced: [DefaultsStoredKey: DefaultsStoredValue] = [:]
        for key in Set(stored.keys).union(defaults.keys) {
            let shown = Administered.shown(
                key.name, in: store, user: stored[key], declaredDefault: defaults[key] ?? nil)
            sourced[key] = Administered.json(shown)
        }
        return sourced
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

    /// The values the program reads: the stored ones, the schema's defaults for keys not
    /// stored, and an administrator's values, each but the user's noted; and what is shown of
    /// each secret. With `named`, that key's alone, there even when only an administrator
    /// sets it.
    private func effective(_ suite: String, naming named: String? = nil) throws -> (
        values: [DefaultsStoredKey: DefaultsStoredValue], notes: [DefaultsStoredKey: String],
        secrets: [DefaultsStoredKey: String]
    ) {
        let store = try Suites.existing(suite)
        let stored = try Suites.values(of: store)
        let schema = try Suites.schema(of: store)
        var secrets: [DefaultsStoredKey: String] = [:]
        var keys = named.map { Set([DefaultsStoredKey($0)]) } ?? Set(stored.keys)
        for declared in schema?.keys ?? [] where named == nil || declared.name == named {
            let name = DefaultsStoredKey(declared.name)
            if declared.isSecret {
                secrets[name] = SecretKeys.shown(suite: suite, key: declared.name, storedInClear: stored[name] != nil)
            } else {
                keys.insert(name)
            }
        }
        var values: [DefaultsStoredKey: DefaultsStoredValue] = [:]
        var notes: [DefaultsStoredKey: String] = [:]
        for key in keys where secrets[key] == nil {
            let declared = schema?[key.name]
            let shown = Administered.shown(
                key.name, in: store, user: stored[key], declaredDefault: declared?.defaultValue)
            values[key] = shown.value.map { ValueDisplay.presented($0, as: declared?.valueType) }
            notes[key] = Administered.note(shown)
        }
        return (values, notes, secrets)
    }
}
