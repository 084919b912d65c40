import ArgumentParser
import TypedDefaults

struct ReadType: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read-type",
        abstract: "Print the type of a key's value.",
        discussion: """
            Prints "Type is <type>" as macOS defaults does: string, integer, float, boolean, date, \
            data, array or dictionary, and how TypedDefaults encoded the value when it did; for a \
            secret the schema declares, that it is one, and whether the keyring holds it.

            Example:
              typed-defaults read-type com.example.app fontSize
            """)

    @Argument(help: "The suite.") var suite: String
    @Argument(help: "The key.") var key: String
    @Flag(help: "Print JSON: {\"type\": …, \"encoding\": …, \"swiftType\": …}.") var json = false

    func run() throws {
        let store = try Suites.existing(suite)
        let declared = try Suites.schema(of: store)?[key]
        let stored = try Suites.values(of: store)[DefaultsStoredKey(key)]
        if let declared, declared.isSecret {
            let shown = SecretKeys.shown(suite: suite, key: key, storedInClear: stored != nil)
            let inSuite = stored == nil ? "false" : "true"
            Output.line(
                json
                    ? #"{"type":"secret","swiftType":"String","stored":\#(inSuite)}"#
                    : "Type is a secret, kept in the keyring: \(shown)")
            return
        }
        guard let value = stored ?? declared?.defaultValue else {
            throw ToolError("the key \(key) does not exist in the suite \(suite)")
        }
        let encoding: String? =
            switch value.encoding {
            case .plain: nil
            case .explicitNil: "explicit nil"
            case .json: "Codable JSON"
            case .keyedArchive(let className): "keyed archive of \(className)"
            }
        if json {
            var members = [#""type":"# + DefaultsStoredValue.string(value.kind.description).json()]
            if let encoding { members.append(#""encoding":"# + DefaultsStoredValue.string(encoding).json()) }
            if let declared { members.append(#""swiftType":"# + DefaultsStoredValue.string(declared.swiftType).json()) }
            members.append(#""stored":"# + (stored == nil ? "false" : "true"))
            Output.line("{" + members.joined(separator: ",") + "}")
            return
        }
        var line = "Type is \(value.kind)"
        if let encoding { line += " (\(encoding))" }
        Output.line(line)
        if let declared {
            Output.line("Declared as \(declared.swiftType)" + (stored == nil ? "; not stored, the default" : ""))
        }
    }
}
