import ArgumentParser
import TypedDefaults

struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a key, or every key of a suite.",
        discussion: """
            Deleting every key removes the suite's file. A published schema is the program's and stays.

            Examples:
              typed-defaults delete com.example.app fontSize
              typed-defaults delete com.example.app
            """)

    @Argument(help: "The suite.") var suite: String
    @Argument(help: "The key; without one, every key.") var key: String?

    func run() throws {
        let store = try Suites.existing(suite)
        try Suites.edit(store) { values in
            guard let key else {
                values.removeAll()
                return
            }
            guard values.removeValue(forKey: DefaultsStoredKey(key)) != nil else {
                throw ToolError("the key \(key) does not exist in the suite \(suite); nothing was deleted")
            }
        }
    }
}
