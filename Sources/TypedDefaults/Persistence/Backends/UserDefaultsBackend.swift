import Foundation
import TypedDefaultsStorage

/// Stores through a `UserDefaults` object, writing each change through at once.
///
/// Used on Apple platforms, where `UserDefaults` persists safely by itself, and on Linux for a
/// `UserDefaults` object whose suite cannot be determined. On Linux a commit synchronizes, since
/// corelibs Foundation writes only then; it has the limits of `synchronize()` (see
/// <doc:StoresAndDurability>).
struct UserDefaultsBackend: StoreBackend {
    let defaults: SharedDefaults

    var location: String { "defaults" }

    /// Each change `defaults` announces (on Apple platforms), heard from another queue: the
    /// engine's own writes through it are announced inside `set`, under the suite's lock.
    func observeChanges(_ heard: @escaping @Sendable () -> Bool) {
        defaults.defaults.onAnnouncedChange { DispatchQueue.global().async { _ = heard() } }
    }

    func loadContents() -> SuiteContents {
        .unknown
    }

    func reload(onlyIfChanged: Bool) -> Reloaded {
        defaults.defaults.synchronizeWhereNeeded()
        return .perKey
    }

    func object(forKey key: DefaultsStoredKey) -> StoredObject? {
        defaults.defaults.object(forKey: key.name).map(StoredObject.init)
    }

    /// The keys of the suite's own domain where its name is known (Linux), not the registered
    /// defaults and command-line arguments that `dictionaryRepresentation()` adds; elsewhere
    /// every key the object reads, from any of its domains (a key only another domain holds
    /// keeps its value when removed here).
    /// `UserDefaults` hands its domains out as `[String: Any]`, which keeps one of two keys
    /// equal as Swift strings: a suite of this backend lists only that one.
    func storedKeys() -> [DefaultsStoredKey] {
        if let name = PreferencesFolder.anySuiteName(of: defaults.defaults),
            let domain = defaults.defaults.persistentDomain(forName: name)
        {
            return domain.keys.map { DefaultsStoredKey($0) }
        }
        return defaults.defaults.dictionaryRepresentation().keys.map { DefaultsStoredKey($0) }
    }

    func writeThrough(key: DefaultsStoredKey, object: StoredObject?) {
        if let object {
            // `UserDefaults` keeps a value it finds equal to the one it holds (`3` over `3.0`)
            // as it was, so a migration that only changes a number's type would be lost.
            if let old = defaults.defaults.object(forKey: key.name) as? NSObject, old.isEqual(object.object),
                !StoredObject.same(old, object.object)
            {
                defaults.defaults.removeObject(forKey: key.name)
            }
            defaults.defaults.set(object.object, forKey: key.name)
        } else {
            // Never set(nil, forKey:): it loops forever on Linux.
            defaults.defaults.removeObject(forKey: key.name)
        }
    }

    /// `UserDefaults.set` crashes on a dictionary with keys equal as Swift strings, which only
    /// another program's suite holds (see ``StoredObject/ExactDictionary``): such a value is
    /// refused as it is written.
    var refusal: (@Sendable (_ object: StoredObject, _ key: DefaultsStoredKey) -> DefaultsError?)? {
        { object, key in
            guard Self.holdsExactDictionary(object.object) else { return nil }
            return .encodingFailed(key: key.name, underlying: KeysEqualAsStrings())
        }
    }

    private static func holdsExactDictionary(_ object: Any) -> Bool {
        if object is StoredObject.ExactDictionary { return true }
        if let elements = object as? [Any] { return elements.contains(where: holdsExactDictionary) }
        if let entries = object as? [String: Any] { return entries.values.contains(where: holdsExactDictionary) }
        return false
    }

    func register(_ defaults: [DefaultsStoredKey: StoredObject]) {
        self.defaults.defaults.register(defaults: Self.foundationDictionary(defaults))
    }

    /// Values keyed by their names, for Foundation's API.
    static func foundationDictionary(_ values: [DefaultsStoredKey: StoredObject]) -> [String: Any] {
        var dictionary: [String: Any] = [:]
        for (key, value) in values { dictionary[key.name] = value.object }
        return dictionary
    }

    /// `changes` were written through as they were made; `edit` changes are written through
    /// now. On Linux, synchronizes, since corelibs Foundation writes only then.
    func commit(
        _ changes: [DefaultsStoredKey: StoredObject?], waitingAtMost limit: TimeInterval, repairing: Bool,
        edit: SuiteEdit.Body?
    ) throws(DefaultsError) -> SuiteContents {
        if let edit {
            let suiteEdit = SuiteEdit(base: { object(forKey: $0) }, keys: { Set(storedKeys()) })
            let writeChanges = { [unowned suiteEdit] in
                // Never a value `UserDefaults.set` would crash on.
                for (key, object) in suiteEdit.changes where object.map({ refusal?($0, key) == nil }) ?? true {
                    writeThrough(key: key, object: object)
                }
            }
            suiteEdit.writeNow = {
                writeChanges()
                synchronize()
            }
            try edit(suiteEdit)
            // Checked whole before any is written, so a refused edit writes nothing.
            for (key, object) in suiteEdit.changes {
                if let object, let problem = refusal?(object, key) { throw problem }
            }
            writeChanges()
        }
        synchronize()
        return .unknown
    }

    private func synchronize() {
        defaults.defaults.synchronizeWhereNeeded()
    }
}

/// A dictionary whose keys `UserDefaults` cannot keep apart.
struct KeysEqualAsStrings: Error, CustomStringConvertible {
    var description: String {
        "it holds a dictionary with keys that differ only in their Unicode normalization, which UserDefaults cannot keep apart"
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
