import ArgumentParser
import TypedDefaults

struct Range: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "range",
        abstract: "Print the values a declared key accepts.",
        discussion: """
            As gsettings range does: "type <type>" for any value of the type, \
            "range <type> <min> <max>" and "step <step>" for a number declared with bounds, or \
            "options <type>" and then one line per option, its value and (after a tab) its title, \
            for a setting with options.

            Example:
              typed-defaults range com.example.app fontSize
            """)

    @Argument(help: "The suite.") var suite: String
    @Argument(help: "The key.") var key: String

    func run() throws {
        let schema = try Suites.requiredSchema(of: try Suites.store(suite), suite)
        guard let declared = schema[key] else { throw ToolError("the schema of \(suite) declares no key \(key)") }
        let type = declared.valueType.kind.map(\.description) ?? "any"
        if let options = declared.options {
            Output.line("options \(type)")
            for option in options { Output.line("\(ValueDisplay.line(option.value))\t\(option.title)") }
            return
        }
        guard let range = declared.range else {
            Output.line("type \(type)")
            if case .integer(let lowest, let highest) = declared.valueType {
                Output.line("bounds \(lowest) \(highest)")
            }
            return
        }
        Output.line("range \(type) \(ValueDisplay.text(range.min)) \(ValueDisplay.text(range.max))")
        Output.line("step \(ValueDisplay.text(range.step))")
    }
}
