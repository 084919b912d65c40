#if Configuration
    import Configuration
    import Synchronization
    import TypedDefaults
    import TypedDefaultsSchema
    import TypedDefaultsSecrets

    /// The secrets the suite's published schema declares (`@Secret`), which the keyring keeps:
    /// answered as strings marked `isSecret`, so that swift-configuration's access logs and
    /// descriptions redact them. The keyring is asked when the provider is made and at each
    /// fetch; ``DefaultsProvider/value(forKey:type:)`` answers the last reply, without I/O.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    final class ProviderSecrets: Sendable {
        let keyring: any Keyring
        /// The suite's name, which files its secrets in the keyring.
        let service: String
        let keys: Set<DefaultsStoredKey>
        /// The secrets as the keyring last gave them; a key it failed for has none.
        let values = Mutex<[DefaultsStoredKey: String]>([:])

        /// The secrets `store`'s published schema declares; none, reported, when it cannot be read.
        init(store: DefaultsStore, keyring: any Keyring) {
            self.keyring = keyring
            var schema: DefaultsSchema?
            do {
                schema = try store.publishedSchema()
            } catch {
                DefaultsError.handler(error)
            }
            // The file's name, as the tool and `@Secret` name the suite: not a schema's word for it.
            service = store.fileURL?.deletingPathExtension().lastPathComponent ?? schema?.suite ?? ""
            keys = Set((schema?.keys ?? []).filter(\.isSecret).map { DefaultsStoredKey($0.name) })
        }

        /// Asks the keyring for each secret again; a failure is reported
        /// (`DefaultsError.readFailed` with the ``KeyringError``), and the key then has none.
        func refresh() {
            for key in keys {
                let item = KeyringItem(service: service, account: key.name)
                var secret: String?
                do {
                    secret = try keyring.secret(for: item).map { data throws(KeyringError) in
                        guard let text = String(data: data, encoding: .utf8) else { throw .notText }
                        return text
                    }
                } catch {
                    DefaultsError.handler(.readFailed(path: item.description, underlying: error))
                }
                values.withLock { $0[key] = secret }
            }
        }

        /// The answer for `key` when it is a secret, else `nil`: its text marked secret, none when
        /// the keyring holds none, a mismatch for any type but a string.
        func lookup(_ encodedKey: String, _ type: ConfigType) throws(DefaultsProviderTypeMismatch) -> LookupResult? {
            let key = DefaultsStoredKey(encodedKey)
            guard keys.contains(key) else { return nil }
            let secret = values.withLock { $0[key] }
            if secret != nil, type != .string {
                throw DefaultsProviderTypeMismatch(key: encodedKey, stored: "a secret string", requested: type)
            }
            return LookupResult(encodedKey: encodedKey, value: secret.map { ConfigValue(.string($0), isSecret: true) })
        }
    }

    extension SecretsSpecifier where KeyType == String {
        /// What this names, and `keys` besides.
        func including(_ keys: Set<String>) -> Self {
            guard !keys.isEmpty else { return self }
            switch self {
            case .all: return .all
            case .none: return .specific(keys)
            case .specific(let named): return .specific(named.union(keys))
            case .dynamic(let isSecret): return .dynamic { key, value in keys.contains(key) || isSecret(key, value) }
            }
        }
    }
#endif
