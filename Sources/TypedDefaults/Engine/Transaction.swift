import Foundation

/// The update a thread is running on a suite, which updates and flushes nested in its body,
/// on that thread, join.
extension SuiteState {
    /// The update this thread is running on this suite, if any.
    func joinableTransaction() -> Transaction? {
        lock.withLock { transactionOnThisThread }
    }

    /// ``joinableTransaction()``, for callers that hold `lock`.
    var transactionOnThisThread: Transaction? {
        guard let transaction, pthread_equal(transaction.thread, pthread_self()) != 0 else { return nil }
        return transaction
    }
}

/// An update's commit in progress: the thread running it, the suite's contents as it edits
/// them, and every change it took in, to keep pending should it fail.
///
/// A backend may run a commit's edit more than once (PostgreSQL retries a commit whose
/// connection was lost): each run gets a new transaction. It takes over the pending changes the
/// run before took in, which exist nowhere else now, but not what nested updates changed: the
/// body runs them again, on the freshest values.
final class Transaction {
    let thread = pthread_self()
    let edit: SuiteEdit
    private(set) var changes: [DefaultsStoredKey: StoredObject?]
    /// The pending changes taken in, from the start and by nested updates and flushes.
    var taken: [DefaultsStoredKey: StoredObject?]

    init(edit: SuiteEdit, retrying previous: Transaction?, changes: [DefaultsStoredKey: StoredObject?]) {
        self.edit = edit
        self.changes = changes
        taken = changes
        if let previous { take(previous.taken) }
    }

    /// Takes pending changes into the commit.
    func take(_ changes: [DefaultsStoredKey: StoredObject?]) {
        join(changes)
        taken.merge(changes) { $1 }
    }

    /// Takes a nested update's change into the commit.
    func join(_ changes: [DefaultsStoredKey: StoredObject?]) {
        edit.apply(changes)
        self.changes.merge(changes) { $1 }
    }
}

/// A commit of several keys asked for from inside an update's body, which holds the suite's
/// commit lock on the same thread.
struct NestedCommit: Error, CustomStringConvertible {
    var description: String {
        "a migration or edit of several keys cannot run inside an update of the same suite"
    }
}
