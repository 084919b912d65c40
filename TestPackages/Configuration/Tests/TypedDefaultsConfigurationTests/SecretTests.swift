import Configuration
import Foundation
import Testing
import TypedDefaults
import TypedDefaultsConfiguration
import TypedDefaultsSchema
import TypedDefaultsSecrets

/// A server's settings with a secret, published as its schema.
struct ConfigurationTestAccount: SettingsCatalog {
    @Setting var server: String
    @Secret var apiToken: String?

    init(suite: String, store: DefaultsStore, keyring: any Keyring) {
        _server = Setting(wrappedValue: "example.com", "server", title: "Server", store: store)
        _apiToken = Secret("apiToken", service: suite, keyring: keyring)
    }
}

/// A secret the suite's schema declares is answered from the keyring, marked `isSecret`, and
/// never shown by the provider's descriptions, even when the suite still holds a copy in clear.
@Suite struct SecretTests {
    static let secret = "tok-\(UUID().uuidString)"

    func published(_ keyring: MemoryKeyring, _ label: String = #function) throws -> (String, DefaultsStore) {
        let (suite, store) = try Suites.make(label)
        _ = try DefaultsSchema.publish(ConfigurationTestAccount(suite: suite, store: store, keyring: keyring))
        return (suite, store)
    }

    @Test func aSecretIsAnsweredFromTheKeyringAsASecret() async throws {
        let keyring = MemoryKeyring()
        let (suite, store) = try published(keyring)
        try keyring.setSecret(Data(Self.secret.utf8), for: KeyringItem(service: suite, account: "apiToken"))
        try store.editStoredValues { $0["server"] = .string("api.example.com") }
        let provider = try DefaultsProvider(store: store, keyring: keyring)

        let answer = try provider.value(forKey: AbsoluteConfigKey(["apiToken"]), type: .string)
        #expect(answer.value?.isSecret == true)
        #expect(answer.value?.content == .string(Self.secret))
        #expect(try provider.value(forKey: AbsoluteConfigKey(["server"]), type: .string).value?.isSecret == false)
        let reader = ConfigReader(provider: provider)
        #expect(reader.string(forKey: "apiToken") == Self.secret)
        #expect(reader.string(forKey: "server") == "api.example.com")
        // Read as another type: a mismatch, which never names the value.
        #expect(throws: DefaultsProviderTypeMismatch.self) {
            try provider.value(forKey: AbsoluteConfigKey(["apiToken"]), type: .int)
        }

        // A new secret is seen at the next fetch, which tells the key's watchers; a removed one
        // leaves the key without a value.
        let received = Received<String>()
        let watching = Task {
            try await provider.watchValue(forKey: AbsoluteConfigKey(["apiToken"]), type: .string) { updates in
                for await update in updates {
                    if case .success(let result) = update, case .string(let text)? = result.value?.content {
                        received.append(text)
                        if text.hasPrefix("new-") { return }
                    }
                }
            }
        }
        #expect(await eventually { received.all == [Self.secret] })
        try keyring.setSecret(Data("new-\(Self.secret)".utf8), for: KeyringItem(service: suite, account: "apiToken"))
        let fetched = try await provider.fetchValue(forKey: AbsoluteConfigKey(["apiToken"]), type: .string)
        #expect(fetched.value?.content == .string("new-\(Self.secret)"))
        #expect(await eventually { received.all == [Self.secret, "new-\(Self.secret)"] })
        try await watching.value
        try keyring.removeSecret(for: KeyringItem(service: suite, account: "apiToken"))
        #expect(try await provider.fetchValue(forKey: AbsoluteConfigKey(["apiToken"]), type: .string).value == nil)
    }

    @Test(arguments: ["none", "dynamic"]) func descriptionsNeverShowASecretNorItsCopyInClear(named: String) throws {
        let keyring = MemoryKeyring()
        let (suite, store) = try published(keyring)
        try keyring.setSecret(Data(Self.secret.utf8), for: KeyringItem(service: suite, account: "apiToken"))
        // A copy in clear, as a dictionary whose members would answer `apiToken.a`.
        try store.editStoredValues { $0["apiToken"] = .dictionary(["a": .string("clear-\(Self.secret)")]) }
        let secrets: SecretsSpecifier<String, ConfigContent> =
            named == "none" ? .none : .dynamic { key, _ in key == "x" }
        let provider = try DefaultsProvider(store: store, secrets: secrets, keyring: keyring)
        var dumped = ""
        dump(provider, to: &dumped)
        for text in [provider.description, provider.debugDescription, dumped, "\(provider.snapshot())"] {
            #expect(!text.contains(Self.secret), "\(text)")
        }
        // A member of a copy in clear under the secret's key is never answered.
        #expect(try provider.value(forKey: AbsoluteConfigKey(["apiToken", "a"]), type: .string).value == nil)
        // The keyring's secret wins over the copy in clear.
        #expect(
            try provider.value(forKey: AbsoluteConfigKey(["apiToken"]), type: .string).value?.content
                == .string(Self.secret))
    }

    @Test func aSchemaPublishedAfterTheProviderWasMadeIsReadAtTheNextFetch() async throws {
        let keyring = MemoryKeyring()
        let (suite, store) = try Suites.make()
        try store.editStoredValues { $0["apiToken"] = .string("clear-\(Self.secret)") }
        let provider = try DefaultsProvider(store: store, keyring: keyring)
        let received = Received<ConfigContent?>()
        let watching = Task {
            try await provider.watchValue(forKey: AbsoluteConfigKey(["apiToken"]), type: .string) { updates in
                for await update in updates {
                    received.append(try? update.get().value?.content)
                    if received.all.count == 2 { return }
                }
            }
        }
        #expect(await eventually { received.all.count == 1 }, "the copy in clear, an ordinary value until then")
        _ = try DefaultsSchema.publish(ConfigurationTestAccount(suite: suite, store: store, keyring: keyring))
        // A fetch of another key reads the schema too; the secret's watchers are told.
        _ = try await provider.fetchValue(forKey: AbsoluteConfigKey(["server"]), type: .string)
        #expect(await eventually { received.all.count == 2 })
        #expect(received.all.last == .some(nil), "no secret in the keyring: no value, not the copy in clear")
        try await watching.value
        try keyring.setSecret(Data(Self.secret.utf8), for: KeyringItem(service: suite, account: "apiToken"))
        let fetched = try await provider.fetchValue(forKey: AbsoluteConfigKey(["apiToken"]), type: .string)
        #expect(fetched.value?.content == .string(Self.secret) && fetched.value?.isSecret == true)
        #expect(!provider.debugDescription.contains(Self.secret))
    }

    @Test func aKeyringThatCannotAnswerIsReportedAndTheKeyHasNoValue() async throws {
        let keyring = MemoryKeyring()
        let (_, store) = try published(keyring)
        keyring.failure = .locked
        let (provider, reported) = try await HandlerReports.during {
            try DefaultsProvider(store: store, keyring: keyring)
        }
        #expect(try provider.value(forKey: AbsoluteConfigKey(["apiToken"]), type: .string).value == nil)
        let report = try #require(reported.first)
        guard case .readFailed(let path, let underlying) = report else {
            Issue.record("reported \(report)")
            return
        }
        #expect(path.contains("apiToken"))
        #expect(underlying as? KeyringError == .locked)
    }

    /// A keyring that starts locked lists none of its items: the provider reports it locked (the
    /// key has no value until the keyring is unlocked), never answers as though none is stored
    /// without a word; unlocked, the next fetch answers the secret.
    @Test(.enabled(if: KeyringDaemon.isInstalled || ProcessInfo.processInfo.environment["CI"] != nil))
    func aKeyringThatStartsLockedIsReportedLocked() async throws {
        let daemon = try KeyringDaemon()
        let (suite, store) = try Suites.make()
        _ = try DefaultsSchema.publish(ConfigurationTestAccount(suite: suite, store: store, keyring: daemon.keyring))
        try daemon.keyring.setSecret(Data(Self.secret.utf8), for: KeyringItem(service: suite, account: "apiToken"))
        try daemon.restart(unlocking: false)
        let keyring = daemon.keyring
        let (provider, reported) = try await HandlerReports.during {
            try DefaultsProvider(store: store, keyring: keyring)
        }
        #expect(try provider.value(forKey: AbsoluteConfigKey(["apiToken"]), type: .string).value == nil)
        #expect(reported.count == 1, "\(reported)")
        if case .readFailed(_, let underlying)? = reported.first {
            #expect(underlying as? KeyringError == .locked)
        } else {
            Issue.record("reported \(reported)")
        }
        try daemon.restart(unlocking: true)
        let fetched = try await provider.fetchValue(forKey: AbsoluteConfigKey(["apiToken"]), type: .string)
        #expect(fetched.value?.content == .string(Self.secret))
    }
}
