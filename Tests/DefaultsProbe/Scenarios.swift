import Foundation
import TypedDefaults
import TypedDefaultsSchema

/// Longer-running child processes for the store engine's durability tests. Each takes the
/// suite name and its own arguments, and reports progress as lines on standard output.
enum Scenario {
    static func run(_ name: String, suite: String, _ arguments: [String]) throws -> Bool {
        let store = try DefaultsStore(suiteName: suite)
        switch (name, arguments.first.flatMap { Int($0) }) {
        case ("burst", let count?):
            // Normal exit right after: the exit flush must save all of them.
            writeNumbered(count, prefix: arguments.dropFirst().first ?? "burst", store: store)
        case ("hold", let count?), ("holdWithoutHelper", let count?):
            // An hour-long window: only a flush on the signal can save these writes.
            if name == "hold" { DefaultsStore.flushOnTermination() }
            writeNumbered(count, prefix: "held", store: store.durability(.coalesced(within: .seconds(3600))))
            say("ready")
            while true { sleep(60) }
        case ("stream", _):
            // Written in order until killed; the file must always hold a prefix.
            let fast = store.durability(.coalesced(within: .milliseconds(5)))
            for index in 0... {
                UserDefault(wrappedValue: -1, "stream.\(index)", store: fast).wrappedValue = index
                if index % 500 == 0 {
                    say("written \(index)")
                    usleep(1_000)
                }
            }
        case ("standard-named", _):
            // `.standard` named after the suite, whatever this executable is called: counts a
            // launch in it.
            try DefaultsStore.nameStandardSuite(suite)
            // Before first use too, a second name is refused and the first stays.
            try DefaultsStore.nameStandardSuite(suite)
            do {
                try DefaultsStore.nameStandardSuite(suite + ".other")
                say("second name taken")
            } catch {
                say("second name refused")
            }
            let launches = UserDefault(wrappedValue: 0, "launches")
            launches.wrappedValue += 1
            try DefaultsStore.standard.flush()
            say("launches \(launches.wrappedValue)")
        case ("increment", let count?):
            let counter = UserDefault(wrappedValue: 0, "counter", store: store)
            for _ in 0..<count { counter.update { $0 += 1 } }
        case ("stepChoice", let count?):
            // Round eight options: the number of steps taken, modulo 8, shows in the last one.
            let stage = Setting(wrappedValue: Stage.first, "stage", store: store)
            for _ in 0..<count { stage.increase(wrapping: true) }
        case ("churn", let count?):
            // Resident memory after a warm-up, then after `count` more writes, then after as many
            // again: flat means the later figures stay near the first.
            let fast = store.durability(.coalesced(within: .milliseconds(10)))
            let value = UserDefault(wrappedValue: 0, "value", store: fast)
            let text = UserDefault(wrappedValue: "", "text", store: fast)
            func churn(_ rounds: Range<Int>) throws {
                for round in rounds {
                    if round.isMultiple(of: 2) {
                        value.wrappedValue = round
                    } else {
                        text.wrappedValue = "round \(round)"
                    }
                }
                try fast.flush()
            }
            try churn(0..<100_000)
            let warm = residentBytes()
            try churn(0..<count)
            let first = residentBytes()
            try churn(count..<(2 * count))
            say("resident \(warm) \(first) \(residentBytes())")
        case ("immediate", _):
            // One write that is on the device when the setter returns (a test traces the calls).
            let durable = store.durability(.immediate)
            UserDefault(wrappedValue: "", "value", store: durable).wrappedValue = arguments.first ?? "written"
            say("written")
        case ("touch", _):
            // Loads the suite (meeting whatever file is there), then writes to it.
            say("value \(UserDefault(wrappedValue: "default", "value", store: store).wrappedValue)")
            UserDefault(wrappedValue: "", "after", store: store).wrappedValue = "written"
        case ("flushUnderwayAtExit", _):
            // Another process holds the suite's lock for a few seconds: a flush started now waits
            // for it, another write follows, and the exit begins while the flush still waits.
            let slow = store.durability(.coalesced(within: .seconds(3600)))
            UserDefault(wrappedValue: 0, "first", store: slow).wrappedValue = 1
            Thread.detachNewThread { try? slow.flush() }
            Thread.sleep(forTimeInterval: 1)
            UserDefault(wrappedValue: 0, "second", store: slow).wrappedValue = 2
            say("written")
        case ("slowBackendAtExit", _):
            // A program's backend whose commit takes 30 s is committing as the process exits.
            guard let path = arguments.first else { return false }
            let backend = SlowFileBackend(file: URL(fileURLWithPath: path), delay: 30)
            let slow = DefaultsStore(backend: backend, durability: .coalesced(within: .milliseconds(1)))
            UserDefault(wrappedValue: 0, "first", store: slow).wrappedValue = 1
            backend.commitStarted.wait()
            UserDefault(wrappedValue: 0, "second", store: slow).wrappedValue = 2
            say("written")
        case ("closedSignalPipe", _):
            // A daemon that closes descriptors it did not open, after the termination flush was
            // set up: the CPU the library's threads (named "TD.…") then use in a second of sleep.
            // Its pipe and the file watcher's inotify descriptor are closed, not every one:
            // libdispatch stops the process when its own are ("Do not close random Unix
            // descriptors"), or, in one CI run, kept a core busy. The busiest thread is named.
            DefaultsStore.flushOnTermination()
            _ = store[DefaultsKey<Int>("watched", default: 0)]
            for descriptor in 3..<1024 {
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)"))
                if let target, target.hasPrefix("pipe:") || target == "anon_inode:inotify" { close(Int32(descriptor)) }
            }
            let before = threadSeconds()
            sleep(1)
            let used = threadSeconds().map { thread, now in
                (name: now.name, seconds: now.seconds - (before[thread]?.seconds ?? 0))
            }
            if let busiest = used.max(by: { $0.seconds < $1.seconds }) {
                say("busiest thread \(busiest.name): \(busiest.seconds) s")
            }
            say("cpu \(used.filter { $0.name.hasPrefix("TD.") }.map(\.seconds).reduce(0, +))")
        case ("installID", _):
            // A key whose first read stores its initial value: every process must see one ID.
            say("installID \(store[.installID])")
        case ("holdLock", _):
            // Holds the suite's cross-process lock until killed (the test may stop it too).
            guard let lock = store.fileURL?.appendingPathExtension("lock") else { return false }
            try FileManager.default.createDirectory(
                at: lock.deletingLastPathComponent(), withIntermediateDirectories: true)
            let descriptor = open(lock.path, O_RDWR | O_CREAT, 0o600)
            guard descriptor >= 0, flock(descriptor, LOCK_EX) == 0 else { return false }
            say("locked")
            while true { sleep(60) }
        case ("exitInsideUpdate", _):
            // A write waiting for its flush, then exit() from inside an update's body.
            let slow = store.durability(.coalesced(within: .seconds(3600)))
            UserDefault(wrappedValue: 0, "before", store: slow).wrappedValue = 1
            UserDefault(wrappedValue: 0, "counter", store: slow).update { _ in
                UserDefault(wrappedValue: 0, "nested", store: slow).update { $0 = 2 }
                exit(0)
            }
        case ("withoutFileDescriptors", _):
            // Reads and writes while the process has no file descriptor left, then after.
            let value = UserDefault(wrappedValue: "default", "value", store: store)
            let after = UserDefault(
                wrappedValue: "", "after", store: store.durability(.coalesced(within: .seconds(3600))))
            var held: [Int32] = []
            while case let descriptor = open("/dev/null", O_RDONLY), descriptor >= 0 { held.append(descriptor) }
            say("exhausted \(errno == EMFILE)")
            say("read \(value.wrappedValue)")
            after.wrappedValue = "written"
            do {
                try store.flush()
                say("flush succeeded")
            } catch {
                say("flush failed")
            }
            held.forEach { close($0) }
            say("read \(value.wrappedValue)")
            try store.flush()
            say("flushed")
        case ("plainRewriter", let count?):
            // Plain UserDefaults, as another program uses it: it truncates and rewrites the
            // whole file in place on each synchronize(), until the file STOP exists (the test
            // says when it has met enough rewrites), 120 s at most.
            guard let stop = arguments.dropFirst().first else { return false }
            let plain = try UserDefaults.suite(named: suite)
            for index in 0..<count { plain.set(index, forKey: "plain.\(index)") }
            plain.synchronize()
            say("ready")
            let end = Date().addingTimeInterval(120)
            var rounds = 0
            while Date() < end, !FileManager.default.fileExists(atPath: stop) {
                plain.set(rounds, forKey: "tick")
                plain.synchronize()
                rounds += 1
            }
            say("rounds \(rounds)")
        case ("plainSet", _):
            // Another program writing one value with plain UserDefaults: KEY JSON.
            guard arguments.count == 2 else { return false }
            let value = try DefaultsStoredValue(json: arguments[1])
            let plain = try UserDefaults.suite(named: suite)
            plain.set(value.propertyListObject, forKey: arguments[0])
            plain.synchronize()
        case ("homeFolder", _):
            // Where this process's suite lives, written by the store and by plain UserDefaults.
            UserDefault(wrappedValue: 0, "typed", store: store).wrappedValue = 1
            try store.flush()
            let plain = try UserDefaults.suite(named: suite)
            plain.set(2, forKey: "plain")
            plain.synchronize()
            say("file \(store.fileURL?.path ?? "none")")
        default:
            return false
        }
        return true
    }

    private static func writeNumbered(_ count: Int, prefix: String, store: DefaultsStore) {
        for index in 0..<count {
            UserDefault(wrappedValue: -1, "\(prefix).\(index)", store: store).wrappedValue = index
        }
    }

    /// Each thread's name and CPU time, user and system, in seconds, by thread ID, from /proc
    /// (Linux); empty where it cannot be read.
    private static func threadSeconds() -> [String: (name: String, seconds: Double)] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        var threads: [String: (name: String, seconds: Double)] = [:]
        for task in tasks {
            guard let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8),
                let end = stat.lastIndex(of: ")")
            else { continue }
            // After the name: state, then 10 fields, then utime and stime.
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { continue }
            threads[task] = (name.trimmingCharacters(in: .whitespacesAndNewlines), (user + system) / ticks)
        }
        return threads
    }

    /// Resident memory in bytes, from /proc (Linux); 0 where it cannot be read.
    private static func residentBytes() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// One line on standard output, unbuffered, so a parent waiting for it sees it at once.
    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data("\(line)\n".utf8))
    }
}

extension DefaultsKeys {
    /// Made anew in each process; only the first one read anywhere may be kept.
    static let installID = DefaultsKey<UUID>("installID", initialValue: UUID())
}

/// Eight options for `stepChoice`.
enum Stage: String, CaseIterable, DefaultsValueConvertible {
    case first, second, third, fourth, fifth, sixth, seventh, eighth
}
