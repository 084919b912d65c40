/// A write whose new contents are in place, renamed over the old file, but whose folder the
/// device did not confirm it synced: a power cut may still bring back the old contents. Reported
/// as the `underlying` error of ``DefaultsError/writeFailed(path:underlying:)``; the changes stay
/// pending, and the next flush writes them again.
public struct DefaultsUnconfirmedWrite: Error, CustomStringConvertible, Sendable {
    /// Why the sync failed: an `EIO` from the device, say.
    public let reason: String

    init(underlying: any Error) {
        reason = "\(underlying)"
    }

    public var description: String {
        "the new contents are in place, but the device did not confirm they are on it (\(reason))"
    }
}
