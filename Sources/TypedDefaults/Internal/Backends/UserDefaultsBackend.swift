import Foundation

/// Stores through a `UserDefaults` object, writing each change through at once.
///
/// Used on Apple platforms, where `UserDefaults` persists safely by itself, and on Linux for a
/// `UserDefaults` object whose suite cannot be determined. On Linux a commit synchronizes, since
/// corelibs Foundation writes only then; it has the limits of `synchronize()` (see the README).
struct UserDefaultsBackend: StoreBackend {
    let defaults: SharedDefaults

    func load() -> SuiteContents {
        .unknown
    }

    func reload(onlyIfChanged: Bool) -> Reloaded {
        #if !canImport(Darwin)
            // With nothing of its own to write, this drops corelibs' cached copy of the file.
            defaults.defaults.synchronize()
        #endif
        return .perKey
    }

    func object(forKey key: String) -> PropertyList? {
        defaults.defaults.object(forKey: key).map(PropertyList.init)
    }

    /// The keys of the suite's own domain where its name is known (Linux), not the registered
    /// defaults and command-line arguments that `dictionaryRepresentation()` adds; elsewhere
    /// every key the object reads, from any of its domains (a key only another domain holds
    /// keeps its value when removed here).
    func storedKeys() -> [String] {
        if let name = PreferencesFolder.anySuiteName(of: defaults.defaults),
            let domain = defaults.defaults.persistentDomain(forName: name)
        {
            return Array(domain.keys)
        }
        return Array(defaults.defaults.dictionaryRepresentation().keys)
    }

    func writeThrough(key: String, object: PropertyList?) {
        if let object {
            defaults.defaults.set(object.object, forKey: key)
        } else {
            // Never set(nil, forKey:): it loops forever on Linux.
            defaults.defaults.removeObject(forKey: key)
        }
    }

    func register(_ defaults: [String: PropertyList]) {
        self.defaults.defaults.register(defaults: defaults.mapValues(\.object))
    }

    /// `changes` were written through as they were made; `edit` changes are written through
    /// now. On Linux, synchronizes, since corelibs Foundation writes only then.
    func commit(
        _ changes: [String: PropertyList?], waitingAtMost limit: TimeInterval, repairing: Bool,
        edit: SuiteEdit.Body?
    ) throws(DefaultsError) -> SuiteContents {
        if let edit {
            let suiteEdit = SuiteEdit(base: { object(forKey: $0) }, keys: { Set(storedKeys()) })
            let writeChanges = { [unowned suiteEdit] in
                for (key, object) in suiteEdit.changes { writeThrough(key: key, object: object) }
            }
            suiteEdit.writeNow = {
                writeChanges()
                synchronize()
            }
            try edit(suiteEdit)
            writeChanges()
        }
        synchronize()
        return .unknown
    }

    private func synchronize() {
        #if !canImport(Darwin)
            defaults.defaults.synchronize()
        #endif
    }
}

/// A `UserDefaults` that may cross threads.
// @unchecked Sendable is sound: Apple documents UserDefaults as thread-safe, and corelibs
// Foundation guards each suite's state with a lock inside CFPreferences; the class is only not
// annotated Sendable on Linux. Nothing here mutates the reference itself.
struct SharedDefaults: @unchecked Sendable {
    let defaults: UserDefaults

    init(_ defaults: UserDefaults) {
        self.defaults = defaults
    }
}
