import TypedDefaults

extension DefaultsStore {
    /// What each step the suite has not run yet would change, without writing anything: for a
    /// review, a log line, or a command-line `--dry-run`. It reads the suite as it is on disk,
    /// under its lock; this process's writes not yet flushed stay pending.
    ///
    /// ```swift
    /// for step in try store.pendingMigrations(steps) {
    ///     print("version \(step.version): \(step.summary)")
    ///     for change in step.changes { print("  \(change)") }
    /// }
    /// ```
    ///
    /// Each step sees what the steps before it would have left. A step that would fail is
    /// reported with its error, and the steps after it are not listed.
    public func pendingMigrations(_ steps: [DefaultsMigration]) throws(DefaultsError) -> [DefaultsMigrationReport] {
        try previewMigrations(steps).map(DefaultsMigrationReport.init)
    }
}

/// What a pending migration step would change, as
/// ``TypedDefaults/DefaultsStore/pendingMigrations(_:)`` reports it.
///
/// ```swift
/// // version 1: rename "userName" to "displayName"
/// //   displayName: nothing → String "Ada"
/// //   userName: String "Ada" → nothing
/// ```
public struct DefaultsMigrationReport: Sendable, CustomStringConvertible {
    /// One key the step would change.
    public struct Change: Sendable, Hashable, CustomStringConvertible {
        /// The key; for a `DefaultsMigration.moveKey(_:to:as:)`, in the suite named by `suite`.
        public let key: String
        /// The suite the key is in, when it is another suite than the one migrated.
        public let suite: String?
        /// The stored value before, described; `nil` when nothing is stored.
        public let oldValue: String?
        /// The stored value after, described; `nil` when the key is removed.
        public let newValue: String?

        init(_ change: MigrationPreview.Change) {
            key = change.key
            suite = change.suite
            oldValue = change.oldValue
            newValue = change.newValue
        }

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

    init(_ preview: MigrationPreview) {
        version = preview.version
        summary = preview.summary
        changes = preview.changes.map(Change.init)
        error = preview.error
    }

    public var description: String {
        let header = "version \(version): \(summary)" + (error.map { " — would fail: \($0)" } ?? "")
        return ([header] + changes.map { "  \($0)" }).joined(separator: "\n")
    }
}
