import Foundation
import TypedDefaultsStorage

/// Keeps values in memory only: for tests and previews.
struct MemoryBackend: StoreBackend {
    private let contents = Locked<[DefaultsStoredKey: StoredObject]>([:])

    var location: String { "memory" }

    /// Nothing outside the suite's state reads these contents: writes wait in their slots for
    /// the next update or flush, so an in-memory write costs no more than a file store's.
    var commitsOnSchedule: Bool { false }

    /// Nothing else writes here: what the suite's slots hold is current.
    func reload(onlyIfChanged: Bool) -> Reloaded {
        .unchanged
    }

    func loadContents() -> SuiteContents {
        SuiteContents(values: contents.withLock { $0 }, problem: nil)
    }

    /// Returns no values: the suite's slots already hold everything, so there is nothing to
    /// refresh. The suite's commits are serialized by its state, so `edit` can run on a
    /// copy, outside this backend's lock (it runs user code, which may read the suite).
    func commit(
        _ changes: [DefaultsStoredKey: StoredObject?], waitingAtMost limit: TimeInterval, repairing: Bool,
        edit: SuiteEdit.Body?
    ) throws(DefaultsError) -> SuiteContents {
        var values = contents.withLock { $0 }
        values.apply(changes)
        try values.edit(with: edit) { current in contents.withLock { $0 = current } }
        contents.withLock { $0 = values }
        return .unknown
    }
}
