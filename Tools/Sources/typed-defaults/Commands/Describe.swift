import ArgumentParser
import TypedDefaults

struct Describe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe",
        abstract: "Describe a key the suite's published schema declares.",
        discussion: """
            Prints the title, info, type, default, range or options, the JSON shape of a Codable \
            value (a member marked ? may be missing or null), the current value, and where it comes \
            from: the user, the default, or an administrator's file that locks the key or sets its \
            default or bounds (see read --source).

            Example:
              typed-defaults describe com.example.app fontSize
            """)

    @Argument(help: "The suite.") var suite: String
    @Argument(help: "The key.") var key: String

    func run() throws {
        let store = try Suites.store(suite)
        let schema = try Suites.requiredSchema(of: store, suite)
        guard let declared = schema[key] else { throw ToolError("the schema of \(suite) declares no key \(key)") }
        Output.line(declared.title.isEmpty ? key : declared.title)
        if !declared.info.isEmpty { Output.line(declared.info) }
        Output.line("key: \(key)")
        if declared.isSecret {
            Output.line("a secret, kept in the keyring as \(SecretKeys.item(suite: suite, key: key).label)")
            let inClear = try Suites.values(of: store)[DefaultsStoredKey(key)] != nil
            Output.line("value: \(SecretKeys.shown(suite: suite, key: key, storedInClear: inClear))")
            return
        }
        Output.line("type: \(declared.swiftType), stored as \(declared.valueType)")
        let defaultLine = ValueDisplay.defaultLine(of: declared)
        let formatted = declared.formattedDefaultValue
        Output.line("default: \(defaultLine)" + (formatted == defaultLine ? "" : " (shown as \(formatted))"))
        if let range = declared.range {
            Output.line(
                "range: \(ValueDisplay.text(range.min)) to \(ValueDisplay.text(range.max)), step \(ValueDisplay.text(range.step))"
            )
        }
        if let shape = declared.jsonShape { Output.line("shape: \(shape)") }
        if let options = declared.options {
            let listed = options.map { option in
                let value = ValueDisplay.line(option.value)
                return value == option.title ? value : "\(value) (\(option.title))"
            }
            Output.line("options: \(listed.joined(separator: ", "))")
        }
        let stored = try Suites.values(of: store)[DefaultsStoredKey(key)]
        let shown = Administered.shown(key, in: store, user: stored, declaredDefault: declared.defaultValue)
        if let value = shown.value, !shown.isDefault, !shown.isUserValueHeld {
            Output.line("value: \(ValueDisplay.line(ValueDisplay.presented(value, as: declared.valueType)))")
        } else {
            Output.line("value: the default" + (stored == nil ? " (nothing stored)" : ""))
        }
        for line in Administered.lines(shown) { Output.line(line) }
    }
}
