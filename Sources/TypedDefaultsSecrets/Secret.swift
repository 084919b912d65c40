import Foundation
import TypedDefaults

/// A secret setting: a token or a password declared beside the other settings, kept in the
/// system's secret store (<doc:SecretSettings>), never in the suite's file.
///
/// ```swift
/// final class AccountSettings {
///     @Secret("openAIToken") var openAIToken: String?
/// }
/// ```
///
/// Reading asks the keyring each time (the wrapper keeps no copy; the value you read is an
/// ordinary `String`); `nil` means none is stored. A read that fails (a locked keyring, no secret store) answers `nil` and reports
/// `DefaultsError.readFailed(path:underlying:)` with a ``KeyringError``; a write that fails
/// reports `DefaultsError.writeFailed(path:underlying:)`, saying the secret was not stored,
/// and stores nothing anywhere else.
/// To handle the error where it happens, use the projected value:
/// `try $openAIToken.set("sk-…")`. Assigning `nil` removes the item.
///
/// Its description names the item, never the value: `Secret(openAIToken (com.example.app))`.
///
/// In a `SettingsCatalog`, a secret is published with the other settings
/// (`DefaultsSchema.publish(_:keys:)`), in the schema of the suite its `service` names, marked
/// as a secret: `typed-defaults` then shows whether it is set and takes a new one from standard
/// input, the settings page shows a field to replace it, and the configuration provider answers
/// it as a secret. None of them shows its value.
@propertyWrapper
public struct Secret: Sendable, CustomStringConvertible, CustomReflectable {
    /// The keyring item: the program's suite name and the key.
    public let item: KeyringItem
    /// Where the secret is kept.
    public let keyring: any Keyring
    /// The title and info text its suite's schema gives it.
    let title: String, info: String

    /// A secret named `key`, filed under `service` (the standard suite's name unless given:
    /// the bundle identifier, the name `DefaultsStore.nameStandardSuite(_:)` gave, or the
    /// program's), in `keyring` (the system's unless given).
    ///
    /// - Parameters:
    ///   - key: the secret's key, the item's account.
    ///   - service: the suite whose program it belongs to, the item's service; the standard
    ///     suite's name unless given. Its schema lists the secret.
    ///   - keyring: where it is kept; the system's keyring unless given.
    ///   - title: what a settings page calls it; the key unless given.
    ///   - info: a sentence a settings page shows under the title; none unless given.
    public init(
        _ key: String, service: String? = nil, keyring: any Keyring = SystemKeyring(), title: String = "",
        info: String = ""
    ) {
        item = KeyringItem(service: service ?? DefaultsStore.standardSuiteName, account: key)
        self.keyring = keyring
        (self.title, self.info) = (title, info)
    }

    /// A secret named `key`, filed under the suite of `store`: its item's service is the suite's
    /// name, and its schema is that suite's. What an `@ObservableSettings` model's secret is.
    ///
    /// ```swift
    /// let apiToken = Secret("apiToken", store: .app)
    /// ```
    ///
    /// On Apple platforms a store that `UserDefaults` keeps has no name the store knows: its
    /// secrets are filed under the standard suite's name, unless made with `service:`.
    ///
    /// - Parameters:
    ///   - key: the secret's key, the item's account.
    ///   - store: the store whose suite the secret belongs to.
    ///   - keyring: where it is kept; the system's keyring unless given.
    ///   - title: what a settings page calls it; the key unless given.
    ///   - info: a sentence a settings page shows under the title; none unless given.
    public init(
        _ key: String, store: DefaultsStore, keyring: any Keyring = SystemKeyring(), title: String = "",
        info: String = ""
    ) {
        self.init(key, service: store.keyringService, keyring: keyring, title: title, info: info)
    }

    /// The stored secret, or `nil`; a failure reads `nil` and is reported.
    public var wrappedValue: String? {
        get {
            do {
                return try value()
            } catch {
                DefaultsError.handler(.readFailed(path: item.description, underlying: error))
                return nil
            }
        }
        nonmutating set {
            do {
                try set(newValue)
            } catch {
                DefaultsError.handler(.writeFailed(path: item.description, underlying: error))
            }
        }
    }

    /// The wrapper itself, for the throwing calls: `try $openAIToken.set(token)`.
    public var projectedValue: Secret { self }

    /// The stored secret as text, or `nil` when none is stored.
    public func value() throws(KeyringError) -> String? {
        guard let data = try keyring.secret(for: item) else { return nil }
        guard let text = String(data: data, encoding: .utf8) else { throw .notText }
        return text
    }

    /// Stores `value`, replacing any, or removes the item for `nil`; returns once the keyring
    /// confirmed it.
    public func set(_ value: String?) throws(KeyringError) {
        guard let value else { return try keyring.removeSecret(for: item) }
        try keyring.setSecret(Data(value.utf8), for: item)
    }

    /// Whether a secret is stored, without reading it.
    public var isSet: Bool {
        get throws(KeyringError) { try keyring.containsSecret(for: item) }
    }

    public var description: String { "Secret(\(item.label))" }

    public var customMirror: Mirror { Mirror(self, children: ["item": item], displayStyle: .struct) }
}

/// A secret is stored in the keyring once it confirmed it, or nowhere: a write that failed keeps
/// no copy for later (a suite keeps its changes for the next flush). Its report says so.
extension KeyringError: WriteKeepsNothing {}

extension Secret: SchemaDeclaring {
    /// Declared in the schema of the suite its service names; nowhere when that is no suite's name.
    package var schemaDeclaration: (any SchemaDeclaration)? {
        let service = item.service
        let store =
            service == DefaultsStore.standardSuiteName ? DefaultsStore.standard : try? DefaultsStore(suiteName: service)
        return store.map { store in
            DeclaredKey<String>(
                name: item.account, defaultValue: nil, formattedDefaultValue: "", title: title, info: info,
                range: nil, options: nil, store: store, isSecret: true)
        }
    }
}
