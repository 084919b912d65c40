import Foundation

/// Every bounded wait is measured on the monotonic `ContinuousClock`, and sleeps for relative
/// times only. `Date()` moves when the machine's clock is stepped (by NTP or by hand), and so do
/// the deadlines of the system's timed waits behind `NSLock.lock(before:)` and
/// `DispatchSemaphore.wait(timeout:)` on Linux (a futex on the wall clock): a wait measured by
/// either could last as long as the step.
enum BoundedWait {
    /// Calls `attempt` until it returns `true` or `deadline` has passed, sleeping between tries
    /// (from `firstPause` microseconds, twice as long each time up to `longestPause`). Returns
    /// whether an attempt succeeded; one attempt is always made.
    static func retry<Failure: Error>(
        until deadline: ContinuousClock.Instant, firstPause: useconds_t, longestPause: useconds_t,
        _ attempt: () throws(Failure) -> Bool
    ) throws(Failure) -> Bool {
        var pause = firstPause
        while true {
            if try attempt() { return true }
            guard ContinuousClock.now < deadline else { return false }
            usleep(pause)
            pause = min(pause * 2, longestPause)
        }
    }
}

extension ContinuousClock.Instant {
    /// The instant `seconds` from now: at the latest a century from now, and now for a time
    /// that is not a number.
    static func after(_ seconds: Double) -> Self {
        let century = 100 * 365.25 * 86_400
        return .now + .seconds(seconds.isNaN ? 0 : min(max(seconds, -century), century))
    }
}

extension Duration {
    /// The duration in seconds, as Foundation's intervals count it.
    var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
