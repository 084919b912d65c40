import ArgumentParser
import TypedDefaults

struct ListRecursively: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list-recursively",
        abstract: "Print every key of a suite, or of every suite, with its value.",
        discussion: """
            One line per key, "suite key value", as gsettings list-recursively does: the keys the \
            suite stores and those its schema declares (with their defaults; a secret as whether \
            the keyring holds it, never its value).

            Examples:
              typed-defaults list-recursively com.example.app
              typed-defaults list-recursively
            """)

    @Argument(help: "The suite; without one, every suite.") var suite: String?

    func run() throws {
        let readable = Suites.forEach(suite.map { [$0] } ?? Suites.names()) { name in
            let store = try Suites.existing(name)
            let stored = try Suites.values(of: store)
            let declared = try Suites.schema(of: store)?.keys ?? []
            var lines: [(String, String)] = declared.map { key in
                if key.isSecret {
                    let inClear = stored[DefaultsStoredKey(key.name)] != nil
                    return (key.name, SecretKeys.shown(suite: name, key: key.name, storedInClear: inClear))
                }
                let value = stored[DefaultsStoredKey(key.name)].map { ValueDisplay.presented($0, as: key.valueType) }
                return (key.name, value.map(ValueDisplay.line) ?? ValueDisplay.defaultLine(of: key))
            }
            let declaredNames = Set(declared.map { DefaultsStoredKey($0.name) })
            lines += stored.filter { !declaredNames.contains($0.key) }.sorted { $0.key < $1.key }.map {
                ($0.key.name, ValueDisplay.line($0.value))
            }
            for (key, value) in lines { Output.line("\(name) \(key) \(value)") }
        }
        if !readable { throw ExitCode.failure }
    }
}
