/// What a pending migration step would change, gathered by a dry run. `TypedDefaultsSchema`
/// gives it to users as its `DefaultsMigrationReport`; the core only gathers it.
package struct MigrationPreview: Sendable {
    /// One key the step would change, its values described.
    package struct Change: Sendable, Hashable {
        package let key: String
        /// The suite the key is in, when the step moves it to another suite.
        package let suite: String?
        package let oldValue: String?
        package let newValue: String?
    }

    package let version: Int
    package let summary: String
    package let changes: [Change]
    package let error: DefaultsError?
}
