import ArgumentParser
import TypedDefaults
import TypedDefaultsSchema

struct Write: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write",
        abstract: "Write a key's value.",
        discussion: """
            The value is read as the type flag says; without one, as the type the suite's published \
            schema declares, else as the type of the value stored under the key (a stored integer \
            stays an integer; a value that does not parse as one is refused), else as a string. With a schema, a value of the wrong type, outside \
            the declared range or not one of the declared options is refused, as is a key the schema does not declare (--force writes \
            anyway). A suite whose file does not parse is left as it is. A key an administrator \
            locked, or a value outside the bounds they set, is refused, naming their file.

            Examples (typed by the schema, else by the value stored there):
              typed-defaults write com.example.app fontSize 14
            A type flag goes after the key, as macOS defaults takes it:
              typed-defaults write com.example.app fontSize -int 14
              typed-defaults write com.example.app fontSize --int 14
            Collections, JSON, an explicit nil, a value that starts with --:
              typed-defaults write com.example.app tags --array red green
              typed-defaults write com.example.app limits --dict --int low 1 high 9
              typed-defaults write com.example.app profile --json '{"name": "Ada"}'
              typed-defaults write com.example.app nickname --json null
              typed-defaults write com.example.app note -- --verbose
            A secret the schema declares goes into the keyring, never the suite; it is read from \
            standard input (typed without echo at a terminal; a final line break is dropped), \
            never from the command line, where other users' ps and the shell's history see it:
              typed-defaults write com.example.app openAIToken < token.txt
            """,
        // As `gsettings set` is spelled.
        aliases: ["set"])

    @Argument(help: "The suite.") var suite: String
    @Argument(help: "The key.") var key: String
    @Flag(help: "The value's type.") var type: ValueTypeFlag?
    @Flag(help: "Several values as one collection.") var collection: CollectionFlag?
    @Flag(help: "Write even a key or value the schema does not allow.") var force = false
    @Argument(parsing: .allUnrecognized, help: "The value (several with --array or --dict).") var values: [String] = []

    func run() throws {
        // `--` ends the options, so that a value may start with a dash: it is no value itself.
        let ended = self.values.count > 1 && self.values[0] == "--"
        let values = ended ? Array(self.values.dropFirst()) : self.values
        let store = try Suites.store(suite)
        // Before anything that would repeat what was given: it may be the secret.
        if try SecretKeys.isSecret(key, of: store) { return try writeSecret(given: self.values) }
        // The values take what ArgumentParser does not know, so a misspelt option lands here.
        if !ended, let option = values.first(where: { $0.hasPrefix("--") && $0.count > 2 }) {
            throw ToolError.usage("unknown option '\(option)'; a value that starts with -- goes after --")
        }
        guard !values.isEmpty || collection != nil else { throw ToolError.usage("write needs a value") }
        // Before the value is checked: a key that is not the user's to change is the answer.
        try Administered.refuseLocked([key], in: store)
        let schema = force ? nil : try Suites.schema(of: store)
        let declared = schema?[key]
        if let schema, declared == nil {
            throw ToolError(
                "the schema of \(schema.suite) declares no key \(key) (see typed-defaults list-keys \(suite)); "
                    + "--force writes it anyway")
        }
        // Without a type flag or a schema, a key keeps the type of the value stored there: a
        // stored integer is not replaced by the string "7".
        let stored = declared == nil && type == nil ? storedType(in: store) : nil
        var value: DefaultsStoredValue
        do {
            value = try ValueInput(type: type, collection: collection, declared: declared?.valueType ?? stored)
                .value(from: values)
        } catch let error as ToolError where stored != nil && !error.isUsage {
            throw ToolError(
                "\(key) holds \(Self.article(stored)) and \(error); nothing was written (--string, or another "
                    + "type flag, writes a value of another type)")
        }
        // A Codable value's JSON as the program writes it, members sorted: equal values, equal
        // bytes, whether the program or the tool wrote them.
        if let valueType = declared?.valueType ?? stored {
            do {
                value = try valueType.storedForm(of: value)
            } catch {
                throw ToolError("cannot write \(key): \(error); nothing was written")
            }
        }
        if let declared, let problem = declared.problem(with: value) {
            throw ToolError("cannot write \(key): \(problem); nothing was written")
        }
        try Suites.edit(store) { $0[DefaultsStoredKey(key)] = value }
    }

    /// Stores a secret the schema declares in the keyring, read from standard input.
    private func writeSecret(given values: [String]) throws {
        guard values.isEmpty, type == nil, collection == nil else {
            throw ToolError.usage(
                "\(key) is a secret: give it on standard input, not on the command line, where other users' ps and "
                    + "the shell's history see it: typed-defaults write \(suite) \(key) < FILE")
        }
        let secret = try SecretKeys.readNew(for: key)
        try SecretKeys.store(secret, suite: suite, key: key)
    }

    /// The type of the value stored under the key, as a schema would declare it; `nil` when
    /// nothing, or an explicit `nil`, is stored, or the suite cannot be read (then the write
    /// itself fails, saying why, and writes nothing).
    private func storedType(in store: DefaultsStore) -> DefaultsSchema.ValueType? {
        guard let value = (try? Suites.values(of: store))?[DefaultsStoredKey(key)] else { return nil }
        switch (value.encoding, value) {
        case (.explicitNil, _): return nil
        case (.json, _): return .json
        case (.keyedArchive(let className), _): return .keyedArchive(className: className)
        case (_, .string): return .string
        case (_, .integer), (_, .unsignedInteger): return .integer(lowest: .min, highest: .max)
        case (_, .real): return .real
        case (_, .boolean): return .boolean
        case (_, .date): return .date
        case (_, .data): return .data
        case (_, .array): return .array(of: .any)
        case (_, .dictionary): return .dictionary(of: .any)
        }
    }

    /// "an integer", "a string holding JSON": the stored value's type in a sentence.
    private static func article(_ type: DefaultsSchema.ValueType?) -> String {
        let name: String
        switch type {
        case .integer?: name = "integer"
        case let type?: name = "\(type)"
        case nil: name = "value"
        }
        return (name.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + name
    }
}
