/// Why the system's secret store could not answer. Never holds a secret's value: only what is
/// missing, refused or broken, so that it can be logged. A minor version may add a case (a
/// keyring of another platform, a new refusal): a `switch` that names every case ends with
/// `@unknown default`.
@nonexhaustive
public enum KeyringError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No session bus to reach the Secret Service over (a server, a container, a session
    /// started without one).
    case noSessionBus(String)
    /// No program answers for the Secret Service on the bus (no keyring daemon running or
    /// installed), or it has no default keyring to keep items in.
    case serviceUnavailable(String)
    /// The keyring that holds, or would hold, the item is locked: a read cannot tell whether a
    /// secret is stored (a keyring locked since it started lists none of its items). Nothing
    /// here asks to unlock it: the desktop's keyring tool or `gnome-keyring-daemon --unlock` does.
    case locked
    /// The secret store did not answer in time.
    case timedOut
    /// The secret store refused the call: its error's name and message.
    case refused(String, String)
    /// The secret store answered with something that is not what the protocol says.
    case malformedReply(String)
    /// The stored secret is not text (for a `String` secret).
    case notText
    /// A secret larger than the keyring keeps here (1 MiB): tokens and passwords are far smaller.
    case tooLarge(bytes: Int)
    /// The item's key or service cannot be named to the keyring (it holds a NUL character).
    case unsupportedItem(String)

    public var description: String {
        switch self {
        case .noSessionBus(let reason): "no session bus to reach the system's secret store: \(reason)"
        case .serviceUnavailable(let reason): "the system's secret store is not available: \(reason)"
        case .locked: "the keyring is locked; unlock it with the desktop's keyring tool"
        case .timedOut: "the system's secret store did not answer in time"
        case .refused(let name, let message):
            "the system's secret store refused: \(name)\(message.isEmpty ? "" : ": \(message)")"
        case .malformedReply(let reason): "the system's secret store answered outside the protocol: \(reason)"
        case .notText: "the stored secret is not UTF-8 text"
        case .tooLarge(let bytes): "a secret of \(bytes) bytes is larger than the 1 MiB the keyring keeps here"
        case .unsupportedItem(let reason): "the keyring cannot name this item: \(reason)"
        }
    }
}
