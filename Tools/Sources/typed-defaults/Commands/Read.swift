import ArgumentParser
import TypedDefaults

struct Read: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a suite, or one key's value.",
        discussion: """
            Without a suite, prints every suite. Values TypedDefaults stores are shown as they were \
            written: Codable values as JSON, an explicit nil as nil, archived objects as their class \
            and size. Keys a published schema declares and the suite does not store show their \
            defaults, marked /* default */.

            Examples:
              typed-defaults read com.example.app
              typed-defaults read com.example.app fontSize
              typed-defaults read com.example.app --json
            """)

    @Argument(help: "The suite.") var suite: String?
    @Argument(help: "The key.") var key: String?
    @Flag(help: "Print JSON: exact values, dates as {\"$date\": …}, data as {\"$data\": …}.") var json = false

    func run() throws {
        guard let suite else {
            // Every suite: one that cannot be read is reported, and the others still listed.
            var members: [String] = []
            let readable = Suites.forEach(Suites.names()) { name in
                let (values, notes) = try effective(name)
                if json {
                    members.append(DefaultsStoredValue.string(name).json() + ":" + ValueDisplay.object(values))
                } else {
                    Output.line("\(ValueDisplay.quotedIfNeeded(name)) = " + block(values, notes: notes) + ";")
                }
            }
            if json { Output.line("{" + members.joined(separator: ",") + "}") }
            if !readable { throw ExitCode.failure }
            return
        }
        let (values, notes) = try effective(suite)
        guard let key else {
            Output.line(json ? ValueDisplay.object(values) : block(values, notes: notes))
            return
        }
        guard let value = values[key] else {
            throw ToolError("the key \(key) does not exist in the suite \(suite)")
        }
        Output.line(json ? ValueDisplay.json(value) : ValueDisplay.text(value))
    }

    private func block(_ values: [String: DefaultsStoredValue], notes: [String: String]) -> String {
        values.isEmpty ? "{\n}" : "{\n" + ValueDisplay.entryLines(values, indent: "    ", notes: notes) + "\n}"
    }

    /// The stored values, and the schema's defaults for keys not stored, noted as such.
    private func effective(_ name: String) throws -> (values: [String: DefaultsStoredValue], notes: [String: String]) {
        let store = try Suites.existing(name)
        var values = try Suites.values(of: store)
        var notes: [String: String] = [:]
        for declared in try Suites.schema(of: store)?.keys ?? [] {
            if let value = values[declared.name] {
                values[declared.name] = ValueDisplay.presented(value, as: declared.valueType)
            } else if let defaultValue = declared.defaultValue {
                values[declared.name] = ValueDisplay.presented(defaultValue, as: declared.valueType)
                notes[declared.name] = "default"
            }
        }
        return (values, notes)
    }
}
