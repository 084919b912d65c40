import Foundation
import Testing

@testable import TypedDefaults

/// The exit's wait for a flush of this process (`CommitLock.lockBeforeExit`).
@Suite struct CommitLockTests {
    /// Holds `lock` on a thread of its own: `body` runs holding it, then it is released.
    private func hold(_ lock: CommitLock, _ body: @escaping @Sendable () -> Void) {
        let locked = DispatchSemaphore(value: 0)
        Thread {
            try? lock.lock(waitingAtMost: 1)
            locked.signal()
            body()
            lock.unlock()
        }.start()
        locked.wait()
    }

    /// A flush that holds the lock as the exit begins, and begins to commit a moment later, is
    /// waited for past the exit's own bound: it took its changes before the exit began, and a
    /// process that ended under it lost them (one window of writes, seen once in CI under
    /// ThreadSanitizer). Before the fix the exit gave up after its 0.5 s here.
    @Test func theExitWaitsForAFlushThatHeldTheLockBeforeItCommitted() throws {
        let lock = CommitLock(location: "test")
        hold(lock) {
            Thread.sleep(forTimeInterval: 0.2)  // the exit is waiting by now
            try? lock.flushing { Thread.sleep(forTimeInterval: 1.5) }
        }
        let start = Date()
        #expect(throws: Never.self) { try lock.lockBeforeExit(waitingAtMost: 0.5, forUnderwayFlush: true) }
        #expect(Date().timeIntervalSince(start) >= 1.4)
        lock.unlock()
    }

    /// The awaited flush has ended but its thread has not yet given the lock back (it is slow to
    /// be scheduled on a loaded machine): the exit waits its bound again for that, rather than
    /// giving up with the flush's changes committed and the exit's own not.
    @Test func theExitWaitsForTheLockAFinishedFlushIsGivingBack() throws {
        let lock = CommitLock(location: "test")
        hold(lock) {
            try? lock.flushing { Thread.sleep(forTimeInterval: 1.5) }
            Thread.sleep(forTimeInterval: 0.3)  // the flush has ended; the lock is still held
        }
        #expect(throws: Never.self) { try lock.lockBeforeExit(waitingAtMost: 1, forUnderwayFlush: true) }
        lock.unlock()
    }

    /// Anything else holding the lock (an update's body) is waited for the exit's bound only.
    @Test func theExitWaitsItsBoundForAnythingElse() throws {
        let lock = CommitLock(location: "test")
        let released = DispatchSemaphore(value: 0)
        hold(lock) {
            Thread.sleep(forTimeInterval: 1.5)
            released.signal()
        }
        #expect(throws: DefaultsError.self) { try lock.lockBeforeExit(waitingAtMost: 0.3, forUnderwayFlush: true) }
        released.wait()
    }
}
