import ArgumentParser
import Dispatch
import TypedDefaults

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print each change of a suite as it happens.",
        discussion: """
            Prints "key: value" for each change another process makes (as gsettings monitor does), \
            "key: (removed)" when a key is removed, or its default with a schema. Stops on Ctrl-C.

            Examples:
              typed-defaults watch com.example.app
              typed-defaults watch com.example.app fontSize theme
            """,
        // As `gsettings monitor` is spelled.
        aliases: ["monitor"])

    @Argument(help: "The suite.") var suite: String
    @Argument(help: "The keys to watch; without any, every key.") var keys: [String] = []

    func run() throws {
        let store = try Suites.store(suite)
        let schema = try Suites.schema(of: store)
        // A suite that cannot be read is reported, and left as it is.
        _ = try Suites.values(of: store)
        let show: @Sendable (DefaultsKeyChange) -> Void = { change in
            if let value = store.storedValue(forKey: change.key) {
                let shown = ValueDisplay.presented(value, as: schema?[change.key]?.valueType)
                Output.line("\(change.key): \(ValueDisplay.line(shown))")
            } else if let declared = schema?[change.key] {
                Output.line("\(change.key): \(ValueDisplay.defaultLine(of: declared)) (default)")
            } else {
                Output.line("\(change.key): (removed)")
            }
        }
        let observation = keys.isEmpty ? store.observe(show) : store.observe(keys: keys, show)
        Output.error("Watching \(suite); Ctrl-C stops.")
        withExtendedLifetime(observation) { dispatchMain() }
    }
}
