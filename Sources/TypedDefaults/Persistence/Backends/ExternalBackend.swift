import Foundation
import TypedDefaultsStorage

/// A ``DefaultsBackend`` of the program's, seen by the engine as its own backends are: stored
/// values converted to and from the engine's property-list objects at each load and commit.
struct ExternalBackend: StoreBackend {
    let backend: any DefaultsBackend

    var location: String { backend.location }

    /// What the program's backend announces, taken in off the announcing thread.
    func observeChanges(_ heard: @escaping @Sendable () -> Bool) {
        let announcements = ChangeAnnouncements(location: location, heard: heard)
        backend.observeChanges { announcements.announce() }
    }

    func loadContents() -> SuiteContents {
        let loaded = BackendCall.$loading.withValue(backend.location) {
            Result { () throws(DefaultsError) in try backend.load() }
        }
        switch loaded {
        case .success(let values): return SuiteContents(values: values.mapValues(Self.object))
        case .failure(let error): return SuiteContents(values: nil, problem: error, isUnreadable: true)
        }
    }

    /// The backend's administrator's layer, read as its values are: a backend that reads its
    /// own store from there gets the code's defaults.
    func loadAdministration() -> Result<DefaultsBackendAdministration?, DefaultsError> {
        BackendCall.$loading.withValue(backend.location) {
            Result { () throws(DefaultsError) in try backend.loadAdministration() }
        }
    }

    /// A program's backend may wait out timeouts before a load fails (a database that does not
    /// answer): failed loads are tried again after a growing pause, not on every read.
    var loadsCheaply: Bool { false }

    func reload(onlyIfChanged: Bool) -> Reloaded {
        // Values that cannot be read now are left for the next change or read.
        guard let values = loadContents().values else { return .unchanged }
        return .whole(values)
    }

    /// A backend of the program's stores what it is given; there is nothing for the engine to
    /// repair, so `repairing` does not apply.
    func commit(
        _ changes: [DefaultsStoredKey: StoredObject?], waitingAtMost limit: TimeInterval, repairing: Bool,
        edit: SuiteEdit.Body?
    ) throws(DefaultsError) -> SuiteContents {
        var storedChanges: [DefaultsStoredKey: DefaultsStoredValue?] = [:]
        for (key, object) in changes {
            storedChanges[key] = .some(
                try object.map { object throws(DefaultsError) in try Self.value(object, key: key) })
        }
        let contents = try backend.commit(storedChanges, before: .after(limit)) {
            values throws(DefaultsError) in
            guard let edit else { return }
            var objects = values.mapValues(Self.object)
            // The process cannot write part of an edit of another backend at exit: it ends
            // without this commit, and the values stay as they were.
            try objects.edit(with: edit) { _ throws(DefaultsError) in }
            var edited: [DefaultsStoredKey: DefaultsStoredValue] = [:]
            for (key, object) in objects { edited[key] = try Self.value(object, key: key) }
            values = edited
        }
        return SuiteContents(values: contents.mapValues(Self.object))
    }

    var refusal: (@Sendable (_ object: StoredObject, _ key: DefaultsStoredKey) -> DefaultsError?)? {
        { [backend] object, key in
            do throws(DefaultsError) {
                try backend.check(try Self.value(object, key: key), forKey: key)
                return nil
            } catch {
                return error
            }
        }
    }

    private static func object(_ value: DefaultsStoredValue) -> StoredObject {
        StoredObject(value.plistObject)
    }

    private static func value(_ object: StoredObject, key: DefaultsStoredKey) throws(DefaultsError)
        -> DefaultsStoredValue
    {
        guard let value = DefaultsStoredValue(plistObject: object.object) else {
            throw .encodingFailed(key: key.name, underlying: NotAPropertyList(type: type(of: object.object)))
        }
        return value
    }
}
