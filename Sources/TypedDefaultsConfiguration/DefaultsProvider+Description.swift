#if Configuration
    import Configuration
    import Foundation
    import TypedDefaults
    import TypedDefaultsSchema

    /// How a provider and its snapshots print: as swift-configuration's own providers do, a summary
    /// for `description`, every key and value for `debugDescription`, and what `secrets` names as
    /// `<REDACTED>` in both, in `dump` and in a debugger (their mirrors hold nothing else). A value
    /// an administrator set is followed by where it came from: `(locked by FILE)`, `(the
    /// administrator's default, from FILE)`; one without is the user's.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    enum Redaction {
        static let redacted = "<REDACTED>"
        /// The longest value text shown; a longer one is cut, with its length.
        static let longest = 120

        /// `name[3 values]`, and how many of them an administrator locked: `name[3 values, 1 locked]`.
        static func summary(
            _ name: String, _ values: [DefaultsStoredKey: DefaultsStoredValue],
            origins: [DefaultsStoredKey: DefaultsValueSource]
        ) -> String {
            let locked = origins.values.filter { if case .locked = $0 { true } else { false } }.count
            return "\(name)[\(values.count) values\(locked == 0 ? "" : ", \(locked) locked")]"
        }

        /// `name[3 values: http.port=8080, database.password=<REDACTED>, …]`.
        static func listing(
            _ name: String, _ values: [DefaultsStoredKey: DefaultsStoredValue],
            secrets: SecretsSpecifier<String, ConfigContent>, origins: [DefaultsStoredKey: DefaultsValueSource]
        ) -> String {
            let listed = entries(values, secrets: secrets, origins: origins).joined(separator: ", ")
            return "\(name)[\(values.count) values: \(listed)]"
        }

        /// What `dump` and a debugger show: the name, and each `key=value` with secrets redacted.
        static func mirror(
            of subject: Any, name: String, _ values: [DefaultsStoredKey: DefaultsStoredValue],
            secrets: SecretsSpecifier<String, ConfigContent>, origins: [DefaultsStoredKey: DefaultsValueSource],
            style: Mirror.DisplayStyle
        ) -> Mirror {
            Mirror(
                subject,
                children: ["providerName": name, "values": entries(values, secrets: secrets, origins: origins)],
                displayStyle: style)
        }

        /// `key=value` for every value, sorted by key, followed by where it came from when an
        /// administrator set it; a dictionary's members under their joined keys (`smtp.password`),
        /// as configuration keys name them.
        static func entries(
            _ values: [DefaultsStoredKey: DefaultsStoredValue], secrets: SecretsSpecifier<String, ConfigContent>,
            origins: [DefaultsStoredKey: DefaultsValueSource]
        ) -> [String] {
            var entries: [String] = []
            for (key, value) in values.sorted(by: { $0.key < $1.key }) {
                let origin = origins[key].map { " (\($0))" } ?? ""
                add(key.name, value, secrets, origin, to: &entries)
            }
            return entries
        }

        private static func add(
            _ key: String, _ value: DefaultsStoredValue, _ secrets: SecretsSpecifier<String, ConfigContent>,
            _ origin: String, to entries: inout [String]
        ) {
            if case .explicitNil = value.encoding {
                entries.append("\(key)=nil\(origin)")
                return
            }
            if case .dictionary(let members) = value, !members.isEmpty {
                // A secret dictionary is redacted whole; otherwise each member is judged by its key.
                if case .specific(let keys) = secrets, keys.contains(key) {
                    entries.append("\(key)=\(redacted)\(origin)")
                    return
                }
                for (member, inner) in members.sorted(by: { $0.key < $1.key }) {
                    add("\(key).\(member.name)", inner, secrets, origin, to: &entries)
                }
                return
            }
            guard !isSecret(key, value, secrets) else {
                entries.append("\(key)=\(redacted)\(origin)")
                return
            }
            let text = value.json()
            let shown = text.count > longest ? "\(text.prefix(longest))… (\(text.count) characters)" : text
            entries.append("\(key)=\(shown)\(origin)")
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
        /// `DefaultsProvider[name][3 values]`, with how many an administrator locked
        /// (`[3 values, 1 locked]`): no values.
        public var description: String {
            let values = state.withLock { $0.values }
            return Redaction.summary(providerName, values, origins: origins(of: values))
        }

        /// Every key and value of the provider's copy of the suite, and where each value an
        /// administrator set came from; those `secrets` names are `<REDACTED>`.
        public var debugDescription: String {
            let values = state.withLock { $0.values }
            return Redaction.listing(providerName, values, secrets: secrets, origins: origins(of: values))
        }

        /// The name and the values as ``debugDescription`` shows them, secrets redacted: never the
        /// store or the provider's state, which hold the values as they are.
        public var customMirror: Mirror {
            let values = state.withLock { $0.values }
            return Redaction.mirror(
                of: self, name: providerName, values, secrets: secrets, origins: origins(of: values), style: .class)
        }

        /// Where each of `values` an administrator set came from, as the store says now: a lock
        /// or the administrator's default. The user's values are left out.
        func origins(of values: [DefaultsStoredKey: DefaultsStoredValue]) -> [DefaultsStoredKey: DefaultsValueSource] {
            var origins: [DefaultsStoredKey: DefaultsValueSource] = [:]
            for key in values.keys {
                let source = store.administration(ofKey: key.name).source
                switch source {
                case .user, .codeDefault: continue
                default: origins[key] = source
                }
            }
            return origins
        }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    extension DefaultsProviderSnapshot: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        var description: String {
            Redaction.summary(providerName, values, origins: provider.origins(of: values))
        }

        var debugDescription: String {
            Redaction.listing(providerName, values, secrets: provider.secrets, origins: provider.origins(of: values))
        }

        var customMirror: Mirror {
            Redaction.mirror(
                of: self, name: providerName, values, secrets: provider.secrets, origins: provider.origins(of: values),
                style: .struct)
        }
    }
#endif
