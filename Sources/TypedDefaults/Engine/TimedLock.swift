import Dispatch
import Foundation

/// A lock whose waits end at a deadline on the monotonic clock, handed to its waiters in the
/// order they came.
///
/// Not `NSLock.lock(before:)`: on Linux it waits on a futex with a wall-clock deadline, which a
/// clock stepped back lengthens by the step. Not a loop of tries either: under contention (two
/// hundred threads updating one suite) a thread that sleeps between tries can lose every turn to
/// others and give up. A waiter here sleeps on a semaphore of its own, without a timeout; the
/// holder hands the lock to the first waiter as it unlocks, and a timer of libdispatch's (on the
/// monotonic clock) takes a waiter whose deadline passed out of the line and wakes it.
@_spi(TypedDefaultsPackages)
public final class TimedLock: @unchecked Sendable {
    // @unchecked Sendable is sound: `isHeld` and `waiters` are only touched under `state`, and a
    // waiter's `granted` is written under `state` before its semaphore is signalled, and read
    // after its wait ends.
    private let state = NSLock()
    private var isHeld = false
    private var waiters: [Waiter] = []

    private final class Waiter: @unchecked Sendable {  // `granted` as TimedLock says
        let wakeUp = DispatchSemaphore(value: 0)
        var granted = false
    }

    /// Fires the timeouts: a serial queue, which libdispatch always gives a thread of its own
    /// (unlike the global queues, whose threads may all be waiting here).
    private static let timeouts = DispatchQueue(label: "TD.lockTimeouts")

    public init() {}

    /// Takes the lock, waiting for it until `deadline`; returns whether it was taken.
    public func lock(before deadline: ContinuousClock.Instant) -> Bool {
        state.lock()
        if !isHeld {
            isHeld = true
            state.unlock()
            return true
        }
        let remaining = deadline - .now
        guard remaining > .zero else {
            state.unlock()
            return false
        }
        let waiter = Waiter()
        waiters.append(waiter)
        state.unlock()
        let (seconds, attoseconds) = remaining.components
        let nanoseconds = Int(min(seconds, 100 * 365 * 86_400)) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        Self.timeouts.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in
            self?.giveUp(waiter)
        }
        waiter.wakeUp.wait()
        return state.withLock { waiter.granted }
    }

    /// Takes the lock if no one holds it.
    public func tryLock() -> Bool {
        state.withLock {
            guard !isHeld else { return false }
            isHeld = true
            return true
        }
    }

    /// Hands the lock to the first waiter, or leaves it free.
    public func unlock() {
        state.lock()
        guard !waiters.isEmpty else {
            isHeld = false
            state.unlock()
            return
        }
        let next = waiters.removeFirst()
        next.granted = true
        state.unlock()
        next.wakeUp.signal()
    }

    /// Wakes `waiter` without the lock, if it is still waiting for it.
    private func giveUp(_ waiter: Waiter) {
        state.lock()
        guard let index = waiters.firstIndex(where: { $0 === waiter }) else {
            state.unlock()
            return
        }
        waiters.remove(at: index)
        state.unlock()
        waiter.wakeUp.signal()
    }
}
