#if Web
    import Foundation
    import TypedDefaults
    import TypedDefaultsSchema
    import TypedDefaultsSecrets

    /// The page's rows: each setting the published schema declares, in its order, then each key the
    /// suite stores that the schema does not know (as dconf-editor shows keys without a schema).
    /// Written as JSON for `GET /api/settings`, each value in the exact JSON form `read --json`
    /// prints.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    struct SettingRows {
        let schema: DefaultsSchema?
        let values: [DefaultsStoredKey: DefaultsStoredValue]
        /// Where the schema's secrets are kept: asked for a secret's row only, so that a keyring
        /// that is slow to answer slows no other row.
        let keyring: any Keyring
        /// The suite's name, which files its secrets in the keyring.
        let suiteName: String
        /// The keys an administrator set a default, a lock or bounds for: listed even when the
        /// user stores none and the schema does not declare them.
        let administered: [DefaultsStoredKey]
        /// The suite, asked for what an administrator set for a key (a lock, a default, bounds) as
        /// each row is written: a row an event sends has the administrator's files as they are.
        let store: DefaultsStore

        /// Reads a suite's rows as they are now: its published schema and its stored values.
        static func reader(_ store: DefaultsStore, keyring: any Keyring) -> @Sendable () throws -> SettingRows {
            {
                let schema = try store.publishedSchema()
                return SettingRows(
                    schema: schema, values: try store.storedValues(), keyring: keyring,
                    // The file's name, as the tool and `@Secret` name the suite: not a schema's word for it.
                    suiteName: store.suiteName ?? schema?.suite ?? "", administered: store.administeredKeys(),
                    store: store)
            }
        }

        /// Whether the keyring holds the secret: `set`, `not set`, or why it could not tell. The
        /// page shows this, never a secret's value.
        func secretState(_ key: String) -> String {
            do {
                return try keyring.containsSecret(for: item(key)) ? "set" : "not set"
            } catch {
                return "unknown: \(error)"
            }
        }

        /// The keyring item of a secret of the suite: the suite's name and the key.
        func item(_ key: String) -> KeyringItem {
            KeyringItem(service: suiteName, account: key)
        }

        /// The keys, in the page's order: the schema's, then the others stored or administered.
        var keys: [DefaultsStoredKey] {
            let declared = (schema?.keys ?? []).map { DefaultsStoredKey($0.name) }
            let known = Set(declared)
            return declared + Set(values.keys).union(administered).filter { !known.contains($0) }.sorted()
        }

        /// The prefix of the keys the library keeps for itself, as ``DefaultsStore/migrationVersionKey``
        /// (`TypedDefaults.schemaVersion`, the count of migration steps run): compared scalar for
        /// scalar, as keys are.
        static let reservedPrefix = "TypedDefaults."

        /// Whether the library keeps `key` for itself: the page shows it and never changes it, since
        /// changing or removing the migration count would run migration steps again.
        static func isReserved(_ key: DefaultsStoredKey) -> Bool {
            key.name.unicodeScalars.starts(with: reservedPrefix.unicodeScalars)
        }

        /// The rows of every key, as a JSON array.
        func json() -> String {
            "[" + keys.map(row).joined(separator: ",") + "]"
        }

        /// One key's row, as a JSON object:
        /// `{"key", "title", "info", "type", "control", "declared", "reserved", "stored", "value",
        /// "source", "sourceText", "locked"}`, with `"default"` when the schema gives the default's
        /// stored form (`null` for an optional's `nil`), `"formattedDefault"` when the schema
        /// declares the key, and `"options"`, `"range"` (`{"min", "max", "step", "text"}`) and
        /// `"shape"` when the schema has them. `"value"` is the value in force; `"source"` says
        /// where it came from (`locked`, `user`, `administratorDefault`, `codeDefault`), with
        /// `"lockedBy"`, `"administratorDefault"` and `"administratorDefaultSource"` when an
        /// administrator set them, and `"bounds"` (`{"text", "source"}`, with `"min"`, `"max"` and
        /// the indexes of the allowed `"options"` where the bound gives them). A secret's row has
        /// control `secret`, value `null` and `"secret"` (`set`, `not set`, or why the keyring
        /// could not tell), and nothing of a copy in clear the suite may hold but that it is there
        /// (`stored`).
        func row(_ key: DefaultsStoredKey) -> String {
            let declared = schema?[key.name]
            let stored = values[key]
            if let declared, declared.isSecret {
                let members = [
                    ("key", text(key.name)), ("title", text(declared.title.isEmpty ? key.name : declared.title)),
                    ("info", text(declared.info)), ("type", text("secret")), ("control", text("secret")),
                    ("declared", "true"), ("reserved", "false"), ("stored", stored == nil ? "false" : "true"),
                    ("value", "null"), ("secret", text(secretState(key.name))),
                ]
                return "{" + members.map { "\(text($0.0)):\($0.1)" }.joined(separator: ",") + "}"
            }
            var members: [(String, String)] = [
                ("key", text(key.name)),
                ("title", text(declared.map { $0.title.isEmpty ? key.name : $0.title } ?? key.name)),
                ("info", text(declared?.info ?? "")),
                ("type", text(declared?.swiftType ?? stored.map { $0.kind.rawValue } ?? "")),
                ("control", text(Self.control(declared: declared, stored: stored))),
                ("declared", declared == nil ? "false" : "true"),
                ("reserved", Self.isReserved(key) ? "true" : "false"),
                ("stored", stored == nil ? "false" : "true"),
            ]
            let managed = store.administration(ofKey: key.name)
            members += managedMembers(managed)
            // The value in force: the store's where a layer holds one, else the schema's default.
            let shown = managed.valueInForce ?? declared?.defaultValue
            members.append(("value", shown?.json() ?? "null"))
            // Left out, not null, when there is none to give: `null` is an optional's `nil`.
            if let defaultValue = declared?.defaultValue { members.append(("default", defaultValue.json())) }
            if let declared { members.append(("formattedDefault", text(declared.formattedDefaultValue))) }
            if let options = declared?.options {
                let listed = options.map { "{\"value\":\($0.value.json()),\"title\":\(text($0.title))}" }
                members.append(("options", "[" + listed.joined(separator: ",") + "]"))
            }
            if let range = declared?.range {
                // `text` as a refusal names the range: "8 to 72", a float's bounds "0.0 to 1.0".
                let (min, max, step) = (range.min.json(), range.max.json(), range.step.json())
                let described = text("\(min) to \(max), step \(step)")
                members.append(("range", "{\"min\":\(min),\"max\":\(max),\"step\":\(step),\"text\":\(described)}"))
            }
            if let shape = declared?.jsonShape { members.append(("shape", text("\(shape)"))) }
            if let bounds = managed.bounds {
                var bound = [("text", text(bounds)), ("source", text(managed.boundsSource ?? ""))]
                if let (min, max) = Self.limits(bounds) {
                    if let min { bound.append(("min", Self.number(min))) }
                    if let max { bound.append(("max", Self.number(max))) }
                }
                if let options = declared?.options, let allowed = Self.allowedOptions(options.map(\.value), bounds) {
                    bound.append(("options", "[" + allowed.map(String.init).joined(separator: ",") + "]"))
                }
                members.append(("bounds", "{" + bound.map { "\(text($0.0)):\($0.1)" }.joined(separator: ",") + "}"))
            }
            return "{" + members.map { "\(text($0.0)):\($0.1)" }.joined(separator: ",") + "}"
        }

        /// Where the row's value came from, and the administrator's lock and default.
        private func managedMembers(_ managed: DefaultsKeyAdministration) -> [(String, String)] {
            // Named in the page's words; a source a later version adds, in its own.
            let source =
                switch managed.source {
                case .locked: "locked"
                case .administratorDefault: "administratorDefault"
                case .codeDefault: "codeDefault"
                default: managed.source == .user ? "user" : "\(managed.source)"
                }
            var members = [
                ("source", text(source)), ("sourceText", text(managed.source.description)),
                ("locked", managed.isWritable ? "false" : "true"),
            ]
            if let file = managed.lockedBy { members.append(("lockedBy", text(file))) }
            if let value = managed.administratorDefault {
                members.append(("administratorDefault", value.json()))
                members.append(("administratorDefaultSource", text(managed.administratorDefaultSource ?? "")))
            }
            return members
        }

        /// A range's ends, read from the bound's words ("1 to 50", "at least 1", "at most 50"):
        /// the only form the store gives them in; `nil` for a list of values.
        static func limits(_ bounds: String) -> (min: Double?, max: Double?)? {
            if let at = bounds.range(of: " to "), let min = Double(bounds[..<at.lowerBound]),
                let max = Double(bounds[at.upperBound...])
            {
                return (min, max)
            }
            if bounds.hasPrefix("at least "), let min = Double(bounds.dropFirst("at least ".count)) {
                return (min, nil)
            }
            if bounds.hasPrefix("at most "), let max = Double(bounds.dropFirst("at most ".count)) { return (nil, max) }
            return nil
        }

        /// The indexes of the options a list bound (`one of "stable", "beta"`) allows, each found by
        /// the words the bound names it with; `nil` when the bound is no list.
        static func allowedOptions(_ options: [DefaultsStoredValue], _ bounds: String) -> [Int]? {
            guard bounds.hasPrefix("one of ") else { return nil }
            let list = String(bounds.dropFirst("one of ".count))
            return options.indices.filter { index in
                words(options[index]).contains { named in
                    list == named || list.hasPrefix(named + ", ") || list.hasSuffix(", " + named)
                        || list.contains(", " + named + ", ")
                }
            }
        }

        /// How a bound's words may name `value`: a string quoted, a number or flag as written.
        private static func words(_ value: DefaultsStoredValue) -> [String] {
            switch value {
            case .string(let string): ["\"\(string)\""]
            case .integer(let number): ["\(number)"]
            case .unsignedInteger(let number): ["\(number)"]
            case .real(let number):
                number == number.rounded() && abs(number) < 1e15 ? ["\(number)", String(Int64(number))] : ["\(number)"]
            case .boolean(let flag): [flag ? "true" : "false", flag ? "1" : "0"]
            default: []
            }
        }

        /// A bound's end as a JSON number: a whole one without a fraction.
        private static func number(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
        }

        /// Which control fits the key: `flag`, `choice`, `number` (with the range), `integer`,
        /// `float`, `text`, `date`, `json` (arrays, dictionaries, `Codable` values, anything else).
        static func control(declared: DefaultsSchema.Key?, stored: DefaultsStoredValue?) -> String {
            if declared?.options != nil { return "choice" }
            if let type = declared?.valueType {
                switch unwrapped(type) {
                case .boolean: return "flag"
                case .integer: return declared?.range == nil ? "integer" : "number"
                case .real: return declared?.range == nil ? "float" : "number"
                case .string: return "text"
                case .date: return "date"
                default: return "json"
                }
            }
            switch stored {
            case .boolean?: return "flag"
            case .integer?, .unsignedInteger?: return "integer"
            case .real?: return "float"
            case .string(let string)? where stored?.encoding == .plain: return string.contains("\n") ? "json" : "text"
            case .date?: return "date"
            default: return "json"
            }
        }

        static func unwrapped(_ type: DefaultsSchema.ValueType) -> DefaultsSchema.ValueType {
            if case .optional(let wrapped) = type { return unwrapped(wrapped) }
            return type
        }

        /// `string` as a JSON string.
        private func text(_ string: String) -> String {
            DefaultsStoredValue.string(string).json()
        }
    }
#endif
