import Foundation

extension DefaultsStore {
    /// The key under which a suite records the last migration step it ran (an integer).
    ///
    /// Reserved: do not store anything else under it. ``removeAll()`` removes it with every
    /// other key, so the steps run again on the next ``migrate(_:)``; they find nothing to
    /// change. The key keeps the name suites have always stored it under.
    public static let migrationVersionKey = "TypedDefaults.schemaVersion"

    /// How many migration steps the suite has run: 0 before its first ``migrate(_:)``. When the
    /// reserved key holds something other than an integer, 0, reported like any unreadable
    /// value; ``migrate(_:)`` then runs no step, since which ones ran is unknown.
    ///
    /// ```swift
    /// if store.migrationVersion < 3 { print("settings from an older release") }
    /// ```
    public var migrationVersion: Int {
        switch state.read(state.slot(for: Self.migrationVersionKey), as: Int.self) {
        case .cached(.success(let version)), .decoded(.success(let version)):
            return version
        case .decoded(.failure(let error)):
            DefaultsError.report(error)
            return 0
        case .missing, .cached(.failure):
            return 0
        }
    }

    /// Runs the steps the suite has not run yet, in order, each once: step N brings the suite to
    /// version N.
    ///
    /// ```swift
    /// let store = try DefaultsStore(suiteName: "com.example.app")
    /// try store.migrate([
    ///     .renameKey("userName", to: "displayName"),                                           // version 1
    ///     .convert("theme", from: Int.self, to: Theme.self) { $0 == 1 ? Theme.dark : .light },  // version 2
    ///     .dropKey("legacyFlag"),                                                                // version 3
    /// ])
    /// store.migrationVersion   // 3; migrating again with the same steps changes nothing
    /// ```
    ///
    /// Each step runs under the suite's cross-process lock on the suite as it is on disk, and
    /// what it changes is written in one atomic replacement of the file, with the new version:
    /// two processes migrating at once run each step once, and a crash leaves the file with all
    /// of a step or none of it. A step that throws changes nothing; the error is reported to
    /// ``DefaultsError/handler`` and thrown (``DefaultsError/migrationFailed(version:step:underlying:)``),
    /// later steps do not run, and the program goes on with what is stored and with defaults.
    ///
    /// Migrate before reading the keys the steps change: a read of a value still in its old
    /// format gives the default and reports a type mismatch, and leaves the value for the step.
    /// A suite already at the last version costs one read of the cached version; one at a later
    /// version (a newer release ran, then an older one was installed) is left alone.
    public func migrate(_ steps: [DefaultsMigration]) throws(DefaultsError) {
        guard migrationVersion < steps.count else { return }
        for (index, step) in steps.enumerated() {
            do {
                try run(step, version: index + 1)
            } catch {
                DefaultsError.report(error)
                throw error
            }
        }
    }

    /// What each step the suite has not run yet would change, without writing anything, for
    /// `TypedDefaultsSchema`'s dry run. It reads the suite as it is on disk, under its lock;
    /// each step sees what the steps before it would have left, and a step that would fail
    /// ends the list with its error.
    package func previewMigrations(_ steps: [DefaultsMigration]) throws(DefaultsError) -> [MigrationPreview] {
        var reports: [MigrationPreview] = []
        try state.commitEdit(committingPending: false) { edit in
            var work = MigrationWork(stored: { edit[$0] }, storedKeys: edit.baseKeys)
            work.isPreview = true
            let current = (try? Self.version(in: work[Self.migrationVersionKey])) ?? 0
            for (index, step) in steps.enumerated() where index + 1 > current {
                let before = work
                do {
                    try step.apply(&work)
                } catch {
                    reports.append(
                        MigrationPreview(
                            version: index + 1, summary: step.summary, changes: [],
                            error: .migrationFailed(version: index + 1, step: step.summary, underlying: error)))
                    return
                }
                reports.append(
                    MigrationPreview(
                        version: index + 1, summary: step.summary, changes: work.changes(since: before), error: nil))
                work.moves = []
            }
        }
        return reports
    }

    /// Runs `step` as version `version`, unless the suite has reached it.
    private func run(_ step: DefaultsMigration, version: Int) throws(DefaultsError) {
        var warning: DefaultsError?
        try state.commitEdit { [state, sizeLimit] edit throws(DefaultsError) in
            let before = sizeLimit.measures ? edit.contents : [:]
            let current: Int
            do {
                current = try Self.version(in: edit[DefaultsStoredKey(Self.migrationVersionKey)])
            } catch {
                throw .migrationFailed(version: version, step: step.summary, underlying: error)
            }
            guard current < version else { return }
            var work = MigrationWork(stored: { edit[$0] }, storedKeys: edit.baseKeys)
            do {
                try step.apply(&work)
                for move in work.moves {
                    if move.store.state === state {
                        if work[move.key] == nil { work[move.key] = move.object }
                    } else {
                        let key = DefaultsStoredKey(move.key)
                        try move.store.state.commitEdit { destination in
                            if destination[key] == nil { destination[key] = move.object }
                        }
                    }
                }
            } catch {
                throw .migrationFailed(version: version, step: step.summary, underlying: error)
            }
            for (key, object) in work.changes { edit[key] = object }
            edit[DefaultsStoredKey(Self.migrationVersionKey)] = StoredObject(version)
            // A step that would take the suite past the store's limit fails as any other does.
            do {
                // Not the version it records: a step that cleans up a suite past the limit is
                // always made.
                warning = try sizeLimit.check(
                    edit, from: before, path: state.location, ignoring: DefaultsStoredKey(Self.migrationVersionKey))
            } catch {
                throw .migrationFailed(version: version, step: step.summary, underlying: error)
            }
        }
        if let warning { DefaultsError.report(warning) }
    }

    /// The version a stored object records; none stored is version 0.
    private static func version(in object: StoredObject?) throws -> Int {
        guard let object else { return 0 }
        return try Int(bridgedObject: object.object)
    }
}
