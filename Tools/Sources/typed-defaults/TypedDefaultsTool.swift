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

            Exit status: 0 on success. 64 (EX_USAGE) for a command line of the wrong shape: an \
            unknown command or option, an argument missing or one too many, flags that do not \
            go together. 1 for any other failure: a suite or key that does not exist, a suite \
            that cannot be read, a value that does not parse, a file that does not import, a \
            value the schema refuses, a key an administrator locked (or a value outside the \
            bounds they set: see typed-defaults help read). A failure is one line on standard error, \
            "typed-defaults: <what>" (a usage error ends "(see 'typed-defaults help <command>')"), \
            and writes nothing; a command over every suite prints one line for each suite it \
            cannot read, lists the others, and exits 1.
            """,
        subcommands: [
            Domains.self, Read.self, ReadType.self, Write.self, Delete.self, Rename.self, Reset.self, Export.self,
            Import.self, Watch.self, ListKeys.self, Describe.self, Range.self, ListRecursively.self, Serve.self,
        ]
    )

    /// Runs the command; a failure is one line on standard error, and the exit status its
    /// class's (see the discussion above).
    static func main() {
        let arguments = takeArguments()
        do {
            try checkCommandName(arguments)
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            Foundation.exit(report(error, arguments: arguments))
        }
    }

    /// Every name a command answers to: its own and its aliases (`get`, `set`, `monitor`). Each
    /// command spells its name in its configuration: one ArgumentParser derives from the type's
    /// name takes reflection, which scans every protocol conformance of the process, at every
    /// start (measured: a sixth of a `read`'s time).
    static var commandNames: [String] {
        ["help"] + configuration.subcommands.flatMap { [$0._commandName] + $0.configuration.aliases }
    }

    /// Refuses an unknown command with the nearest real one, as git does ("did you mean 'read'?").
    private static func checkCommandName(_ arguments: [String]) throws {
        guard let named = arguments.first, !named.hasPrefix("-"), !commandNames.contains(named) else { return }
        let nearest = commandNames.map { (name: $0, distance: CommandSpelling.distance(named, $0)) }
            .min { $0.distance < $1.distance }
        if let nearest, nearest.distance <= max(2, named.count / 3) {
            throw ToolError.usage("unknown command '\(named)'; did you mean '\(nearest.name)'?")
        }
        throw ToolError.usage("unknown command '\(named)'")
    }

    /// The command line's arguments, read from `argv` before anything reads
    /// `CommandLine.arguments`, and then hidden from it. corelibs' `UserDefaults` reads the
    /// process's `-key value` arguments as settings that override every suite's, and logs a
    /// line of its own for a value that looks like a property list and is not one (`--json
    /// '{bad'`), as the CommandLineAndSchemas article says: the tool's arguments are no
    /// settings. Only the pointers in `argv` change, so `ps` still shows the arguments.
    private static func takeArguments() -> [String] {
        let count = Int(CommandLine.argc)
        guard count > 1 else { return [] }
        let arguments = (1..<count).compactMap { CommandLine.unsafeArgv[$0].map { String(cString: $0) } }
        // One empty string, kept for the process's life as `argv`'s strings are.
        if let empty = strdup("") {
            for index in 1..<count { CommandLine.unsafeArgv[index] = empty }
        }
        return arguments
    }

    /// Reports `error` on standard error in one line and returns the exit status: 64 for a
    /// usage error, as BSD tools and ArgumentParser give, and 1 for any other. Help and
    /// completion scripts, which ArgumentParser throws too, go to standard output with 0.
    private static func report(_ error: Error, arguments: [String]) -> Int32 {
        if let code = error as? ExitCode {
            // Thrown after the failures were reported, one line each.
            return code.rawValue
        }
        let code = exitCode(for: error)
        if code == .success { exit(withError: error) }
        let tool = error as? ToolError
        let usage = tool?.isUsage ?? (code == .validationFailure)
        let message = tool?.description ?? Self.message(for: error)
        // ArgumentParser's messages start with a capital and may run over lines; ours do neither.
        var line = message.split(whereSeparator: \.isNewline).joined(separator: " ")
        if let first = line.first, line.dropFirst().first?.isLowercase == true {
            line = first.lowercased() + line.dropFirst()
        }
        guard usage else {
            Output.error("typed-defaults: \(line)")
            return ExitCode.failure.rawValue
        }
        let named = arguments.first { !$0.hasPrefix("-") }
        let command = configuration.subcommands.map { $0._commandName }.first { $0 == named }
        let help = command.map { "typed-defaults help \($0)" } ?? "typed-defaults --help"
        Output.error("typed-defaults: \(line) (see '\(help)')")
        return ExitCode.validationFailure.rawValue
    }
}
