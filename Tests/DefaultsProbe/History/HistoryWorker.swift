import Foundation
import Synchronization
import TypedDefaults

/// One process of the history check (the test's `HistoryTests`): a seeded random sequence of
/// every kind of operation on one suite, each logged as it begins and once it is acknowledged,
/// with a timestamp of the machine's monotonic clock, so that a checker can compare what every
/// process saw with what the suite holds at the end.
///
///     DefaultsProbe history SUITE worker SEED INDEX LOG OPERATIONS [PLANT]
///
/// Log lines: `NANOS B ID KIND KEY [VALUE] [MODE]` as an operation begins, `NANOS A ID [VALUE]`
/// when it returned (a read's or an update's value after it; `-` for none), `NANOS F ID` when it
/// reported a failure, `NANOS E TEXT` for an error reported on another thread. Each line is one
/// `write`, so a process killed at any instant leaves whole lines.
///
/// `PLANT` makes the worker misbehave as a defective library would, so that the checker can be
/// shown to catch it: `dropped-write` acknowledges some durable writes it never makes,
/// `lost-update` increments counters with a read and a write instead of `update`.
enum HistoryWorker {
    static func run(_ name: String, suite: String, _ arguments: [String]) throws -> Bool {
        guard name == "history", let role = arguments.first else { return false }
        guard arguments.count >= 4, let seed = UInt64(arguments[1]), let index = Int(arguments[2]) else {
            fail("usage: DefaultsProbe history SUITE worker|observer SEED INDEX LOG [OPERATIONS [PLANT]]")
        }
        let log = try HistoryLog(path: arguments[3])
        let store = try DefaultsStore(suiteName: suite)
        switch role {
        case "worker":
            guard arguments.count >= 5, let operations = Int(arguments[4]) else { fail("no operation count") }
            var worker = Worker(
                store: store, log: log, index: index,
                random: SeededGenerator(seed: seed, stream: "history.worker", index: index),
                plant: arguments.count > 5 ? arguments[5] : nil)
            try worker.run(operations)
        case "observer":
            HistoryObserver(store: store, log: log).run(stopFile: arguments[3] + ".stop")
        default:
            fail("unknown role \(role)")
        }
        return true
    }

    /// The keys of a history: each worker's own, shared ones, counters, the outside program's,
    /// and those the migrations touch.
    enum Keys {
        static func own(_ worker: Int, _ slot: Int) -> String { "p.\(worker).\(slot)" }
        static let shared = (0..<6).map { "s.\($0)" }
        static let counters = (0..<3).map { "c.\($0)" }
        static let outside = (0..<4).map { "x.\($0)" }
        static let migrationRuns = ["m.first", "m.third"]
        static let observed = shared + counters + outside + migrationRuns + ["legacy", "renamed"]
    }

    /// The steps every worker migrates the suite with; half way through its run, with one more.
    static func migrations(all: Bool) -> [DefaultsMigration] {
        let first: [DefaultsMigration] = [
            .editStoredValues("count the first step's runs") { values in
                values["m.first"] = .integer(Int64(values["m.first"]?.value(as: Int.self) ?? 0) + 1)
            },
            .renameKey("legacy", to: "renamed"),
        ]
        guard all else { return first }
        return first + [
            .editStoredValues("count the third step's runs") { values in
                values["m.third"] = .integer(Int64(values["m.third"]?.value(as: Int.self) ?? 0) + 1)
            }
        ]
    }

    struct Worker {
        let store: DefaultsStore
        let immediate: DefaultsStore
        let log: HistoryLog
        let index: Int
        var random: SeededGenerator
        let plant: String?
        private var next = 0
        private var sequence = 0

        init(store: DefaultsStore, log: HistoryLog, index: Int, random: SeededGenerator, plant: String?) {
            self.store = store
            immediate = store.durability(.immediate)
            self.log = log
            self.index = index
            self.random = random
            self.plant = plant
        }

        mutating func run(_ operations: Int) throws {
            DefaultsError.handler = { [log] error in
                if Thread.isMainThread { HistoryLog.failedHere.withLock { $0 = true } }
                log.line("E \(String(describing: error).split(whereSeparator: \.isNewline).joined(separator: " "))")
            }
            migrate(all: false)
            for step in 0..<operations {
                if step == operations / 2 { migrate(all: true) }
                try operation()
            }
            let store = store
            perform("flush", "-") { () throws(DefaultsError) in try store.flush() }
            log.line("D")
            FileHandle.standardOutput.write(Data("done\n".utf8))
        }

        private mutating func operation() throws {
            let choice = Int.random(in: 0..<100, using: &random)
            let own = Keys.own(index, Int.random(in: 0..<8, using: &random))
            let shared = Keys.shared.randomElement(using: &random) ?? "s.0"
            let counter = Keys.counters.randomElement(using: &random) ?? "c.0"
            let store = store
            switch choice {
            case 0..<20:
                let value = value()
                set(own, to: value)
            case 20..<25: set(own, to: nil)
            case 25..<40:
                let value = value()
                set(shared, to: value)
            case 40..<45: set(shared, to: nil)
            case 45..<60: increment(counter)
            case 60..<65: perform("flush", "-") { () throws(DefaultsError) in try store.flush() }
            case 65..<93: read([own, shared, counter, Keys.outside[0]].randomElement(using: &random) ?? own)
            case 93..<95: perform("refresh", "-") { store.refresh() }
            default: usleep(UInt32.random(in: 500..<4_000, using: &random))
            }
        }

        private mutating func value() -> String {
            sequence += 1
            return "w\(index):\(sequence)"
        }

        /// Sets or removes `key`, through the immediate store or the coalescing one.
        private mutating func set(_ key: String, to value: String?) {
            let isImmediate = Bool.random(using: &random)
            let target = isImmediate ? immediate : store
            let kind = value == nil ? "remove" : "set"
            let id = begin("\(kind) \(key) \(value ?? "-") \(isImmediate ? "immediate" : "coalesced")")
            if plant == "dropped-write", isImmediate, value != nil, key.hasPrefix("p."), sequence % 7 == 0 {
                acknowledge(id, nil)  // planted: acknowledged, never written
                return
            }
            target[DefaultsKey<String?>(key, default: nil)] = value
            acknowledge(id, nil)
        }

        private mutating func increment(_ key: String) {
            let counter = DefaultsKey<Int>(key, default: 0)
            let id = begin("update \(key)")
            if plant == "lost-update" {
                // Planted: a read and a write, which another process's increment can slip between.
                let current = immediate[counter]
                usleep(200)
                immediate[counter] = current + 1
            } else {
                immediate.update(counter) { $0 += 1 }
            }
            acknowledge(id, "\(store[counter])")
        }

        private mutating func read(_ key: String) {
            let id = begin("read \(key)")
            let found: String? =
                key.hasPrefix("c.")
                ? "\(store[DefaultsKey<Int>(key, default: 0)])" : store[DefaultsKey<String?>(key, default: nil)]
            acknowledge(id, found)
        }

        private mutating func migrate(all: Bool) {
            let store = store
            perform("migrate", all ? "3" : "2") { () throws(DefaultsError) in
                try store.migrate(HistoryWorker.migrations(all: all))
            }
        }

        /// Runs `body` as an operation `kind` on `key`, logging its failure if it throws or
        /// reports one on this thread.
        private mutating func perform(_ kind: String, _ key: String, _ body: () throws(DefaultsError) -> Void) {
            let id = begin("\(kind) \(key)")
            do {
                try body()
                acknowledge(id, nil)
            } catch {
                log.line("F \(id)")
            }
        }

        private mutating func begin(_ description: String) -> Int {
            next += 1
            HistoryLog.failedHere.withLock { $0 = false }
            log.line("B \(next) \(description)")
            return next
        }

        /// Logs the end of operation `id`: a failure if one was reported on this thread meanwhile.
        private func acknowledge(_ id: Int, _ value: String?) {
            if HistoryLog.failedHere.withLock({ $0 }) {
                log.line("F \(id)")
            } else {
                log.line("A \(id) \(value ?? "-")")
            }
        }
    }
}

/// A history's log file: lines appended with one `write` each, stamped with the monotonic clock
/// every process of the machine shares.
final class HistoryLog: Sendable {
    private let descriptor: Int32
    /// Whether a failure was reported on the main thread during the operation under way.
    static let failedHere = Mutex(false)

    init(path: String) throws {
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission) }
    }

    func line(_ text: String) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let bytes = Array("\(Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)) \(text)\n".utf8)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
