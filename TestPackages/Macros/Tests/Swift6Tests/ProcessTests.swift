// A model's settings across processes: stored by one, read after a restart by another, and
// heard by observation tracking in this one. On the models' real suite file, in this process's
// preferences folder, which the child processes are given too.
import Foundation
import Testing
import TypedDefaults
import TypedDefaultsMacros

@Suite(.serialized) struct ProcessTests {
    /// Runs the probe in a process of its own, on this process's preferences folder, and
    /// returns what it printed.
    private func probe(_ arguments: String...) throws -> String {
        let process = Process()
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.executableURL = testBinary.deletingLastPathComponent().appendingPathComponent("macro-probe")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = DefaultsStore.preferencesFolder.path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func whatOneProcessStoresTheNextReads() throws {
        let count = Int.random(in: 1...1_000_000)
        _ = try probe("write", "dark", "\(count)")
        #expect(try probe("read") == "dark \(count) 0.25")
    }

    @Test func observationHearsAnotherProcesssWrite() async throws {
        // What another test's probe wrote is taken in first: its file's change, heard late on a
        // loaded machine, must not pass for the write this test waits for.
        DefaultsStore.macroProbe.refresh()
        let settings = AppSettings()
        let count = Int.random(in: 1...1_000_000)
        #expect(settings.launchCount != count)
        let changed = Counter()
        withObservationTracking {
            _ = settings.launchCount
        } onChange: {
            changed.increment()
        }
        _ = try probe("write", "light", "\(count)")
        // A watch of the file takes the change in; bounded, for a loaded machine.
        let deadline = ContinuousClock.now + .seconds(10)
        while changed.value == 0 || settings.launchCount != count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(changed.value == 1)
        #expect(settings.launchCount == count)
    }
}
