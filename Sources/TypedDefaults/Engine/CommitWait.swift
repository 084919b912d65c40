import Foundation

/// How long the engine waits for a lock before it gives up on a commit, a reload or the flush
/// at exit: for its own commit lock and, through the backend, for the cross-process one. The
/// engine's bounds, not a file's: every backend's commit is waited for as long.
enum CommitWait {
    /// For the lock, while the process goes on.
    static let lock: TimeInterval = 5
    /// For the lock at exit or on a termination signal: never hang the end of a process.
    static let lockAtExit: TimeInterval = 2
    /// At exit, for a flush of this process already committing (its lock wait and write), so
    /// that the changes written since it began are committed after it.
    static let flushUnderwayAtExit: TimeInterval = 30
}
