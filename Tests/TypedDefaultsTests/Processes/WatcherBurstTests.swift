import Foundation
import Testing

@testable import TypedDefaultsStorage

/// The file watcher's work for a burst of events is bounded, and the burst's last write is heard:
/// commits renamed into place as fast as a process can make them run a watch's handler once at
/// the first, then at most once a window while they go on, and once after the last.
@Suite(.enabled(if: isLinux)) struct WatcherBurstTests {
    @Test func aBurstOfCommitsRunsTheHandlerABoundedNumberOfTimesAndAfterTheLast() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("burst-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("burst.plist")
        let runs = Locked<[ContinuousClock.Instant]>([])
        FileWatcher.watch(file) { runs.withLock { $0.append(.now) } }

        let commits = 500
        let start = ContinuousClock.now
        for index in 0..<commits {
            // As a commit lands: a new file beside the target, renamed over it.
            let temporary = folder.appendingPathComponent(".burst.plist.\(index)")
            try Data("\(index)".utf8).write(to: temporary)
            #expect(rename(temporary.path, file.path) == 0)
        }
        let end = ContinuousClock.now

        // Heard after the last commit: within seconds (a bound for a loaded machine, not a target).
        let deadline = ContinuousClock.now + .seconds(10)
        while runs.withLock({ $0.last.map { $0 < end } ?? true }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        // Any run still to come from the burst: a window or two.
        try await Task.sleep(for: .milliseconds(100))
        let times = runs.withLock { $0 }
        #expect(times.last.map { $0 >= end } == true, "the burst's last commit was not heard")
        // One run at the first commit, then one as each 10 ms window closes after a run (so runs
        // are 10 ms apart but for the first two), and one for slack: never one a commit.
        let windows = times.first.map { first in Int((times[times.count - 1] - first) / .milliseconds(10)) } ?? 0
        #expect(times.count <= windows + 3, "\(times.count) runs for \(commits) commits over \(windows) windows")
        // So commits faster than one a window share runs: at most one a window of the burst,
        // however slowly the machine (a sanitizer, a load) let the burst go.
        let burstWindows = Int((end - start) / .milliseconds(10))
        #expect(
            times.count <= min(commits, burstWindows + 3),
            "\(times.count) runs for \(commits) commits over a burst of \(burstWindows) windows")
    }
}
