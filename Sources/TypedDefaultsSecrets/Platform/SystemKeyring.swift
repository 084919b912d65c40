import Foundation

/// The system's secret store: on Linux the freedesktop Secret Service over the session bus
/// (GNOME Keyring, KeePassXC, KWallet); on Apple platforms the Keychain, whose code CI here
/// compiles against a stand-in for Security and never runs.
public struct SystemKeyring: Keyring {
    /// How long one operation may take before it fails with ``KeyringError/timedOut``.
    public var timeout: Duration

    /// Where the session bus's address is read from: the process's environment unless a test
    /// names a private bus.
    var environment: [String: String]?

    public init(timeout: Duration = .seconds(5)) {
        self.timeout = timeout
    }

    /// The store this platform has; the one place that tells the platforms apart.
    private var backend: any Keyring {
        #if canImport(Security)
            Keychain()
        #else
            SecretService(timeout: timeout, environment: environment ?? ProcessInfo.processInfo.environment)
        #endif
    }

    public func secret(for item: KeyringItem) throws(KeyringError) -> Data? {
        try backend.secret(for: item)
    }

    public func setSecret(_ secret: Data, for item: KeyringItem) throws(KeyringError) {
        try backend.setSecret(secret, for: item)
    }

    public func removeSecret(for item: KeyringItem) throws(KeyringError) {
        try backend.removeSecret(for: item)
    }

    public func containsSecret(for item: KeyringItem) throws(KeyringError) -> Bool {
        try backend.containsSecret(for: item)
    }
}
