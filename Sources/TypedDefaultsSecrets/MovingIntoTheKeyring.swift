import Foundation
import TypedDefaults

extension DefaultsMigration {
    /// Moves the text a release stored in clear under `key` into the keyring, as the secret
    /// `@Secret(key)` reads, and removes it from the suite.
    ///
    /// ```swift
    /// try DefaultsStore.standard.migrate([
    ///     .moveIntoKeyring("openAIToken"),   // version 1: was @UserDefault("openAIToken") var openAIToken = ""
    /// ])
    /// ```
    ///
    /// The clear copy is removed only after the keyring confirmed the secret, in the step's one
    /// replacement of the suite's file. Stopped at any point, nothing is lost: before the keyring
    /// confirmed, the suite keeps the value and the step runs again at the next launch; after,
    /// both hold it until the step runs again. A secret the keyring already holds for the key
    /// is the newer one: it stays, and the clear copy is removed. An empty string is removed
    /// without a secret (an unset `String` setting). A keyring that cannot store it (locked,
    /// missing) fails the step with its ``KeyringError``, and the suite keeps the value. A dry
    /// run (`pendingMigrations`) touches no keyring and shows the value as "a secret".
    ///
    /// - Parameters:
    ///   - key: the key the value is stored under in the suite, and the secret's key.
    ///   - service: the program's name in the keyring, as `@Secret`'s; the standard suite's
    ///     name unless given (give it for a migration of another suite).
    ///   - keyring: the system's unless given.
    public static func moveIntoKeyring(_ key: String, service: String? = nil, keyring: any Keyring = SystemKeyring())
        -> DefaultsMigration
    {
        let item = KeyringItem(service: service ?? DefaultsStore.standardSuiteName, account: key)
        return .movingText(key, summary: "move \"\(key)\" into the keyring as \(item.label)") { text in
            if !text.isEmpty, try !keyring.containsSecret(for: item) {
                try keyring.setSecret(Data(text.utf8), for: item)
            }
        } notText: {
            NotText(key: key)
        }
    }
}

/// A value stored under a key being moved into the keyring that is not text; what it is stays
/// unsaid, as it may be the secret.
struct NotText: Error, CustomStringConvertible {
    var key: String
    var description: String { "the value stored under \"\(key)\" is not text, and only text moves into the keyring" }
}
