import Foundation

/// How large a suite may grow through a store, so that code tested on Linux meets the limit
/// Apple platforms put on a preferences domain in its tests, not on a user's device.
///
/// ```swift
/// extension DefaultsStore {
///     static let app = DefaultsStore(suite: "com.example.app")                       // 4 MiB
///     static let tv = DefaultsStore(suite: "com.example.tv").sizeLimit(.tvOS)       // 1 MB
///     static let cache = DefaultsStore(suite: "com.example.cache").sizeLimit(.none)
/// }
/// ```
///
/// Apple's preferences refuse a domain of 4 MiB or more on iOS, iPadOS, macOS and visionOS
/// (past it, writes are dropped), and on tvOS warn at 512 KB and end the app at 1 MB. A write
/// through the store that would take the suite past ``bytes`` is refused as it is made: the
/// value and the file stay as they were, and ``DefaultsError/sizeLimitExceeded(key:path:size:limit:)``
/// goes to the handler (the throwing forms throw it). A write that makes a suite no larger is
/// never refused, so a suite already past the limit can always be cleaned up. When a write first
/// takes the suite past ``warningBytes``, ``DefaultsError/nearingSizeLimit(path:size:limit:)`` is
/// reported, once until the suite falls below the mark again.
///
/// The size is the suite's as Apple platforms store it, a binary property list, estimated on
/// the high side (every object counted with a 4-byte offset and a 4-byte reference), so the same
/// values are refused at the same point on every platform.
public struct DefaultsSizeLimit: Sendable, Hashable {
    /// The most bytes a suite may hold after a write; `nil` for no limit.
    public let bytes: Int?
    /// The size at which a write reports that the suite nears the limit; `nil` for no warning.
    public let warningBytes: Int?

    /// A limit of `bytes`, warned of at `warningBytes` (half the limit unless given).
    public static func bytes(_ bytes: Int, warningAt warningBytes: Int? = nil) -> DefaultsSizeLimit {
        DefaultsSizeLimit(bytes: max(0, bytes), warningBytes: warningBytes ?? max(0, bytes) / 2)
    }

    /// iOS, iPadOS, macOS and visionOS: a domain holds less than 4 MiB (4,194,304 bytes).
    public static let iOS = DefaultsSizeLimit.bytes(4_194_304 - 1)

    /// tvOS: warned of at 512 KB, the app ended at 1 MB (and watchOS, which documents no limit
    /// of its own: the smaller one).
    public static let tvOS = DefaultsSizeLimit.bytes(1_000_000 - 1, warningAt: 512_000)

    /// No limit and no warning: for a store whose suite never reaches an Apple platform.
    public static let none = DefaultsSizeLimit(bytes: nil, warningBytes: nil)

}
