#if Configuration
    import Configuration
    import Foundation
    import TypedDefaults
    import TypedDefaultsSchema

    /// How a provider and its snapshots print: as swift-configuration's own providers do, a summary
    /// for `description`, every key and value for `debugDescription`, and what `secrets` names as
    /// `<REDACTED>` in both, in `dump` and in a debugger (their mirrors hold nothing else).
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    enum Redaction {
        static let redacted = "<REDACTED>"
        /// The longest value text shown; a longer one is cut, with its length.
        static let longest = 120

        /// `name[3 values]`.
        static func summary(_ name: String, _ values: [DefaultsStoredKey: DefaultsStoredValue]) -> String {
            "\(name)[\(values.count) values]"
        }

        /// `name[3 values: http.port=8080, database.password=<REDACTED>, …]`.
        static func listing(
            _ name: String, _ values: [DefaultsStoredKey: DefaultsStoredValue],
            secrets: SecretsSpecifier<String, ConfigContent>
        ) -> String {
            "\(name)[\(values.count) values: \(entries(values, secrets: secrets).joined(separator: ", "))]"
        }

        /// What `dump` and a debugger show: the name, and each `key=value` with secrets redacted.
        static func mirror(
            of subject: Any, name: String, _ values: [DefaultsStoredKey: DefaultsStoredValue],
            secrets: SecretsSpecifier<String, ConfigContent>, style: Mirror.DisplayStyle
        ) -> Mirror {
            Mirror(
                subject, children: ["providerName": name, "values": entries(values, secrets: secrets)],
                displayStyle: style)
        }

        /// `key=value` for every stored value, sorted by key; a dictionary's members under their
        /// joined keys (`smtp.password`), as configuration keys name them.
        static func entries(
            _ values: [DefaultsStoredKey: DefaultsStoredValue], secrets: SecretsSpecifier<String, ConfigContent>
        ) -> [String] {
            var entries: [String] = []
            for (key, value) in values.sorted(by: { $0.key < $1.key }) { add(key.name, value, secrets, to: &entries) }
            return entries
        }

        private static func add(
            _ key: String, _ value: DefaultsStoredValue, _ secrets: SecretsSpecifier<String, ConfigContent>,
            to entries: inout [String]
        ) {
            if case .explicitNil = value.encoding {
                entries.append("\(key)=nil")
                return
            }
            if case .dictionary(let members) = value, !members.isEmpty {
                // A secret dictionary is redacted whole; otherwise each member is judged by its key.
                if case .specific(let keys) = secrets, keys.contains(key) {
                    entries.append("\(key)=\(redacted)")
                    return
                }
                for (member, inner) in members.sorted(by: { $0.key < $1.key }) {
                    add("\(key).\(member.name)", inner, secrets, to: &entries)
                }
                return
            }
            guard !isSecret(key, value, secrets) else {
                entries.append("\(key)=\(redacted)")
                return
            }
            let text = value.json()
            entries.append(
                "\(key)=\(text.count > longest ? "\(text.prefix(longest))… (\(text.count) characters)" : text)")
        }

        /// Whether `secrets` names the value; a value that no configuration type reads as (a mixed
        /// array) counts as secret for a specifier that looks at values, which cannot be asked.
        static func isSecret(
            _ key: String, _ value: DefaultsStoredValue, _ secrets: SecretsSpecifier<String, ConfigContent>
        ) -> Bool {
            switch secrets {
            case .all: true
            case .none: false
            case .specific(let keys): keys.contains(key)
            case .dynamic(let isSecret): StoredValueLookup.plainContent(of: value).map { isSecret(key, $0) } ?? true
            }
        }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    extension DefaultsProvider: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// `DefaultsProvider[name][3 values]`: no values.
        public var description: String {
            Redaction.summary(providerName, state.withLock { $0.values })
        }

        /// Every key and value of the provider's copy of the suite; those `secrets` names are
        /// `<REDACTED>`.
        public var debugDescription: String {
            Redaction.listing(providerName, state.withLock { $0.values }, secrets: secrets)
        }

        /// The name and the values as ``debugDescription`` shows them, secrets redacted: never the
        /// store or the provider's state, which hold the values as they are.
        public var customMirror: Mirror {
            Redaction.mirror(
                of: self, name: providerName, state.withLock { $0.values }, secrets: secrets, style: .class)
        }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    extension DefaultsProviderSnapshot: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        var description: String {
            Redaction.summary(providerName, values)
        }

        var debugDescription: String {
            Redaction.listing(providerName, values, secrets: provider.secrets)
        }

        var customMirror: Mirror {
            Redaction.mirror(of: self, name: providerName, values, secrets: provider.secrets, style: .struct)
        }
    }
#endif
