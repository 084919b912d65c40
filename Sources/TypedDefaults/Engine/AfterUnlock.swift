/// What a call met while holding a suite's locks, to be done once it holds none: errors to
/// report and `didSet` callbacks to run.
///
/// Both run user code (the error handler, the callback), which may well read or write the same
/// suite; run under the lock, that would deadlock. Each call keeps one of these on its stack and
/// runs it on the way out, on its own thread.
struct AfterUnlock {
    private var errors: [DefaultsError] = []
    private var calls: [(callback: SlotCallback, change: SlotChange)] = []

    mutating func report(_ error: DefaultsError?) {
        if let error { errors.append(error) }
    }

    mutating func reportAll(_ errors: [DefaultsError]) {
        self.errors += errors
    }

    mutating func call(_ callbacks: [SlotCallback], with change: SlotChange) {
        calls += callbacks.map { ($0, change) }
    }

    /// Reports the errors, then runs the callbacks in the order the changes were made.
    ///
    /// A callback never runs inside itself: a write it makes to its own key (to clamp it, say),
    /// or a chain of callbacks that leads back to it, is applied and observed, but does not call
    /// it again, so no callback can recurse without end. Inlined: most calls meet nothing to
    /// report or call, and the check is all they pay.
    @inline(__always)
    func run() {
        if errors.isEmpty, calls.isEmpty { return }
        runAll()
    }

    private func runAll() {
        errors.forEach(DefaultsError.report)
        for (callback, change) in calls {
            let running = RunningCallbacks.current
            guard !running.contains(callback.id) else { continue }
            RunningCallbacks.$current.withValue(running.union([callback.id])) {
                callback.call(change)
            }
        }
    }
}

/// The `didSet` callbacks running on this thread (or task), innermost last.
enum RunningCallbacks {
    @TaskLocal static var current: Set<ObjectIdentifier> = []
}
