import Foundation
import Testing

/// No bounded wait depends on the wall clock. A child process runs every wait of the store (the
/// suite's file lock, another thread's commit, a file being rewritten, a failed load's retry)
/// under libfaketime, which fakes the wall clock and leaves the monotonic one alone; the
/// machine's own clock is never touched.
@Suite(.enabled(if: isLinux), .plistFilesOnly("the plist file's lock and settle waits")) struct SteppedClockTests {
    static let libfaketime = ["x86_64", "aarch64"].map { "/usr/lib/\($0)-linux-gnu/faketime/libfaketimeMT.so.1" }
        .first { FileManager.default.fileExists(atPath: $0) }
    /// CI installs Debian's faketime, so there the test always runs.
    static let mustRun = ProcessInfo.processInfo.environment["CI"] == "true"

    /// `back`: the clock steps back an hour during each wait, which a wait polling `Date()` would
    /// wait out. `ahead`: the clock is up to an hour ahead from the start, which a system wait
    /// given a wall-clock deadline (`NSLock.lock(before:)`, a semaphore's timed wait) sleeps
    /// through.
    @Test(
        .tags(.childProcess), .startsProcesses,
        .enabled(if: libfaketime != nil || mustRun, "needs libfaketime (Debian's faketime; CI installs it)"),
        // A probe built with ThreadSanitizer hangs before `main` with libfaketime preloaded.
        .disabled(if: isThreadSanitized, "libfaketime and ThreadSanitizer do not start together"),
        arguments: ["back", "ahead"])
    func everyWaitEndsInItsBoundWhenTheClockIsStepped(mode: String) async throws {
        let library = try #require(Self.libfaketime, "CI=true: faketime must be installed")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stepped-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stamp = folder.appendingPathComponent("faketime")
        // Ahead by less than the machine has been up: libfaketime moves a libdispatch timer's
        // deadline on the monotonic clock back by the offset, and one moved below zero is never
        // armed (measured on a machine up for 2,968 s: +3,600 left the commit lock's timer
        // disarmed in 3 runs of 4, +1,800 in none). Half the uptime, and at least twice the
        // bounds below (30 s): on a machine up less than two minutes, the test waits until it is
        // (by the uptime itself, which a suspended machine does not count).
        while mode == "ahead", ProcessInfo.processInfo.systemUptime < 120 { try await Task.sleep(for: .seconds(1)) }
        let ahead = min(3600, Int(ProcessInfo.processInfo.systemUptime) / 2)
        try (mode == "back" ? "+0" : "+\(ahead)").write(to: stamp, atomically: true, encoding: .utf8)

        let suite = "typeddefaults-tests.steppedClock.\(UUID().uuidString)"
        // Through env: a Swift program that a process without libfaketime starts with it
        // preloaded sees no command-line arguments (measured with Debian's libfaketime 0.9.10).
        let run = try await Probe.run(
            ["steppedClock", suite, mode, folder.path],
            environment: Probe.environment([
                "LD_PRELOAD": library, "FAKETIME_TIMESTAMP_FILE": stamp.path, "FAKETIME_NO_CACHE": "1",
                "FAKETIME_DONT_FAKE_MONOTONIC": "1", "XDG_CONFIG_HOME": folder.path,
            ]),
            launcher: ["/usr/bin/env"], killAfter: 120)
        #expect(!run.timedOut, "a wait outlasted its bound by far: \(run.output)")
        #expect(run.status == 0, "\(run.errors)")
        var waited: [String: Double] = [:]
        for line in run.output.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 3, fields[0] == "wait", let seconds = Double(fields[2]) {
                waited[String(fields[1])] = seconds
            }
        }
        // Each waits what it should (the locks their 5 s, the settling file its 1 s, a failed
        // load 0.5 s before it is tried again), with room for a loaded machine, and far less than
        // the time the clock moved.
        var bounds: [String: ClosedRange<Double>] = ["fileLock": 4.9...30, "settle": 0...30, "loadRetry": 0.4...30]
        // Stepping back, libfaketime also moves libdispatch's monotonic timers, which the commit
        // lock's waits end by: that wait is checked with the clock ahead only.
        if mode == "ahead" { bounds["commitLock"] = 4.9...30 }
        for (name, bound) in bounds {
            let seconds = try #require(waited[name], "no wait \(name) in \(run.output)")
            #expect(bound.contains(seconds), "\(name) waited \(seconds) s")
        }
    }
}
