import ArgumentParser
import TypedDefaults

struct Domains: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "domains",
        abstract: "List the suites in the preferences folder.",
        discussion: """
            The folder is $XDG_CONFIG_HOME, else $HOME/.config. A suite is listed when it has a file or a \
            published schema.

            Example:
              typed-defaults domains
            """)

    @Flag(help: "Print a JSON array.") var json = false

    func run() throws {
        let names = Suites.names()
        if json {
            Output.line("[" + names.map { DefaultsStoredValue.string($0).json() }.joined(separator: ",") + "]")
        } else if !names.isEmpty {
            Output.line(names.joined(separator: ", "))
        }
    }
}
