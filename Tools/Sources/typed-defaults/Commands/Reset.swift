import ArgumentParser
import TypedDefaults

struct Reset: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Reset a key to its default.",
        discussion: """
            Removes the stored value, so the program reads its default again; a key with nothing \
            stored is left as it is. With a schema, prints the default now in effect. A key an \
            administrator locked is refused, naming their file, and the user's value kept.

            Example:
              typed-defaults reset com.example.app fontSize
            """)

    @Argument(help: "The suite.") var suite: String
    @Argument(help: "The key.") var key: String

    func run() throws {
        let store = try Suites.existing(suite)
        if SecretKeys.isSecret(key, in: try Suites.schema(of: store)) {
            throw ToolError(
                "\(key) is a secret, which has no default: typed-defaults delete \(suite) \(key) removes it")
        }
        try Administered.refuseLocked([key], in: store)
        try Suites.edit(store) { $0[DefaultsStoredKey(key)] = nil }
        if let declared = try Suites.schema(of: store)?[key] {
            Output.line("\(key) = \(ValueDisplay.defaultLine(of: declared)) (default)")
        }
    }
}
