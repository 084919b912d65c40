import ArgumentParser
import TypedDefaults

struct Write: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a key's value.",
        discussion: """
            The value is read as the type flag says; without one, as the type the suite's published \
            schema declares, else as a string. With a schema, a value of the wrong type, outside \
            the declared range or not one of the declared options is refused, as is a key the schema does not declare (--force writes \
            anyway). A suite whose file does not parse is left as it is.

            Examples:
              typed-defaults write com.example.app fontSize 14          (typed by the schema)
              typed-defaults write com.example.app fontSize --int 14
              typed-defaults write com.example.app tags --array red green
              typed-defaults write com.example.app limits --dict --int low 1 high 9
              typed-defaults write com.example.app profile --json '{"name": "Ada"}'
              typed-defaults write com.example.app nickname --json null  (an explicit nil)
              typed-defaults write com.example.app -int count 3         (macOS spelling)
              typed-defaults write com.example.app note -- --verbose    (a value starting with --)
            """)

    @Argument(help: "The suite.") var suite: String
    @Argument(help: "The key.") var key: String
    @Flag(help: "The value's type.") var type: ValueTypeFlag?
    @Flag(help: "Several values as one collection.") var collection: CollectionFlag?
    @Flag(help: "Write even a key or value the schema does not allow.") var force = false
    @Argument(parsing: .allUnrecognized, help: "The value (several with --array or --dict).") var values: [String] = []

    func run() throws {
        // `--` ends the options, so that a value may start with a dash: it is no value itself.
        let ended = self.values.count > 1 && self.values[0] == "--"
        let values = ended ? Array(self.values.dropFirst()) : self.values
        // The values take what ArgumentParser does not know, so a misspelt option lands here.
        if !ended, let option = values.first(where: { $0.hasPrefix("--") && $0.count > 2 }) {
            throw ToolError.usage("unknown option '\(option)'; a value that starts with -- goes after --")
        }
        guard !values.isEmpty || collection != nil else { throw ToolError.usage("write needs a value") }
        let store = try Suites.store(suite)
        let schema = force ? nil : try Suites.schema(of: store)
        let declared = schema?[key]
        if let schema, declared == nil {
            throw ToolError(
                "the schema of \(schema.suite) declares no key \(key) (see typed-defaults list-keys \(suite)); "
                    + "--force writes it anyway")
        }
        let value = try ValueInput(type: type, collection: collection, declared: declared?.valueType).value(
            from: values)
        if let declared, let problem = declared.problem(with: value) {
            throw ToolError("cannot write \(key): \(problem); nothing was written")
        }
        try Suites.edit(store) { $0[DefaultsStoredKey(key)] = value }
    }
}
