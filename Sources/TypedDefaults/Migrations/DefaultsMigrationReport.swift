/// What a pending migration step would change, as ``DefaultsStore/pendingMigrations(_:)``
/// reports it.
///
/// ```swift
/// // version 1: rename "userName" to "displayName"
/// //   displayName: nothing → String "Ada"
/// //   userName: String "Ada" → nothing
/// ```
public struct DefaultsMigrationReport: Sendable, CustomStringConvertible {
    /// One key the step would change.
    public struct Change: Sendable, Hashable, CustomStringConvertible {
        /// The key; for a ``DefaultsMigration/moveKey(_:to:as:)``, in the suite named by `suite`.
        public let key: String
        /// The suite the key is in, when it is another suite than the one migrated.
        public let suite: String?
        /// The stored value before, described; `nil` when nothing is stored.
        public let oldValue: String?
        /// The stored value after, described; `nil` when the key is removed.
        public let newValue: String?

        public var description: String {
            "\(suite.map { "\($0): " } ?? "")\(key): \(oldValue ?? "nothing") → \(newValue ?? "nothing")"
        }
    }

    /// The version the step brings the suite to.
    public let version: Int
    /// What the step does.
    public let summary: String
    /// What it would change, by key.
    public let changes: [Change]
    /// Why the step would fail, when it would: nothing of it, nor of the steps after it, would
    /// be written.
    public let error: DefaultsError?

    public var description: String {
        let header = "version \(version): \(summary)" + (error.map { " — would fail: \($0)" } ?? "")
        return ([header] + changes.map { "  \($0)" }).joined(separator: "\n")
    }
}
