import Dispatch
import Foundation

/// A lock whose waits end on the monotonic clock, handed to its waiters in the order they came.
///
/// Not `NSLock.lock(before:)`: on Linux it waits on a futex with a wall-clock deadline, which a
/// clock stepped back lengthens by the step. Not a loop of tries either: under contention (two
/// hundred threads updating one suite) a thread that sleeps between tries can lose every turn to
/// others and give up. A waiter here sleeps on a semaphore of its own, without a timeout; the
/// holder hands the lock to the first waiter as it unlocks, and a timer of libdispatch's (on the
/// monotonic clock) takes a waiter whose time is up out of the line and wakes it.
package final class TimedLock: @unchecked Sendable {
    // @unchecked Sendable is sound: `isHeld`, `handedOver` and `waiters` are only touched under
    // `state`, and a waiter's `granted` is written under `state` before its semaphore is
    // signalled, and read under `state` after its wait ends.
    private let state = PlainLock()
    private var isHeld = false
    /// When the holder took the lock.
    private var handedOver = ContinuousClock.now
    private var waiters: [Waiter] = []

    /// How long a waiter waits.
    package enum Limit: Sendable {
        /// Until an instant.
        case deadline(ContinuousClock.Instant)
        /// While each holder ahead of it holds the lock for less than this: a line of holders
        /// that each hold it briefly is waited out, one that holds it too long is not.
        case eachHolder(Duration)
    }

    private final class Waiter: @unchecked Sendable {  // `granted` as TimedLock says
        let wakeUp = DispatchSemaphore(value: 0)
        let limit: Limit
        var granted = false

        init(limit: Limit) { self.limit = limit }
    }

    /// Fires the timeouts: a serial queue, which libdispatch always gives a thread of its own
    /// (unlike the global queues, whose threads may all be waiting here).
    private static let timeouts = DispatchQueue(label: "TD.lockTimeouts")

    package init() {}

    /// Takes the lock, waiting for it no longer than `limit` says; returns whether it was taken.
    package func lock(_ limit: Limit) -> Bool {
        enum Turn {
            case taken, refused
            case waiting(Waiter, due: ContinuousClock.Instant)
        }
        let turn: Turn = state.withLock {
            if !isHeld {
                isHeld = true
                handedOver = .now
                return .taken
            }
            let due = dueTime(limit)
            guard due > .now else { return .refused }
            let waiter = Waiter(limit: limit)
            waiters.append(waiter)
            return .waiting(waiter, due: due)
        }
        switch turn {
        case .taken: return true
        case .refused: return false
        case .waiting(let waiter, let due):
            wake(waiter, at: due)
            waiter.wakeUp.wait()
            return state.withLock { waiter.granted }
        }
    }

    /// Takes the lock, waiting for it until `deadline`; returns whether it was taken.
    package func lock(before deadline: ContinuousClock.Instant) -> Bool {
        lock(.deadline(deadline))
    }

    /// Hands the lock to the first waiter, or leaves it free.
    package func unlock() {
        let next: Waiter? = state.withLock {
            guard !waiters.isEmpty else {
                isHeld = false
                return nil
            }
            let next = waiters.removeFirst()
            next.granted = true
            handedOver = .now
            return next
        }
        next?.wakeUp.signal()
    }

    /// When a waiter with `limit` gives up, as things stand. Call under `state`.
    private func dueTime(_ limit: Limit) -> ContinuousClock.Instant {
        switch limit {
        case .deadline(let deadline): deadline
        case .eachHolder(let longest): handedOver + longest
        }
    }

    /// Sees at `due` whether `waiter`'s time is up (the lock may have changed hands since).
    private func wake(_ waiter: Waiter, at due: ContinuousClock.Instant) {
        let (seconds, attoseconds) = (due - .now).components
        let nanoseconds = max(
            0, Int(min(seconds, 100 * 365 * 86_400)) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        Self.timeouts.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in
            self?.timeOut(waiter)
        }
    }

    /// Wakes `waiter` without the lock if it still waits and its time is up.
    private func timeOut(_ waiter: Waiter) {
        enum Outcome {
            case served, expired
            case later(ContinuousClock.Instant)
        }
        let outcome: Outcome = state.withLock {
            guard let index = waiters.firstIndex(where: { $0 === waiter }) else { return .served }
            let due = dueTime(waiter.limit)
            if due > .now { return .later(due) }
            waiters.remove(at: index)
            return .expired
        }
        switch outcome {
        case .served: break
        case .later(let due): wake(waiter, at: due)
        case .expired: waiter.wakeUp.signal()
        }
    }
}
