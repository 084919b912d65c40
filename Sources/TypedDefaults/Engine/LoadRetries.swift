import Foundation
import TypedDefaultsStorage

/// When a suite whose load failed is loaded again: the failure is reported once until a load
/// succeeds, and a program's backend, whose failed loads are slow, is tried again after 0.5 s,
/// then twice as long each time, up to every 15 s (a change it announces or a refresh loads at
/// once). Touched only under the suite's lock.
struct LoadRetries {
    static let firstDelay: TimeInterval = 0.5
    static let lastDelay: TimeInterval = 15
    private var failed = false
    private var next: ContinuousClock.Instant?
    private var delay = Self.firstDelay

    /// Whether a load may be tried now.
    var isDue: Bool { next.map { ContinuousClock.now >= $0 } ?? true }

    /// A load failed: whether to report it. With `backingOff`, the next waits.
    mutating func loadFailed(backingOff: Bool) -> Bool {
        let report = !failed
        failed = true
        if backingOff {
            next = .after(delay)
            delay = min(delay * 2, Self.lastDelay)
        }
        return report
    }

    mutating func loaded() {
        failed = false
        next = nil
        delay = Self.firstDelay
    }
}
