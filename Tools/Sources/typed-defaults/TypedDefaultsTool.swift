import ArgumentParser
import Foundation

/// `typed-defaults`: macOS `defaults` and GNOME `gsettings` for the suites TypedDefaults and
/// `UserDefaults` keep on Linux.
@main
struct TypedDefaultsTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "typed-defaults",
        abstract: "Read, write, watch and describe UserDefaults suites.",
        discussion: """
            Suites are the property-list files in $XDG_CONFIG_HOME (else $HOME/.config) that \
            UserDefaults and TypedDefaults keep on Linux. Every write goes through the TypedDefaults \
            engine: under the suite's lock, merged with other writers, atomic; running programs \
            that observe the suite see it. A program that publishes its schema (DefaultsSchema.publish) \
            gets its keys described, defaults shown, and writes checked.

            Examples:
              typed-defaults domains
              typed-defaults read com.example.app
              typed-defaults write com.example.app fontSize --int 14
              typed-defaults watch com.example.app
              typed-defaults describe com.example.app fontSize

            Shell completion: typed-defaults --generate-completion-script bash|zsh|fish
            """,
        subcommands: [
            Domains.self, Read.self, ReadType.self, Write.self, Delete.self, Rename.self, Reset.self, Export.self,
            Import.self, Watch.self, ListKeys.self, Describe.self, Range.self, ListRecursively.self,
        ]
    )

    /// Runs the command; a ``ToolError`` is one line on standard error and exit status 1.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as ToolError {
            Output.error("typed-defaults: \(error)")
            Foundation.exit(1)
        } catch {
            exit(withError: error)
        }
    }
}
