import Foundation

/// When a write reaches the disk.
///
/// ```swift
/// let settings = try DefaultsStore(suiteName: "com.example.app")                          // within 100 ms
/// let ledger = try DefaultsStore(suiteName: "com.example.ledger", durability: .immediate) // before set returns
/// ```
public struct Durability: Sendable, Hashable, CustomStringConvertible {
    /// The delay before a flush, or `nil` to flush before the setter returns.
    let window: TimeInterval?

    /// Writes are gathered and flushed together at most `window` after the first of them, and
    /// at normal process exit. The setter never waits for the disk.
    public static func coalesced(within window: Duration) -> Durability {
        let (seconds, attoseconds) = window.components
        return Durability(window: max(0, Double(seconds) + Double(attoseconds) / 1e18))
    }

    /// Writes are coalesced and flushed within 100 ms: the default.
    public static let coalesced = Durability.coalesced(within: .milliseconds(100))

    /// Every write is on disk before the setter returns. A plist-file suite rewrites its file on
    /// each write (about a millisecond with a few keys), so keep this for rare, precious writes.
    public static let immediate = Durability(window: nil)

    public var description: String {
        window.map { ".coalesced(within: \($0 * 1000) ms)" } ?? ".immediate"
    }
}
