import Foundation
import Synchronization
import TypedDefaults

/// Every bounded wait of the store, in a process whose wall clock is stepped: run under
/// libfaketime (`FAKETIME_TIMESTAMP_FILE`, read again at every call, and the monotonic clock left
/// alone). With `back`, each wait's clock is stepped back an hour 0.3 s into it, as NTP or an
/// administrator may; with `ahead`, the clock is ahead from the start (as far as the test's
/// stamp file says), so a system wait armed with a wall-clock deadline would sleep that long.
/// Prints `wait NAME SECONDS` for each, measured on the monotonic clock, and a failure for a
/// wait that ended wrongly. Arguments: the mode, a folder for a backend's file, and the waits
/// to run (all when none is named).
enum SteppedClock {
    static func run(_ name: String, suite: String, _ arguments: [String]) throws -> Bool {
        guard name == "steppedClock", let mode = arguments.first else { return false }
        let stepper = Stepper(stepsBack: mode == "back")
        let store = try DefaultsStore(suiteName: suite).durability(.coalesced(within: .seconds(3600)))
        let folder = URL(fileURLWithPath: arguments.dropFirst().first ?? NSTemporaryDirectory())
        let chosen = Set(arguments.dropFirst(2))
        let waits: [(String, () throws -> Void)] = [
            ("fileLock", { try fileLock(store: store, stepper: stepper) }),
            ("commitLock", { try commitLock(folder: folder, stepper) }),
            ("settle", { try settle(suite: suite, stepper: stepper) }),
            ("loadRetry", { try loadRetry(stepper) }),
        ]
        // Not the commit lock when stepping back: its waits end by a timer of libdispatch's on the
        // monotonic clock, which a real step leaves alone, but libfaketime moves every such timer
        // armed after its step back by the step (measured: a 2 s timer did not fire in 8 s).
        let skipped: Set<String> = mode == "back" ? ["commitLock"] : []
        for (name, wait) in waits where (chosen.isEmpty || chosen.contains(name)) && !skipped.contains(name) {
            try wait()
        }
        // Not the exit flush: the slow backend's commit is still sleeping.
        _exit(0)
    }

    /// Steps the process's faked clock back an hour more each time, 0.3 s from now.
    final class Stepper: Sendable {
        let stepsBack: Bool
        private let steps = Atomic<Int>(0)

        init(stepsBack: Bool) { self.stepsBack = stepsBack }

        func stepSoon() {
            guard stepsBack, let file = ProcessInfo.processInfo.environment["FAKETIME_TIMESTAMP_FILE"] else { return }
            let offset = -3600 * steps.wrappingAdd(1, ordering: .relaxed).newValue
            Thread.detachNewThread {
                usleep(300_000)
                try? "\(offset)".write(toFile: file, atomically: false, encoding: .utf8)
            }
        }
    }

    /// Another holder of the suite's file lock (another open file, so another lock): a flush
    /// gives up after its 5 s.
    static func fileLock(store: DefaultsStore, stepper: Stepper) throws {
        guard let file = store.fileURL else { fail("no suite file") }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let descriptor = open(file.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0, flock(descriptor, LOCK_EX) == 0 else { fail("cannot hold the lock") }
        defer { close(descriptor) }
        UserDefault(wrappedValue: 0, "key", store: store).wrappedValue = 1
        try measure("fileLock", stepper) {
            do {
                try store.flush()
                fail("fileLock: the flush did not wait for the lock")
            } catch {}
        }
    }

    /// Another thread's commit that lasts 30 s: a flush waits for it 5 s, then gives up.
    static func commitLock(folder: URL, _ stepper: Stepper) throws {
        let backend = SlowFileBackend(file: folder.appendingPathComponent("stepped-\(getpid()).json"), delay: 30)
        let store = DefaultsStore(backend: backend, durability: .coalesced(within: .seconds(3600)))
        UserDefault(wrappedValue: 0, "first", store: store).wrappedValue = 1
        Thread.detachNewThread { try? store.flush() }
        backend.commitStarted.wait()
        UserDefault(wrappedValue: 0, "second", store: store).wrappedValue = 2
        try measure("commitLock", stepper) {
            do {
                try store.flush()
                fail("commitLock: the flush did not wait for the other commit")
            } catch {}
        }
    }

    /// A suite file another program has just emptied: a read waits for it to settle, 1 s.
    static func settle(suite: String, stepper: Stepper) throws {
        let store = try DefaultsStore(suiteName: suite + ".settle")
        guard let file = store.fileURL else { fail("no suite file") }
        guard FileManager.default.createFile(atPath: file.path, contents: Data()) else { fail("cannot empty the file") }
        defer { try? FileManager.default.removeItem(at: file) }
        try measure("settle", stepper) {
            _ = UserDefault(wrappedValue: 0, "key", store: store).wrappedValue
        }
    }

    /// A backend whose first load fails: the next is tried 0.5 s later, whatever the clock did.
    static func loadRetry(_ stepper: Stepper) throws {
        let store = DefaultsStore(backend: FailingOnceBackend(), durability: .immediate)
        let value = UserDefault(wrappedValue: 0, "key", store: store)
        try measure("loadRetry", stepper) {
            let deadline = ContinuousClock.now + .seconds(20)
            while value.wrappedValue != 7, ContinuousClock.now < deadline { usleep(10_000) }
        }
    }

    static func measure(_ name: String, _ stepper: Stepper, _ body: () throws -> Void) throws {
        let start = ContinuousClock.now
        stepper.stepSoon()
        try body()
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        FileHandle.standardOutput.write(Data("wait \(name) \(Double(seconds) + Double(attoseconds) / 1e18)\n".utf8))
    }

    /// Stores nothing; its first load fails, every later one finds `key` = 7.
    final class FailingOnceBackend: DefaultsBackend, Sendable {
        private let loads = Atomic<Int>(0)
        var location: String { "failing-once" }

        func load() throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] {
            guard loads.wrappingAdd(1, ordering: .relaxed).newValue > 1 else {
                throw .readFailed(path: location, underlying: CocoaError(.fileReadUnknown))
            }
            return ["key": .integer(7)]
        }

        func commit(
            _ changes: [DefaultsStoredKey: DefaultsStoredValue?], before deadline: ContinuousClock.Instant,
            edit: (inout [DefaultsStoredKey: DefaultsStoredValue]) throws(DefaultsError) -> Void
        ) throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] {
            var values = try load()
            try edit(&values)
            return values
        }

        func observeChanges(_ changed: @escaping @Sendable () -> Void) {}
    }
}
