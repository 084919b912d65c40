import Foundation

/// When a suite's failed commits are reported and tried again: the first failure of a run is
/// reported, the others are not until one succeeds (a backend that is down fails every retry),
/// and a retry waits 0.1 s, then twice as long each time, up to 5 s. Touched only under the
/// suite's lock.
struct CommitRetries {
    static let firstDelay: TimeInterval = 0.1
    static let lastDelay: TimeInterval = 5
    private var failureReported = false
    private var retryScheduled = false
    private var delay = Self.firstDelay

    /// A commit succeeded: the next failure is reported, and retried soon.
    mutating func succeeded() {
        failureReported = false
        delay = Self.firstDelay
    }

    /// A commit failed: whether to report it, and after how long to try again (`nil`: not now,
    /// because `retrying` is off, a retry is due already, or nothing is pending).
    mutating func failed(retrying: Bool, hasPending: Bool) -> (report: Bool, retryAfter: TimeInterval?) {
        let report = !failureReported
        failureReported = true
        guard retrying, !retryScheduled, hasPending else { return (report, nil) }
        retryScheduled = true
        let wait = delay
        delay = min(delay * 2, Self.lastDelay)
        return (report, wait)
    }

    /// The retry scheduled is starting.
    mutating func retryStarted() {
        retryScheduled = false
    }
}
