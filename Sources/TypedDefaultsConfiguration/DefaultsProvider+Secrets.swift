#if Configuration
    import Configuration
    import Foundation
    import Synchronization
    import TypedDefaults
    import TypedDefaultsSchema
    import TypedDefaultsSecrets

    /// The secrets the suite's published schema declares (`@Secret`), which the keyring keeps:
    /// answered as strings marked `isSecret`, so that swift-configuration's access logs and
    /// descriptions redact them. The schema and the keyring are read when the provider is made,
    /// and again for a secret at each fetch of it; ``DefaultsProvider/value(forKey:type:)``
    /// answers the last reply, without I/O.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    final class ProviderSecrets: Sendable {
        let keyring: any Keyring
        let store: DefaultsStore
        /// The suite's name, which files its secrets in the keyring.
        let service: String
        /// The keys the schema declared secret when last read, and each secret as the keyring
        /// last gave it (a key it failed for has none).
        private let state = Mutex<(keys: Set<String>, values: [String: String])>(([], [:]))

        init(store: DefaultsStore, keyring: any Keyring) {
            (self.store, self.keyring) = (store, keyring)
            // The file's name, as the tool and `@Secret` name the suite: not a schema's word for it.
            service = store.suiteName ?? ""
            readSchema()
            for key in keys { refresh(key) }
        }

        /// The keys the schema declares secret.
        var keys: Set<String> { state.withLock { $0.keys } }

        /// Reads which keys the schema declares secret, and returns those it did not before; a
        /// schema that cannot be read is reported, and the keys are those it last declared.
        @discardableResult
        func readSchema() -> Set<String> {
            do {
                let declared = Set(try store.publishedSchema()?.keys.filter(\.isSecret).map(\.name) ?? [])
                return state.withLock { state in
                    defer { state.keys = declared }
                    return declared.subtracting(state.keys)
                }
            } catch {
                DefaultsError.handler(error)
                return []
            }
        }

        /// The secret `encodedKey` names, or is a member of: `apiToken`, and `apiToken.a` of a
        /// dictionary the suite holds in clear under it.
        func secretKey(_ encodedKey: String) -> String? {
            keys.first { covers($0, encodedKey) }
        }

        /// Asks the keyring for the secret again; a failure is reported (`DefaultsError.readFailed`
        /// with the ``KeyringError``), and the key then has none. Returns whether the answer changed.
        @discardableResult
        func refresh(_ key: String) -> Bool {
            let item = KeyringItem(service: service, account: key)
            var secret: String?
            do {
                secret = try keyring.secret(for: item).map { data throws(KeyringError) in
                    guard let text = String(data: data, encoding: .utf8) else { throw .notText }
                    return text
                }
            } catch {
                DefaultsError.handler(.readFailed(path: item.description, underlying: error))
            }
            return state.withLock { state in
                defer { state.values[key] = secret }
                return state.values[key] != secret
            }
        }

        /// The answer for `encodedKey` when it is a secret, else `nil`: its text marked secret,
        /// none when the keyring holds none, a mismatch for any type but a string. A member of a
        /// copy in clear under a secret's key is never answered (a key the suite stores by that
        /// name, `isStored`, is).
        func lookup(
            _ encodedKey: String, _ type: ConfigType, isStored: Bool
        ) throws(DefaultsProviderTypeMismatch) -> LookupResult? {
            guard let key = secretKey(encodedKey) else { return nil }
            guard key == encodedKey else { return isStored ? nil : LookupResult(encodedKey: encodedKey, value: nil) }
            let secret = state.withLock { $0.values[key] }
            if secret != nil, type != .string {
                throw DefaultsProviderTypeMismatch(key: encodedKey, stored: "a secret string", requested: type)
            }
            return LookupResult(encodedKey: encodedKey, value: secret.map { ConfigValue(.string($0), isSecret: true) })
        }
    }

    /// Whether `encodedKey` is the secret `key`, or a member of a dictionary stored under it.
    private func covers(_ key: String, _ encodedKey: String) -> Bool {
        encodedKey == key || encodedKey.hasPrefix(key + ".")
    }

    extension SecretsSpecifier where KeyType == String {
        /// What this names, and `keys` and their members besides.
        func including(_ keys: Set<String>) -> Self {
            guard !keys.isEmpty else { return self }
            @Sendable func named(_ key: String) -> Bool { keys.contains { covers($0, key) } }
            switch self {
            case .all: return .all
            case .none: return .specific(keys)
            case .specific(let others): return .specific(others.union(keys))
            case .dynamic(let isSecret): return .dynamic { key, value in named(key) || isSecret(key, value) }
            }
        }
    }
#endif
