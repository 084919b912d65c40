#if Configuration
    public import Configuration
    import Foundation
    import Synchronization
    public import TypedDefaults
    import TypedDefaultsSchema
    public import TypedDefaultsSecrets

    /// A swift-configuration provider over a TypedDefaults store: settings a running server picks up
    /// the moment an operator changes them, with `typed-defaults write`, from another program, or on
    /// another machine through the PostgreSQL backend.
    ///
    /// ```swift
    /// let settings = try DefaultsStore(suiteName: "com.example.server")
    /// let config = ConfigReader(providers: [
    ///     EnvironmentVariablesProvider(),
    ///     try DefaultsProvider(store: settings),
    /// ])
    /// let limit = config.int(forKey: "http.maxConnections", default: 100)
    /// ```
    ///
    /// - A configuration key's components joined with "." are the suite's key (`http.maxConnections`);
    ///   how stored values read as configuration values is in ``DefaultsProviderTypeMismatch``'s
    ///   article, and in short: strings, integers, doubles, booleans, data and arrays of each; an
    ///   integer read as a double; a date as ISO 8601 text; a dictionary's members under its key.
    ///   Any other stored value is thrown as a ``DefaultsProviderTypeMismatch`` and reported to
    ///   `DefaultsError.handler` (standard error by default), once for each stored value.
    /// - ``value(forKey:type:)`` and ``snapshot()`` read the provider's copy of the suite, kept by
    ///   the store's observation: no I/O. ``fetchValue(forKey:type:)`` reads the backend first.
    /// - ``watchValue(forKey:type:updatesHandler:)`` and ``watchSnapshot(updatesHandler:)`` give the
    ///   current value first, then every change the store hears of: a write in this process, another
    ///   process's (inotify, on Linux), another machine's (PostgreSQL's notifications). Nothing polls.
    /// - A secret the suite's published schema declares (`@Secret`) is read from the keyring when
    ///   the provider is made and at each ``fetchValue(forKey:type:)`` of it (which reads the schema
    ///   again too, and tells its watchers of a change), and answered as a string marked
    ///   `isSecret`; a keyring that cannot answer is reported, and the key has no value.
    /// - A managed suite gives the value in force: a lock's value (none, so the reader's default,
    ///   where the administrator fixed none), the user's inside the administrator's bounds, else
    ///   the administrator's default. ``isLocked(_:)`` and ``administration(of:)`` say which file
    ///   set it; watchers hear a lock, a default or a bound that comes or goes.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    public final class DefaultsProvider: Sendable {
        /// The store the values come from.
        public let store: DefaultsStore
        public let providerName: String
        /// The keys whose values access logs and descriptions redact: those the program named, and
        /// the secrets the schema declares.
        var secrets: SecretsSpecifier<String, ConfigContent> { namedSecrets.including(keyringSecrets.keys) }
        let namedSecrets: SecretsSpecifier<String, ConfigContent>
        /// The secrets the schema declares, from the keyring.
        let keyringSecrets: ProviderSecrets
        let state: Mutex<ProviderState>
        /// Every key of the suite, observed for as long as the provider lives.
        private let observation: Mutex<DefaultsObservation?>

        /// A provider of the values `store` holds.
        ///
        /// - Parameters:
        ///   - store: any store: a suite's plist file, one in memory, a PostgreSQL suite.
        ///   - name: shown in the provider's name, `DefaultsProvider[name]`; the suite's location
        ///     when `nil`.
        ///   - secrets: the keys (joined with ".") whose values access logs redact; secrets the
        ///     suite's schema declares are redacted besides.
        ///   - keyring: where the secrets the suite's schema declares are kept; the system's unless given.
        /// - Throws: `DefaultsError` when the suite cannot be read: a server should not start on
        ///   settings it cannot see.
        public init(
            store: DefaultsStore, name: String? = nil, secrets: SecretsSpecifier<String, ConfigContent> = .none,
            keyring: any Keyring = SystemKeyring()
        ) throws(DefaultsError) {
            self.store = store
            keyringSecrets = ProviderSecrets(store: store, keyring: keyring)
            // A copy in clear the suite may still hold of a secret is redacted as the secret is.
            namedSecrets = secrets
            providerName =
                "DefaultsProvider[\(name ?? store.suiteName ?? "store")]"
            observation = Mutex(nil)
            // Observing before reading, so that no change falls between the two.
            state = Mutex(ProviderState(values: [:]))
            let token = store.observe { [weak self] change in self?.storeChanged(change.key) }
            observation.withLock { $0 = token }
            let values = valuesInForce(try store.storedValues(), alsoOf: store.administeredKeys())
            _ = state.withLock { $0.takeIn(values, since: 0, provider: self) }
        }

        /// What an administrator set for the suite's key `key` names (its components joined with
        /// "."): the file that locks it, its default, its bounds, and where the value the provider
        /// gives came from.
        ///
        /// ```swift
        /// if let file = provider.administration(of: "http.maxConnections").lockedBy { log("set by \(file)") }
        /// ```
        public func administration(of key: ConfigKey) -> DefaultsKeyAdministration {
            store.administration(ofKey: key.components.joined(separator: "."))
        }

        /// Whether an administrator locked the key: the provider gives the administrator's value,
        /// whatever the user stored, and a write of it is refused.
        public func isLocked(_ key: ConfigKey) -> Bool {
            !administration(of: key).isWritable
        }

        /// The value a read of `key` gives, `user` being the user's own: the store's, which
        /// applies a lock, a default and the bounds, where an administrator set any. A lock with no
        /// value of its own gives none: the reader's default, as the code's is in the program.
        func valueInForce(_ key: String, user: DefaultsStoredValue?) -> DefaultsStoredValue? {
            let managed = store.administration(ofKey: key)
            guard managed.lockedBy != nil || managed.administratorDefault != nil || managed.bounds != nil else {
                return user
            }
            return managed.valueInForce
        }

        /// The values in force of the user's `stored` keys and of `keys`, those an administrator
        /// set (the user's stored values do not list an administrator's default).
        func valuesInForce(
            _ stored: [DefaultsStoredKey: DefaultsStoredValue], alsoOf keys: [DefaultsStoredKey]
        ) -> [DefaultsStoredKey: DefaultsStoredValue] {
            var values: [DefaultsStoredKey: DefaultsStoredValue] = [:]
            for key in Set(keys).union(stored.keys) { values[key] = valueInForce(key.name, user: stored[key]) }
            return values
        }

        /// Takes in the key's current value after the store heard of a change, and tells the
        /// watchers of every key it answers (the key itself, and keys of a dictionary stored under it).
        /// The change is counted even when a fetch took the value in first: a fetch that began before
        /// it then leaves the key as it is (see ``ProviderState/takeIn(_:since:provider:)``).
        private func storeChanged(_ key: String) {
            let storedKey = DefaultsStoredKey(key)
            let current = valueInForce(key, user: store.storedValue(forKey: key))
            let deliveries = state.withLock { state -> ProviderState.Deliveries? in
                state.changeCount += 1
                state.lastChange[storedKey] = state.changeCount
                guard state.values[storedKey] != current else { return nil }
                state.values[storedKey] = current
                return state.deliveries(afterChangeOf: [key], provider: self)
            }
            if let deliveries { deliver(deliveries) }
        }

        /// Sends `deliveries`, then reports the type mismatches among them.
        func deliver(_ deliveries: ProviderState.Deliveries) {
            deliveries.deliver()
            for (mismatch, key) in deliveries.mismatches { reportMismatch(mismatch, key, in: deliveries.from) }
        }

        /// Hands a type mismatch to ``DefaultsError/handler`` (standard error unless the program
        /// says otherwise), once for each stored value that does not read as the type asked for:
        /// a server reading a key on every request reports it once, and again once the value changes.
        /// The report names the key and both types, never the value, which may be a secret.
        func reportMismatch(
            _ mismatch: DefaultsProviderTypeMismatch, _ key: AbsoluteConfigKey,
            in values: [DefaultsStoredKey: DefaultsStoredValue]
        ) {
            let stored = StoredValueLookup.find(key.components, in: values)
            let id = ProviderState.MismatchID(key: DefaultsStoredKey(mismatch.key), type: mismatch.requested.rawValue)
            let isNew = state.withLock { state in
                if let reported = state.reportedMismatches[id], reported == stored { return false }
                state.reportedMismatches[id] = stored
                return true
            }
            guard isNew else { return }
            DefaultsError.handler(
                .typeMismatch(key: mismatch.key, expected: mismatch.requested.rawValue, found: mismatch.stored))
        }

        /// The value of `key` in `values`, as a lookup result; a mismatch is reported, then thrown.
        func reportingLookup(
            _ key: AbsoluteConfigKey, _ type: ConfigType, in values: [DefaultsStoredKey: DefaultsStoredValue]
        ) throws(DefaultsProviderTypeMismatch) -> LookupResult {
            do {
                return try lookup(key, type, in: values)
            } catch {
                reportMismatch(error, key, in: values)
                throw error
            }
        }

        /// The value of `key` in `values`, as a lookup result.
        func lookup(
            _ key: AbsoluteConfigKey, _ type: ConfigType, in values: [DefaultsStoredKey: DefaultsStoredValue]
        ) throws(DefaultsProviderTypeMismatch) -> LookupResult {
            let encodedKey = key.components.joined(separator: ".")
            let isStored = values[DefaultsStoredKey(encodedKey)] != nil
            if let secret = try keyringSecrets.lookup(encodedKey, type, isStored: isStored) { return secret }
            let content = try StoredValueLookup.content(of: key.components, as: type, in: values)
            return LookupResult(
                encodedKey: encodedKey,
                value: content.map { ConfigValue($0, isSecret: secrets.isSecret(key: encodedKey, value: $0)) })
        }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    extension DefaultsProvider: ConfigProvider {
        /// The current value, from the provider's copy of the suite: no I/O. A stored value of
        /// another type is thrown as a ``DefaultsProviderTypeMismatch`` and reported to
        /// `DefaultsError.handler`.
        public func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
            try reportingLookup(key, type, in: state.withLock { $0.values })
        }

        /// Reads the backend again (another process's write not heard of yet, a server), then the
        /// value. Every key whose value the fetch changed in the provider's copy is told to its
        /// watchers now: the store's own news of it may come later, and then finds nothing new.
        public func fetchValue(forKey key: AbsoluteConfigKey, type: ConfigType) async throws -> LookupResult {
            let since = state.withLock { $0.changeCount }
            // Secrets the schema declares since it was last read answer from the keyring now, in
            // place of any copy in clear the suite holds: their watchers are told.
            var changed = keyringSecrets.readSchema()
            for secret in changed { keyringSecrets.refresh(secret) }
            if let secret = keyringSecrets.secretKey(key.components.joined(separator: ".")),
                !changed.contains(secret), keyringSecrets.refresh(secret)
            {
                // The keyring tells no one: its watchers hear of it here.
                changed.insert(secret)
            }
            if !changed.isEmpty {
                deliver(state.withLock { $0.deliveries(afterChangeOf: Array(changed), provider: self) })
            }
            store.refresh()
            let fetched = valuesInForce(try store.storedValues(), alsoOf: store.administeredKeys())
            let (values, deliveries) = state.withLock { $0.takeIn(fetched, since: since, provider: self) }
            deliver(deliveries)
            return try reportingLookup(key, type, in: values)
        }

        /// The suite's values as they are now.
        public func snapshot() -> any ConfigSnapshot {
            DefaultsProviderSnapshot(provider: self, values: state.withLock { $0.values })
        }
    }

    /// An unchanging copy of a suite's values, as ``DefaultsProvider/snapshot()`` takes it.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    struct DefaultsProviderSnapshot: ConfigSnapshot {
        let provider: DefaultsProvider
        let values: [DefaultsStoredKey: DefaultsStoredValue]

        var providerName: String { provider.providerName }

        func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
            try provider.reportingLookup(key, type, in: values)
        }
    }
#endif
