import Foundation
import TypedDefaults
import TypedDefaultsStorage

/// A keyring in memory, for tests and previews: a program's tests never touch the user's
/// keyring, and can make it fail as a locked or missing one does.
///
/// ```swift
/// let keyring = MemoryKeyring()
/// let token = Secret("openAIToken", keyring: keyring)
/// keyring.failure = .locked   // every call now throws, as with a locked keyring
/// ```
public final class MemoryKeyring: Keyring, CustomReflectable {
    private struct State: Sendable {
        var secrets: [KeyringItem: Data] = [:]
        var failure: KeyringError?
    }

    private let state = Locked(State())

    public init() {}

    /// How many secrets it holds, never what they are: `dump` shows no secret.
    public var customMirror: Mirror {
        Mirror(self, children: ["secrets": state.withLock { $0.secrets.count }], displayStyle: .class)
    }

    /// The error every call throws while it is set.
    public var failure: KeyringError? {
        get { state.withLock { $0.failure } }
        set { state.withLock { $0.failure = newValue } }
    }

    /// `body` on the secrets, unless a ``failure`` is set.
    private func withSecrets<Result>(_ body: (inout [KeyringItem: Data]) -> Result) throws(KeyringError) -> Result {
        let outcome = state.withLock { state -> Swift.Result<Result, KeyringError> in
            if let failure = state.failure { return .failure(failure) }
            return .success(body(&state.secrets))
        }
        return try outcome.get()
    }

    public func secret(for item: KeyringItem) throws(KeyringError) -> Data? {
        try withSecrets { $0[item] }
    }

    public func setSecret(_ secret: Data, for item: KeyringItem) throws(KeyringError) {
        try withSecrets { $0[item] = secret }
    }

    public func removeSecret(for item: KeyringItem) throws(KeyringError) {
        try withSecrets { $0[item] = nil }
    }

    public func containsSecret(for item: KeyringItem) throws(KeyringError) -> Bool {
        try withSecrets { $0[item] != nil }
    }
}
