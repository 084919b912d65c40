import Foundation
import Testing

extension Tag {
    /// Starts other processes: the probe, the test binary itself, Python, strace. Such tests
    /// take seconds (a process restart, a lock held by another process, a crash), and the fast
    /// loop leaves them out.
    @Tag static var childProcess: Self
}

/// Whether this run is the fast loop, `TYPEDDEFAULTS_FAST_TESTS=1 swift test`: every test but
/// those that start other processes, in under half a minute on a built tree.
let isFastLoop = ProcessInfo.processInfo.environment["TYPEDDEFAULTS_FAST_TESTS"] == "1"

extension Trait where Self == ConditionTrait {
    /// Left out of the fast loop; see ``Tag/childProcess``.
    static var startsProcesses: Self {
        .disabled(if: isFastLoop, "starts other processes: left out of the fast loop")
    }
}

extension Trait where Self == TimeLimitTrait {
    /// Ends a test that hangs (a deadlock, a reader that never returns) rather than the whole
    /// run. Generous on purpose: a test that awaits shares two cooperative threads with tests
    /// that block, and under ThreadSanitizer it can wait minutes for one. It is a guard against
    /// a hang, never a measure of speed.
    static var hangGuard: Self { .timeLimit(.minutes(5)) }
}
