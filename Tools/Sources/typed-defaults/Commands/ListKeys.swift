import ArgumentParser
import TypedDefaults

struct ListKeys: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list-keys",
        abstract: "List the keys a suite's published schema declares.",
        discussion: """
            Example:
              typed-defaults list-keys com.example.app
            """)

    @Argument(help: "The suite.") var suite: String

    func run() throws {
        for key in try Suites.requiredSchema(of: try Suites.store(suite), suite).keys {
            Output.line(key.name)
        }
    }
}
