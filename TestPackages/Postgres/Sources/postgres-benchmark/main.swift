import Configuration
import Foundation
import TypedDefaults
import TypedDefaultsConfiguration
import TypedDefaultsPostgres

// Measures a store on PostgreSQL against a store on a plist file, doing what programs do: a
// read of a typed key, a coalesced write, an immediate write (which waits for its commit), an
// atomic update, and how long another process takes to see a write. The server comes from the
// PG* variables (`.ci/postgres.sh start`); plist suites go to a temporary folder.
//
//   swift run -c release --package-path TestPackages/Postgres postgres-benchmark [--quick]
//
// Prints a Markdown table, and exits 1 if another process sees a write on PostgreSQL later
// than the 100 ms the backend promises on loopback (median).
//   postgres-benchmark observe|watch postgres|file SUITE   (the other process: a store's
//   observer, or a swift-configuration watch through DefaultsProvider)

let arguments = Array(CommandLine.arguments.dropFirst())

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("postgres-benchmark: \(message)\n".utf8))
    exit(1)
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data("\(line)\n".utf8))
}

/// Nanoseconds on a clock every process of the machine shares.
func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

func makeStore(kind: String, suite: String, durability: Durability) -> DefaultsStore {
    do {
        switch kind {
        case "postgres":
            guard let configuration = PostgresBackend.environmentConfiguration() else { fail("PGHOST is not set") }
            return DefaultsStore(
                backend: try PostgresBackend(configuration: configuration, suite: suite), durability: durability)
        default:
            return try DefaultsStore(suiteName: suite, durability: durability)
        }
    } catch {
        fail("\(error)")
    }
}

let tick = DefaultsKey<Int>("tick", default: 0)

// The other process: prints each value of `tick` it is told of, with the time it was told.
if arguments.first == "observe", arguments.count == 3 {
    let store = makeStore(kind: arguments[1], suite: arguments[2], durability: .immediate)
    let done = DispatchSemaphore(value: 0)
    let observation = store.observe(tick) { change in
        say("\(change.newValue) \(now())")
        if change.newValue < 0 { done.signal() }
    }
    say("ready")
    done.wait()
    observation.cancel()
    exit(0)
}

// The other process, through swift-configuration: prints each value a watchValue of `tick`
// delivers, with the time it arrived.
if arguments.first == "watch", arguments.count == 3 {
    let store = makeStore(kind: arguments[1], suite: arguments[2], durability: .immediate)
    let provider: DefaultsProvider
    do {
        provider = try DefaultsProvider(store: store)
    } catch {
        fail("cannot read the suite: \(error)")
    }
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        try await provider.watchValue(forKey: ["tick"], type: .int) { updates in
            var first = true
            for await update in updates {
                // The first update is the value now: the watch is ready.
                if first {
                    say("ready")
                    first = false
                    continue
                }
                guard case .int(let value)? = try? update.get().value?.content else { continue }
                say("\(value) \(now())")
                if value < 0 { break }
            }
        }
        done.signal()
    }
    done.wait()
    exit(0)
}

let quick = arguments.contains("--quick")
guard PostgresBackend.environmentConfiguration() != nil else { fail("PGHOST is not set: run .ci/postgres.sh start") }
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("postgres-benchmark-\(UUID())")
try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
setenv("XDG_CONFIG_HOME", folder.path, 1)

/// Median and 99th percentile of `samples` nanoseconds, in the unit that suits them.
func summary(_ samples: [UInt64]) -> (median: String, p99: String) {
    let sorted = samples.sorted()
    func shown(_ nanoseconds: UInt64) -> String {
        if nanoseconds < 10_000 { return "\(nanoseconds) ns" }
        if nanoseconds < 1_000_000 { return String(format: "%.0f µs", Double(nanoseconds) / 1e3) }
        return String(format: "%.1f ms", Double(nanoseconds) / 1e6)
    }
    return (shown(sorted[sorted.count / 2]), shown(sorted[min(sorted.count - 1, sorted.count * 99 / 100)]))
}

/// Times `count` runs of `body`, in batches of `batch` for operations too short to time alone.
func measure(_ count: Int, batch: Int = 1, _ body: (Int) -> Void) -> [UInt64] {
    (0..<count).map { round in
        let start = now()
        for index in 0..<batch { body(round * batch + index) }
        return (now() - start) / UInt64(batch)
    }
}

/// The other process's view: lines it printed, waited for.
final class Observer: Sendable {
    private let process = Process()
    private let output = Pipe()
    private let reader: PipeReader

    /// - Parameters:
    ///   - mode: `observe` (a store's observer) or `watch` (swift-configuration's watchValue).
    ///   - kind: `postgres` or `file`.
    ///   - suite: the suite it follows.
    init(mode: String = "observe", kind: String, suite: String) {
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = [mode, kind, suite]
        process.standardOutput = output
        reader = PipeReader(output)
        do { try process.run() } catch { fail("cannot start the observer: \(error)") }
    }

    /// Whether the observer said it is ready, waited for at most 30 s.
    func waitUntilReady() -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if reader.text.hasPrefix("ready\n") { return true }
            usleep(1000)
        }
        return false
    }

    /// The time printed with `value`, waited for at most 5 s.
    func time(of value: String) -> UInt64? {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            for line in reader.text.split(separator: "\n") {
                let parts = line.split(separator: " ")
                if parts.count == 2, parts[0] == value, let time = UInt64(parts[1]) { return time }
            }
            usleep(200)
        }
        return nil
    }

    func finish() {
        process.waitUntilExit()
    }
}

var rows: [(operation: String, postgres: (median: String, p99: String), file: (median: String, p99: String))] = []
var propagationMedian: UInt64 = 0
let rounds = quick ? 20 : 200

for kind in ["postgres", "file"] {
    let suite = "benchmark.\(UUID())"
    let coalesced = makeStore(kind: kind, suite: suite, durability: .coalesced)
    let immediate = makeStore(kind: kind, suite: suite + ".immediate", durability: .immediate)
    let limit = DefaultsKey<Int>("limit", default: 10)
    coalesced[limit] = 1
    _ = coalesced[limit]
    var results: [(median: String, p99: String)] = []
    results.append(summary(measure(rounds, batch: 1000) { _ in _ = coalesced[limit] }))
    results.append(summary(measure(rounds, batch: 100) { coalesced[limit] = $0 }))
    try? coalesced.flush()
    results.append(summary(measure(rounds) { immediate[limit] = $0 }))
    results.append(summary(measure(rounds) { _ in immediate.update(limit) { $0 += 1 } }))
    // Another process observing the suite: from the start of a write to the observer's
    // handler, one write at a time.
    let observer = Observer(kind: kind, suite: suite + ".immediate")
    guard observer.waitUntilReady() else { fail("the observer did not start") }
    // Its listener connects in the background.
    usleep(300_000)
    var propagation: [UInt64] = []
    for value in 1...rounds {
        let start = now()
        immediate[tick] = value
        guard let seen = observer.time(of: "\(value)") else { fail("the observer did not see \(value) in 5 s") }
        propagation.append(seen > start ? seen - start : 0)
    }
    immediate[tick] = -1
    observer.finish()
    results.append(summary(propagation))
    if kind == "postgres" { propagationMedian = propagation.sorted()[propagation.count / 2] }
    // The same through swift-configuration: from the end of the commit to the other process's
    // watchValue update (DefaultsProvider).
    let watcher = Observer(mode: "watch", kind: kind, suite: suite + ".immediate")
    guard watcher.waitUntilReady() else { fail("the watch did not start") }
    usleep(300_000)
    var watched: [UInt64] = []
    for value in 1...rounds {
        immediate[tick] = value + 1_000_000
        let committed = now()
        guard let seen = watcher.time(of: "\(value + 1_000_000)") else { fail("the watch did not see \(value) in 5 s") }
        watched.append(seen > committed ? seen - committed : 0)
    }
    immediate[tick] = -1
    watcher.finish()
    results.append(summary(watched))
    let names = [
        "read `store[key]` (cached)", "write `store[key] = v` (coalesced)", "write, `.immediate` (committed)",
        "`update` (atomic read-modify-write)", "write seen by another process's observer",
        "committed write seen by another process's swift-configuration watch",
    ]
    for (index, result) in results.enumerated() {
        if kind == "postgres" {
            rows.append((names[index], result, ("", "")))
        } else {
            rows[index].file = result
        }
    }
}

say("| operation | PostgreSQL median | p99 | plist file median | p99 |")
say("|---|---|---|---|---|")
for row in rows {
    say("| \(row.operation) | \(row.postgres.median) | \(row.postgres.p99) | \(row.file.median) | \(row.file.p99) |")
}
say("")
say("\(rounds) rounds; reads and coalesced writes timed in batches of 1,000 and 100.")
if propagationMedian > 100_000_000 {
    fail("another process saw a PostgreSQL write after \(propagationMedian / 1_000_000) ms (median): over 100 ms")
}
