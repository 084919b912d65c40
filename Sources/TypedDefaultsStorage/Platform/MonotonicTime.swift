/// Every bounded wait is measured on the monotonic `ContinuousClock`, and sleeps for relative
/// times only (see ``TimedLock``): `Date()` moves when the machine's clock is stepped (by NTP or
/// by hand), and a wait measured by it could last as long as the step.
extension ContinuousClock.Instant {
    /// The instant `seconds` from now: at the latest a century from now, and now for a time
    /// that is not a number.
    package static func after(_ seconds: Double) -> Self {
        let century = 100 * 365.25 * 86_400
        return .now + .seconds(seconds.isNaN ? 0 : min(max(seconds, -century), century))
    }
}

extension Duration {
    /// The duration in seconds, as Foundation's intervals count it.
    package var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
