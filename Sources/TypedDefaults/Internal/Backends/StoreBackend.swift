/// Where a suite's values live: a plist file, a `UserDefaults` object, or memory.
protocol StoreBackend: Sendable {
    /// Everything stored, when the backend reads its suite whole; `values` is `nil` when it
    /// reads one key at a time with ``object(forKey:)``.
    func load() -> SuiteContents

    /// The stored object for `key`, for backends that do not load whole.
    func object(forKey key: String) -> PropertyList?

    /// What the backend holds now, for ``SuiteState/reload(onlyIfChanged:)``. With
    /// `onlyIfChanged`, a backend that can tell may answer `.unchanged` without reading.
    func reload(onlyIfChanged: Bool) -> Reloaded

    /// Called with each write as it happens, under the suite's lock, for backends that others in
    /// the process read directly (a `UserDefaults` object).
    func writeThrough(key: String, object: PropertyList?)

    /// Makes `changes` durable (`nil` removes a key), then applies `update`, all under one
    /// cross-process lock where the backend has one. Returns the suite's whole contents after
    /// the commit when the backend knows them.
    func commit(_ changes: [String: PropertyList?], update: KeyUpdate?) throws(DefaultsError) -> SuiteContents

    /// Shows `defaults` to plain `UserDefaults` readers of the suite, in its registration domain.
    func register(_ defaults: [String: PropertyList])
}

/// A suite's contents as a backend found them, and a problem met on the way (a corrupt file
/// moved aside) that the caller reports once it holds no lock, so an error handler that uses
/// the same suite cannot deadlock.
struct SuiteContents {
    var values: [String: PropertyList]?
    var problem: DefaultsError?

    init(values: [String: PropertyList]?, problem: DefaultsError? = nil) {
        self.values = values
        self.problem = problem
    }

    static let unknown = SuiteContents(values: nil)
}

/// What a backend found when asked to reload.
enum Reloaded {
    /// The whole suite.
    case whole([String: PropertyList])
    /// Ask ``StoreBackend/object(forKey:)`` for each key again.
    case perKey
    /// Nothing changed since this process last wrote or read it.
    case unchanged
}

/// A read-modify-write of one key, run by ``StoreBackend/commit(_:update:)`` on the freshest
/// stored object.
struct KeyUpdate {
    let key: String
    /// Returns the object to store (`nil` removes the key) given the one stored now.
    let transform: (PropertyList?) -> PropertyList?
}

extension StoreBackend {
    func object(forKey key: String) -> PropertyList? { nil }
    func writeThrough(key: String, object: PropertyList?) {}
    func register(_ defaults: [String: PropertyList]) {}
}

extension Dictionary where Key == String, Value == PropertyList {
    /// Applies committed changes and an update to a suite's contents.
    mutating func apply(_ changes: [String: PropertyList?], _ update: KeyUpdate?) {
        for (key, object) in changes {
            self[key] = object
        }
        if let update {
            self[update.key] = update.transform(self[update.key])
        }
    }
}
