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

        /// Reads a suite's rows as they are now: its published schema and its stored values.
        static func reader(_ store: DefaultsStore, keyring: any Keyring) -> @Sendable () throws -> SettingRows {
            {
                let schema = try store.publishedSchema()
                return SettingRows(
                    schema: schema, values: try store.storedValues(), keyring: keyring,
                    // The file's name, as the tool and `@Secret` name the suite: not a schema's word for it.
                    suiteName: store.suiteName ?? schema?.suite ?? "")
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

        /// The keys, in the page's order.
        var keys: [DefaultsStoredKey] {
            let declared = (schema?.keys ?? []).map { DefaultsStoredKey($0.name) }
            let known = Set(declared)
            return declared + values.keys.filter { !known.contains($0) }.sorted()
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
        /// `{"key", "title", "info", "type", "control", "declared", "reserved", "stored", "value"}`,
        /// with `"default"` when the schema gives the default's stored form (`null` for an
        /// optional's `nil`), `"formattedDefault"` when the schema declares the key, and
        /// `"options"`, `"range"` (`{"min", "max", "step", "text"}`) and `"shape"` when the
        /// schema has them. A secret's row has control `secret`, value `null` and `"secret"`
        /// (`set`, `not set`, or why the keyring could not tell), and nothing of a copy in clear
        /// the suite may hold but that it is there (`stored`).
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
            let shown = stored ?? declared?.defaultValue
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
            return "{" + members.map { "\(text($0.0)):\($0.1)" }.joined(separator: ",") + "}"
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
