import Foundation
import Testing

@testable import TypedDefaults

/// The suite lock driven directly: its fast path is one atomic compare-and-exchange, and a thread
/// that finds it taken sleeps until the holder wakes it (or a millisecond passes), which
/// `StressTests` reach only by chance.
@Suite struct SuiteLockTests {
    /// Counted under the lock only; the lock is what makes the unchecked access sound.
    final class Counter: @unchecked Sendable {
        var value = 0
    }

    @Test func threadsThatFindItTakenSleepAndEachGetsItInTurn() async throws {
        let lock = SuiteLock()
        let counter = Counter()
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let waiters = 4
        let done = DispatchGroup()
        // One thread holds the lock until told to let go, so that every other thread must sleep.
        Thread.detachNewThread {
            lock.withLock {
                holding.signal()
                release.wait()
                counter.value += 1
            }
        }
        holding.wait()
        for _ in 0..<waiters {
            done.enter()
            Thread.detachNewThread {
                lock.withLock { counter.value += 1 }
                done.leave()
            }
        }
        // Give the waiters time to find the lock taken and go to sleep, then let go of it.
        try await Task.sleep(for: .milliseconds(100))
        #if !canImport(Darwin)
            #expect(lock.sleeperCount.load(ordering: .relaxed) == UInt32(waiters))
        #endif
        release.signal()
        guard done.wait(timeout: .now() + 10) == .success else {
            Issue.record("a sleeper was never woken")
            return
        }
        #expect(lock.withLock { counter.value } == waiters + 1)
        #if !canImport(Darwin)
            #expect(lock.state.load(ordering: .relaxed) == SuiteLock.unlocked)
            #expect(lock.sleeperCount.load(ordering: .relaxed) == 0)
        #endif
    }

    @Test func noTwoThreadsHoldItAtOnce() {
        let lock = SuiteLock()
        let counter = Counter()
        let threads = 4
        let rounds = 50_000
        let done = DispatchGroup()
        for _ in 0..<threads {
            done.enter()
            Thread.detachNewThread {
                for _ in 0..<rounds {
                    lock.withLock {
                        // Read, yield the processor now and then, write: an overlap loses a count.
                        let seen = counter.value
                        if seen % 1_000 == 0 { sched_yield() }
                        counter.value = seen + 1
                    }
                }
                done.leave()
            }
        }
        guard done.wait(timeout: .now() + 60) == .success else {
            Issue.record("a thread waiting for the lock was never woken")
            return
        }
        #expect(lock.withLock { counter.value } == threads * rounds)
    }
}
