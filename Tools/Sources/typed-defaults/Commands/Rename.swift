import ArgumentParser
import TypedDefaults

struct Rename: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename",
        abstract: "Move a key's value to a new key.",
        discussion: """
            Atomic: no reader sees both keys or neither. A new key that already holds a value is \
            refused, and so is a value the schema does not allow under the new key, and either key \
            an administrator locked.

            Example:
              typed-defaults rename com.example.app userName displayName
            """)

    @Argument(help: "The suite.") var suite: String
    @Argument(help: "The key to rename.") var oldKey: String
    @Argument(help: "Its new name.") var newKey: String

    func run() throws {
        let store = try Suites.existing(suite)
        let schema = try Suites.schema(of: store)
        let declared = schema?[newKey]
        for key in [oldKey, newKey] where SecretKeys.isSecret(key, in: schema) {
            throw SecretKeys.refusal(key, "nothing was renamed")
        }
        try Administered.refuseLocked([oldKey, newKey], in: store)
        try Suites.edit(store) { values in
            guard let value = values[DefaultsStoredKey(oldKey)] else {
                throw ToolError("the key \(oldKey) does not exist in the suite \(suite); nothing was renamed")
            }
            guard values[DefaultsStoredKey(newKey)] == nil else {
                throw ToolError("the key \(newKey) already holds a value; delete it first")
            }
            if let declared, let problem = declared.problem(with: value) {
                throw ToolError("cannot rename to \(newKey): \(problem); nothing was renamed")
            }
            values[DefaultsStoredKey(oldKey)] = nil
            values[DefaultsStoredKey(newKey)] = value
        }
    }
}
