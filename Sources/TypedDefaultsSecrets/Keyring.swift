import Foundation

/// Where secret settings live: the seam the system's secret store and the in-memory keyring
/// of tests conform to. An item is named by the program it belongs to (`service`, the suite's
/// name) and the setting's key (`account`).
public protocol Keyring: Sendable {
    /// The secret stored for `item`, or `nil` when none is. Throws ``KeyringError/locked``
    /// when the keyring that holds or would hold it is locked, whether or not an item is there:
    /// a locked keyring need not say what it holds.
    func secret(for item: KeyringItem) throws(KeyringError) -> Data?
    /// Stores `secret` for `item`, replacing any, once the store confirmed it.
    func setSecret(_ secret: Data, for item: KeyringItem) throws(KeyringError)
    /// Removes the secret stored for `item`; no error when there is none (``KeyringError/locked``
    /// when a locked keyring cannot tell).
    func removeSecret(for item: KeyringItem) throws(KeyringError)
    /// Whether a secret is stored for `item`, without reading it: what tools show
    /// (``KeyringError/locked`` when a locked keyring cannot tell).
    func containsSecret(for item: KeyringItem) throws(KeyringError) -> Bool
}

/// One secret in a keyring: the program it belongs to and its key, and the label a person
/// browsing the keyring reads.
public struct KeyringItem: Hashable, Sendable, CustomStringConvertible {
    /// The program's name: its suite's name (`com.example.app`).
    public var service: String
    /// The setting's key (`openAIToken`).
    public var account: String

    public init(service: String, account: String) {
        self.service = service
        self.account = account
    }

    /// What the item is called in the keyring: `openAIToken (com.example.app)`.
    public var label: String { "\(account) (\(service))" }

    public var description: String { "keyring item \(label)" }
}

extension Keyring where Self == SystemKeyring {
    /// The system's secret store: the freedesktop Secret Service on Linux (GNOME Keyring,
    /// KeePassXC, KWallet), the Keychain on Apple platforms.
    public static var system: SystemKeyring { SystemKeyring() }
}
