import ArgumentParser
import Dispatch
import TypedDefaults

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print each change of a suite as it happens.",
        discussion: """
            Prints "key: value" for each change another process makes (as gsettings monitor does), \
            "key: (removed)" when a key is removed, or its default with a schema. A secret the \
            schema declares is shown as "key: <secret: set>" or "<secret: not set>" when the \
            keyring's answer changes, asked each second (the keyring tells no one of changes); \
            a secret replaced by another between two asks is not seen. Stops on Ctrl-C.

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
        let secrets = SecretKeys.declared(in: schema).map(\.name).filter { keys.isEmpty || keys.contains($0) }
        let show: @Sendable (DefaultsKeyChange) -> Void = { change in
            // The schema as it is now (a program may publish one while this runs); the last one
            // read when it cannot be read, or is gone.
            let schema = (try? store.publishedSchema()) ?? schema
            if SecretKeys.isSecret(change.key, in: schema) {
                // Told by the keyring's polling, which sees a copy in clear too.
                guard !secrets.contains(change.key) else { return }
                // A copy in clear stored or removed under a secret's key: said, never shown.
                let inClear = store.storedValue(forKey: change.key) != nil
                Output.line("\(change.key): \(SecretKeys.shown(suite: suite, key: change.key, storedInClear: inClear))")
                return
            }
            // The value a program reads: an administrator's lock or default shows, not the
            // user's value it keeps from showing.
            let administration = store.administration(ofKey: change.key)
            let locked = administration.lockedBy.map { " (locked by \($0))" } ?? ""
            if let value = administration.valueInForce {
                let shown = ValueDisplay.presented(value, as: schema?[change.key]?.valueType)
                Output.line("\(change.key): \(ValueDisplay.line(shown))\(locked)")
            } else if let declared = schema?[change.key] {
                Output.line("\(change.key): \(ValueDisplay.defaultLine(of: declared)) (default)\(locked)")
            } else {
                Output.line("\(change.key): \(locked.isEmpty ? "(removed)" : "(the code's default)\(locked)")")
            }
        }
        let observation = keys.isEmpty ? store.observe(show) : store.observe(keys: keys, show)
        let polling = secrets.isEmpty ? nil : Self.poll(secrets, of: suite, store)
        Output.error("Watching \(suite); Ctrl-C stops.")
        withExtendedLifetime((observation, polling)) { dispatchMain() }
    }

    /// Asks the keyring each second whether each secret is set, and the suite whether it holds a
    /// copy in clear, and prints a secret's line when that changed; the answers before it returns
    /// are the state it starts from.
    private static func poll(_ secrets: [String], of suite: String, _ store: DefaultsStore) -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "typed-defaults.watch.secrets"))
        let state = { (key: String) in
            SecretKeys.shown(suite: suite, key: key, storedInClear: store.storedValue(forKey: key) != nil)
        }
        // Touched here, then only by the handler, which runs on the timer's one serial queue.
        nonisolated(unsafe) var last = Dictionary(uniqueKeysWithValues: secrets.map { ($0, state($0)) })
        timer.setEventHandler {
            for key in secrets {
                let shown = state(key)
                if let before = last[key], before != shown { Output.line("\(key): \(shown)") }
                last[key] = shown
            }
        }
        timer.schedule(deadline: .now() + .seconds(1), repeating: .seconds(1))
        timer.resume()
        return timer
    }
}
