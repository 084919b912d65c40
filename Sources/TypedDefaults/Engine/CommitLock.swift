import Foundation
import TypedDefaultsStorage

/// The lock that serializes one suite's commits in this process, knowing who holds it.
///
/// Every wait for it is bounded, and none waits on a holder that is its own thread: a commit
/// asked for from inside a backend's own commit (its `commit()` flushing, writing with
/// `.immediate`, updating, or exiting), on the thread that holds the lock, fails at once
/// instead of waiting out the bound. At exit it waits longer only for a flush that was already
/// committing when the exit began, and only on a backend whose commits end within the engine's
/// own bounds (see ``lockBeforeExit(waitingAtMost:forUnderwayFlush:)``).
// @unchecked Sendable is sound: `mutex` is a TimedLock, and every other field is only touched
// through `state`, a Locked.
final class CommitLock: @unchecked Sendable {
    private let mutex = TimedLock()
    private struct State {
        var holder: pthread_t?
        /// The number of the flush committing now, if one is.
        var underway: UInt64?
        var flushes: UInt64 = 0
    }
    private let state = Locked(State())
    let location: String

    init(location: String) {
        self.location = location
    }

    /// Takes the lock, waiting while each commit of another thread ahead of this one takes less
    /// than `limit` (on the monotonic clock: see ``TimedLock``). Commits take turns in the order
    /// they asked, so a line of many short commits is waited out, and one stuck commit is not.
    ///
    /// - Throws: ``DefaultsError/writeFailed(path:underlying:)``: ``CommitOnCommittingThread``
    ///   when this thread holds it, ``FlushTimeout`` when another held it past `limit`.
    /// With `inAll`, an update's or edit's wait: at most `limit` in all, however short each commit
    /// ahead, so that a user's update gives up on a suite that cannot be written for `limit` (a
    /// backend retrying through an outage) rather than waiting the outage out.
    func lock(waitingAtMost limit: TimeInterval, inAll: Bool = false) throws(DefaultsError) {
        try refuseOwnThread()
        guard mutex.lock(inAll ? .deadline(.after(limit)) : .eachHolder(.seconds(limit))) else {
            throw .writeFailed(path: location, underlying: FlushTimeout(seconds: limit))
        }
        state.withLock { $0.holder = pthread_self() }
    }

    /// Takes the lock for the flush at exit: waits `limit` for another thread, and, when
    /// `forUnderwayFlush` and the lock's holder is a flush committing, until that flush ends (at
    /// most ``CommitWait/flushUnderwayAtExit``): the changes it took are committed by it and
    /// the changes written since after it, not lost. An update's body is waited for `limit`
    /// only. A flush that held the lock as the exit began, but had not yet begun to commit, is
    /// waited for too once it has: it took its changes before the exit began (a flush that takes
    /// the lock later commits nothing), and a process that ended under it lost them (seen once
    /// under ThreadSanitizer, where that flush's commit outlasted the 2 s).
    func lockBeforeExit(waitingAtMost limit: TimeInterval, forUnderwayFlush: Bool) throws(DefaultsError) {
        try refuseOwnThread()
        let start = ContinuousClock.now
        let longest = CommitWait.flushUnderwayAtExit
        var awaited = forUnderwayFlush ? state.withLock { $0.underway } : nil
        // When the awaited flush ended: its thread gives the lock back a moment later, and the
        // exit waits `limit` more for that, however long the flush took.
        var awaitedEnded: ContinuousClock.Instant?
        let end = start + .seconds(longest)
        while !mutex.lock(before: min(.now + .milliseconds(50), end)) {
            if forUnderwayFlush, awaited == nil { awaited = state.withLock { $0.underway } }
            let now = ContinuousClock.now
            let waited = (now - start).timeInterval
            let stillUnderway = awaited != nil && state.withLock { $0.underway } == awaited
            if awaited != nil, !stillUnderway, awaitedEnded == nil { awaitedEnded = now }
            let givingBack = awaitedEnded.map { now - $0 < .seconds(limit) } ?? false
            guard waited < limit || stillUnderway || givingBack, now < end else {
                throw .writeFailed(path: location, underlying: FlushTimeout(seconds: waited.rounded()))
            }
        }
        state.withLock { $0.holder = pthread_self() }
    }

    func unlock() {
        state.withLock { $0.holder = nil }
        mutex.unlock()
    }

    /// Runs `body`, a flush's commit (engine and backend code, no update's body), as the flush
    /// underway. Call holding the lock.
    func flushing<Result>(_ body: () throws(DefaultsError) -> Result) throws(DefaultsError) -> Result {
        state.withLock { state in
            state.flushes &+= 1
            state.underway = state.flushes
        }
        defer { state.withLock { $0.underway = nil } }
        return try body()
    }

    private func refuseOwnThread() throws(DefaultsError) {
        let isHolder = state.withLock { state in state.holder.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
        if isHolder { throw .writeFailed(path: location, underlying: CommitOnCommittingThread()) }
    }
}

/// A commit asked for on the thread that is committing the same suite, outside an update's body:
/// from inside the backend's own `commit()`.
struct CommitOnCommittingThread: Error, CustomStringConvertible {
    var description: String {
        "a commit of this suite was asked for from inside its backend's own commit, on the thread that makes it; "
            + "the changes are committed after it"
    }
}

/// Another thread of the process kept the suite's commit lock for longer than a flush waits.
struct FlushTimeout: Error, CustomStringConvertible {
    let seconds: TimeInterval

    var description: String {
        "another thread of this process has been committing changes for more than \(seconds.formatted()) s"
    }
}
