import Foundation

/// Where a suite's values live: a plist file, a `UserDefaults` object, or memory.
protocol StoreBackend: Sendable {
    /// Names the suite in errors: a file's path, or a program's backend's own location.
    var location: String { get }

    /// Everything stored, when the backend reads its suite whole; `values` is `nil` when it
    /// reads one key at a time with ``object(forKey:)``.
    func loadContents() -> SuiteContents

    /// The stored object for `key`, for backends that do not load whole.
    func object(forKey key: DefaultsStoredKey) -> StoredObject?

    /// Every key stored, for backends that do not load whole: what ``DefaultsStore/removeAll()``
    /// removes besides the keys this process used. A requirement, so that a call through
    /// `any StoreBackend` reaches the backend's own list.
    func storedKeys() -> [DefaultsStoredKey]

    /// What the backend holds now, for the engine to reload the suite from. With
    /// `onlyIfChanged`, a backend that can tell may answer `.unchanged` without reading.
    func reload(onlyIfChanged: Bool) -> Reloaded

    /// Called with each write as it happens, under the suite's lock, for backends that others in
    /// the process read directly (a `UserDefaults` object).
    func writeThrough(key: DefaultsStoredKey, object: StoredObject?)

    /// Whether a write is committed when its ``Durability`` says. `false` for a backend that
    /// nothing outside the suite's state reads (memory): its writes stay pending in their
    /// slots, which answer every read, until an update or flush commits them, so a write there
    /// costs no more than a file store's and schedules nothing.
    var commitsOnSchedule: Bool { get }

    /// Makes `changes` durable (`nil` removes a key), then lets `edit` read and change the
    /// freshest contents, all under one cross-process lock where the backend has one, waited
    /// for at most `limit` seconds. Returns the suite's whole contents after the commit when
    /// the backend knows them. When `edit` throws, nothing is written, `changes` included.
    /// Contents that do not parse are set aside and replaced (the engine's repair), or, with
    /// `repairing` false, left as they are, and the commit throws
    /// ``DefaultsError/unparsableFile(path:underlying:)``.
    func commit(
        _ changes: [DefaultsStoredKey: StoredObject?], waitingAtMost limit: TimeInterval, repairing: Bool,
        edit: SuiteEdit.Body?
    ) throws(DefaultsError) -> SuiteContents

    /// Says why an object can never be stored under a key, or `nil`: checked before a write is
    /// made. `nil` for a backend that stores everything, so that a write asks nothing.
    var refusal: (@Sendable (_ object: StoredObject, _ key: DefaultsStoredKey) -> DefaultsError?)? { get }

    /// Whether a load that fails fails fast (a file), so that the next read may try again at
    /// once; `false` for a program's backend, whose load may wait out its own timeouts.
    var loadsCheaply: Bool { get }

    /// Shows `defaults` to plain `UserDefaults` readers of the suite, in its registration domain.
    func register(_ defaults: [DefaultsStoredKey: StoredObject])

    /// Everything stored, read without the cross-process lock and repairing nothing, for a
    /// backend whose writers replace its contents atomically; `nil` for one that must be read
    /// under its lock (a commit that edits nothing).
    func readWholeWithoutLock() throws(DefaultsError) -> [DefaultsStoredKey: StoredObject]?

    /// Hands the storage this process's plain `UserDefaults` writes not yet synchronized, so that
    /// a reload takes them in: the suite's file does (corelibs keeps them in memory until
    /// `synchronize()`); nothing to do for a suite `UserDefaults` keeps (its reload
    /// synchronizes), in memory, or on a program's backend.
    func writePlainWrites() throws(DefaultsError)

    /// The one way a backend tells the engine its contents may have changed other than through
    /// the suite's state: another process's write (the file watcher), a `UserDefaults` object's
    /// announcement, a program's backend's `observeChanges`. The engine calls it once, as the
    /// suite is first used; the backend calls `heard` on a thread that holds none of the
    /// suite's locks, and `heard` takes the changes in and returns whether there were any.
    func observeChanges(_ heard: @escaping @Sendable () -> Bool)
}

/// A suite's contents as a backend found them, and a problem met on the way (a corrupt file
/// moved aside, a file that could not be read) that the caller reports once it holds no lock,
/// so an error handler that uses the same suite cannot deadlock.
struct SuiteContents {
    var values: [DefaultsStoredKey: StoredObject]?
    var problem: DefaultsError?
    /// The contents could not be read at all: nothing is known, and a later read tries again.
    var isUnreadable = false

    static let unknown = SuiteContents(values: nil)
}

/// What a backend found when asked to reload.
enum Reloaded {
    /// The whole suite.
    case whole([DefaultsStoredKey: StoredObject])
    /// Ask ``StoreBackend/object(forKey:)`` for each key again.
    case perKey
    /// Nothing changed since this process last wrote or read it, or it cannot be read now.
    case unchanged
}

/// The contents of a suite during a commit, as read under its lock, and the changes made to
/// them so far. An update reads and writes keys here; an update or flush nested in it (from
/// the update's own body, on the same thread) joins it rather than waiting for a lock its own
/// thread holds.
final class SuiteEdit {
    /// What a commit runs on the edit; throwing abandons the whole commit.
    typealias Body = (SuiteEdit) throws(DefaultsError) -> Void

    private let base: (DefaultsStoredKey) -> StoredObject?
    /// The keys the contents held before the edit.
    let baseKeys: () -> Set<DefaultsStoredKey>
    /// The contents before the edit, for a backend that reads its suite whole: what a suite not
    /// loaded yet loads from inside the commit, which holds the backend's lock.
    let wholeBase: [DefaultsStoredKey: StoredObject]?
    /// Every key changed so far: `nil` removes it.
    private(set) var changes: [DefaultsStoredKey: StoredObject?] = [:]
    /// Writes the contents as they stand now, for a process that exits in the middle of the
    /// commit (`exit()` called from an update's body).
    var writeNow: () throws(DefaultsError) -> Void = {}

    init(base: @escaping (DefaultsStoredKey) -> StoredObject?, keys: @escaping () -> Set<DefaultsStoredKey>) {
        self.base = base
        baseKeys = keys
        wholeBase = nil
    }

    init(whole: [DefaultsStoredKey: StoredObject]) {
        base = { whole[$0] }
        baseKeys = { Set(whole.keys) }
        wholeBase = whole
    }

    subscript(key: DefaultsStoredKey) -> StoredObject? {
        get {
            if let changed = changes[key] { return changed }
            return base(key)
        }
        set { changes[key] = .some(newValue) }
    }

    /// What the contents held under `key` before the edit.
    func original(_ key: DefaultsStoredKey) -> StoredObject? {
        base(key)
    }

    /// Applies `changes` on top of what the edit holds.
    func apply(_ changes: [DefaultsStoredKey: StoredObject?]) {
        for (key, object) in changes { self[key] = object }
    }
}

extension StoreBackend {
    func object(forKey key: DefaultsStoredKey) -> StoredObject? { nil }
    func storedKeys() -> [DefaultsStoredKey] { [] }
    func writeThrough(key: DefaultsStoredKey, object: StoredObject?) {}
    var refusal: (@Sendable (_ object: StoredObject, _ key: DefaultsStoredKey) -> DefaultsError?)? { nil }
    var commitsOnSchedule: Bool { true }
    var loadsCheaply: Bool { true }
    func register(_ defaults: [DefaultsStoredKey: StoredObject]) {}
    func readWholeWithoutLock() throws(DefaultsError) -> [DefaultsStoredKey: StoredObject]? { nil }
    func writePlainWrites() throws(DefaultsError) {}
    func observeChanges(_ heard: @escaping @Sendable () -> Bool) {}
}

extension Dictionary where Key == DefaultsStoredKey, Value == StoredObject {
    /// Applies committed changes to a suite's contents.
    mutating func apply(_ changes: [DefaultsStoredKey: StoredObject?]) {
        for (key, object) in changes {
            self[key] = object
        }
    }

    /// Runs `edit` on these contents and applies what it changed; `writeNow` receives the
    /// contents as they stand, should the process end inside `edit`. When `edit` throws, these
    /// contents are left as they were. Returns whether `edit` changed anything.
    @discardableResult
    mutating func edit(
        with edit: SuiteEdit.Body?,
        writeNow: @escaping ([DefaultsStoredKey: StoredObject]) throws(DefaultsError) -> Void
    ) throws(DefaultsError) -> Bool {
        guard let edit else { return false }
        let base = self
        let suiteEdit = SuiteEdit(whole: base)
        suiteEdit.writeNow = { [unowned suiteEdit] () throws(DefaultsError) in
            var current = base
            current.apply(suiteEdit.changes)
            try writeNow(current)
        }
        try edit(suiteEdit)
        apply(suiteEdit.changes)
        return !suiteEdit.changes.isEmpty
    }
}
