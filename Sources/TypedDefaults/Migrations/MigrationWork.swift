import Foundation

/// A suite's contents while a migration step runs: reads see the suite with the step's changes,
/// and the changes collect here, to be committed only once the whole step has succeeded.
struct MigrationWork {
    /// A value to store in another suite before this one's changes are committed.
    struct Move {
        let store: DefaultsStore
        let key: String
        let object: StoredObject
    }

    private let stored: (DefaultsStoredKey) -> StoredObject?
    private let storedKeys: () -> Set<DefaultsStoredKey>
    /// Every key changed so far: `nil` removes it.
    private(set) var changes: [DefaultsStoredKey: StoredObject?] = [:]
    var moves: [Move] = []
    /// Whether this is a dry run: a step changes nothing outside the suite.
    var isPreview = false
    /// Keys whose values a dry run does not show (secrets on their way out of the suite).
    var secretKeys: Set<DefaultsStoredKey> = []

    init(stored: @escaping (DefaultsStoredKey) -> StoredObject?, storedKeys: @escaping () -> Set<DefaultsStoredKey>) {
        self.stored = stored
        self.storedKeys = storedKeys
    }

    /// The object stored under the key named exactly `name`, with the changes.
    subscript(name: String) -> StoredObject? {
        get { self[stored: DefaultsStoredKey(name)] }
        set { self[stored: DefaultsStoredKey(name)] = newValue }
    }

    subscript(stored key: DefaultsStoredKey) -> StoredObject? {
        get {
            if let changed = changes[key] { return changed }
            return stored(key)
        }
        set { changes[key] = .some(newValue) }
    }

    /// Every key held, with the changes.
    var keys: Set<DefaultsStoredKey> {
        var keys = storedKeys()
        for (key, object) in changes {
            if object == nil { keys.remove(key) } else { keys.insert(key) }
        }
        return keys
    }

    /// The JSON bytes of a value stored as a JSON string or as JSON `Data`.
    static func json(in object: StoredObject) throws -> Data {
        switch object.object {
        case let text as String: return Data(text.utf8)
        case let data as Data: return data
        default:
            throw DefaultsTypeMismatch(
                expected: "JSON as a String or Data", found: StoredObject.describe(object.object))
        }
    }
}

extension MigrationWork {
    /// The changes made since `before`, described, sorted by key; moves to other suites last.
    func changes(since before: MigrationWork) -> [MigrationPreview.Change] {
        let describe = { (object: StoredObject?) in object.map { StoredObject.describe($0.object) } }
        let local = changes.keys.sorted().compactMap { key -> MigrationPreview.Change? in
            let (old, new) = (before[stored: key], self[stored: key])
            guard !StoredObject.same(old, new) else { return nil }
            let shown = { (object: StoredObject?) in
                secretKeys.contains(key) ? object.map { _ in "a secret" } : describe(object)
            }
            return MigrationPreview.Change(key: key.name, suite: nil, oldValue: shown(old), newValue: shown(new))
        }
        let moved = moves.map { move in
            MigrationPreview.Change(
                key: move.key, suite: move.store.state.location, oldValue: nil, newValue: describe(move.object))
        }
        return local + moved
    }
}
