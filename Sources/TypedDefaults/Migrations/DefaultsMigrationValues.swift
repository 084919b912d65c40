/// The stored objects of a suite, as a ``DefaultsMigration/custom(_:_:)`` step reads and
/// changes them.
///
/// ```swift
/// .custom("count launches in a dictionary") { values in
///     values["stats"] = ["launches": values["launchCount"] ?? 0]
///     values["launchCount"] = nil
/// }
/// ```
public struct DefaultsMigrationValues {
    private(set) var work: MigrationWork

    init(work: MigrationWork) {
        self.work = work
    }

    /// Every key the suite holds, with this step's changes.
    public var keys: [String] {
        work.keys.sorted().map(\.name)
    }

    /// The stored object for `key` (`nil` when nothing is stored); set `nil` to remove it.
    public subscript(key: String) -> Any? {
        get { work[key]?.object }
        set { work[key] = newValue.map(PropertyList.init) }
    }

    /// The work, once every object this step stored is a property list.
    func checkedWork() throws -> MigrationWork {
        for (key, object) in work.changes {
            guard let object = object?.object else { continue }
            if let problem = StoredObject.storageProblem(object) {
                throw DefaultsError.encodingFailed(key: key.name, underlying: problem.error(valueType: nil))
            }
        }
        return work
    }
}
