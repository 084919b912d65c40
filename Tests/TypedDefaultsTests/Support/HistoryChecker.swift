import Foundation

/// Checks a history of several processes on one suite against a model of what the API promises
/// (the Semantics article lists them): what each process logged as it began and ended each
/// operation (see `HistoryWorker` in the probe), how each process ended, and what the suite's
/// file holds afterwards. Times are the machine's monotonic clock, which every process shares,
/// so operations of different processes are ordered wherever one ended before another began.
struct HistoryChecker {
    /// One operation, as its process logged it.
    struct Operation {
        let process: String
        let id: Int
        let kind: String
        let key: String
        /// What a set wrote (`nil`: a removal), or what a migration's version was.
        let value: String?
        let mode: String
        let begin: Int64
        var end: Int64?
        var acknowledged = false
        var failed = false
        /// What a read or an update found once it returned (`nil`: nothing stored).
        var found: String?

        var isWrite: Bool { kind == "set" || kind == "remove" }
    }

    /// How a process ended: killed (at that time), or on its own.
    struct Ending {
        var killedAt: Int64?
        var endedAt: Int64
        var finished: Bool
    }

    var operations: [Operation] = []
    var endings: [String: Ending] = [:]
    /// Errors the processes reported: `process: text`.
    var errors: [String] = []
    /// What the observer was last told of each key.
    var observed: [String: String?] = [:]

    /// Reads `text`, the log of `process`.
    mutating func read(log text: String, of process: String) {
        var index: [Int: Int] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 2, let time = Int64(fields[0]) else { continue }
            switch fields[1] {
            case "B" where fields.count >= 5:
                let id = Int(fields[2]) ?? -1
                index[id] = operations.count
                let value = fields.count > 5 ? fields[5] : nil
                operations.append(
                    Operation(
                        process: process, id: id, kind: fields[3], key: fields[4], value: value == "-" ? nil : value,
                        mode: fields.count > 6 ? fields[6] : "", begin: time))
            case "A", "F":
                guard fields.count >= 3, let id = Int(fields[2]), let at = index[id] else { continue }
                operations[at].end = time
                operations[at].acknowledged = fields[1] == "A"
                operations[at].failed = fields[1] == "F"
                if fields.count > 3, fields[3] != "-" { operations[at].found = fields[3] }
            case "E":
                errors.append("\(process): \(fields.dropFirst(2).joined(separator: " "))")
            case "O" where fields.count >= 4:
                observed[fields[2]] = fields[3] == "-" ? String?.none : fields[3]
            default:
                continue
            }
        }
    }

    /// Every way the history breaks a promise, each in a line that names the operations.
    func violations(final file: [String: String]) -> [String] {
        var found: [String] = []
        let durable = durableTimes()
        let writes = Dictionary(grouping: operations.indices.filter { operations[$0].isWrite }) { operations[$0].key }
        for (key, indices) in writes.sorted(by: { $0.key < $1.key }) where !key.hasPrefix("m.") {
            found += check(key, writes: indices, durable: durable, final: file[key])
        }
        for key in Set(operations.filter { $0.kind == "update" }.map(\.key)).sorted() {
            found += updates(of: key, final: file[key])
        }
        found += reads()
        found += migrations(final: file)
        for (key, value) in observed.sorted(by: { $0.key < $1.key }) where value != observedForm(key, file[key]) {
            found.append(
                "the observer's last value of \(key) is \(value ?? "nothing"), the suite holds \(file[key] ?? "nothing")"
            )
        }
        for (process, ending) in endings.sorted(by: { $0.key < $1.key })
        where ending.killedAt == nil && !ending.finished {
            found.append("\(process) was not killed and did not finish its run (hung, or ended early)")
        }
        return found
    }

    /// When each set or removal was on disk at the latest, by index, where its process said so:
    /// an immediate write (or another program's) once it returned; any other once a flush of its
    /// process that began after it returned did, with no `refresh()` between (which lets the
    /// file's value win over a change not yet written).
    func durableTimes() -> [Int: Int64] {
        var durable: [Int: Int64] = [:]
        var waiting: [String: [Int]] = [:]  // writes of each process not yet known durable
        for (index, operation) in operations.enumerated() {
            if operation.isWrite, let end = operation.end {
                if operation.acknowledged, operation.mode == "immediate" || operation.mode == "outside" {
                    durable[index] = end
                } else {
                    waiting[operation.process, default: []].append(index)
                }
            } else if operation.kind == "refresh" {
                waiting[operation.process] = []
            } else if operation.kind == "flush", operation.acknowledged, let end = operation.end {
                for write in waiting[operation.process] ?? [] { durable[write] = end }
                waiting[operation.process] = []
            }
        }
        return durable
    }

    /// The file's value of a key that sets and removals write must be one of them (or the start's
    /// nothing), and none that a durable write begun after it had reached the file supersedes: no
    /// acknowledged durable write lost, no removed key back, no value nobody wrote.
    func check(_ key: String, writes: [Int], durable: [Int: Int64], final value: String?) -> [String] {
        // The latest a write can have reached the file: once durable, or when its process ended.
        func latestCommit(_ index: Int) -> Int64 {
            durable[index] ?? endings[operations[index].process]?.endedAt ?? .max
        }
        let durableWrites = writes.filter { durable[$0] != nil }
        func superseding(after time: Int64) -> Int? { durableWrites.first { operations[$0].begin > time } }
        if value == nil, durableWrites.isEmpty { return [] }  // the start's nothing
        let candidates = writes.filter { operations[$0].value == value }
        if candidates.contains(where: { superseding(after: latestCommit($0)) == nil }) { return [] }
        guard let first = candidates.last else {
            let what = value.map { "\($0), which no process wrote" } ?? "nothing, which no process removed"
            return ["\(key) holds \(what), after \(durableWrites.last.map { describe(operations[$0]) } ?? "")"]
        }
        let later = superseding(after: latestCommit(first)).map { describe(operations[$0]) } ?? ""
        return [
            "\(key) holds \(value ?? "nothing") (\(describe(operations[first]))), but \(later) began after "
                + "that had reached the file and was durable itself: an acknowledged write was lost"
        ]
    }

    /// A counter holds as many increments as were acknowledged, and at most those still under way
    /// when their process was killed more: no lost update, and a failed one never stored.
    func updates(of key: String, final value: String?) -> [String] {
        let updates = operations.filter { $0.key == key && $0.kind == "update" }
        let acknowledged = updates.filter(\.acknowledged).count
        let underway = updates.filter { !$0.acknowledged && !$0.failed }.count
        let stored = Int(value ?? "0") ?? -1
        guard (acknowledged...(acknowledged + underway)).contains(stored) else {
            let what = stored < acknowledged ? "a lost update" : "more than was ever begun"
            return [
                "\(key) holds \(stored) after \(acknowledged) acknowledged increments and \(underway) under way: \(what)"
            ]
        }
        return []
    }

    /// A process reads its own keys as it last wrote them, others' keys as someone wrote them,
    /// and a counter never lower than it read before.
    func reads() -> [String] {
        var found: [String] = []
        var lastCount: [String: Int] = [:]
        var ownWrite: [String: String?] = [:]  // by process and key
        var firstBegun: [String: Int64] = [:]  // by key and value
        for operation in operations where operation.isWrite {
            if let value = operation.value {
                firstBegun["\(operation.key) \(value)"] = min(
                    firstBegun["\(operation.key) \(value)"] ?? .max, operation.begin)
            }
        }
        for operation in operations {
            let place = "\(operation.process) \(operation.key)"
            if operation.isWrite, operation.key.hasPrefix("p.") { ownWrite[place] = operation.value }
            guard operation.acknowledged, operation.kind == "read" || operation.kind == "update" else { continue }
            if operation.key.hasPrefix("c.") {
                let count = Int(operation.found ?? "0") ?? 0
                if count < lastCount[place, default: 0] {
                    found.append("\(describe(operation)) read \(count) after reading \(lastCount[place, default: 0])")
                }
                lastCount[place] = max(count, lastCount[place, default: 0])
            } else if operation.key.hasPrefix("p.") {
                let own = ownWrite[place] ?? nil
                if operation.found != own {
                    found.append(
                        "\(describe(operation)) read \(operation.found ?? "nothing"), its own last write was \(own ?? "nothing")"
                    )
                }
            } else if let value = operation.found,
                (firstBegun["\(operation.key) \(value)"] ?? .max) > (operation.end ?? .max)
            {
                found.append("\(describe(operation)) read \(value), which no process had begun to write")
            }
        }
        return found
    }

    /// Each migration step ran once at most, and once when a migration to it was acknowledged.
    func migrations(final file: [String: String]) -> [String] {
        var found: [String] = []
        let migrated = operations.filter { $0.kind == "migrate" && $0.acknowledged }
        for (key, version) in [("m.first", "2"), ("m.third", "3")] {
            let runs = Int(file[key] ?? "0") ?? -1
            let expected = migrated.contains { $0.key >= version } ? 1...1 : 0...1
            if !expected.contains(runs) { found.append("the migration step counted in \(key) ran \(runs) times") }
        }
        if !migrated.isEmpty, file["legacy"] != nil || file["renamed"] != "L" {
            found.append(
                "after a migration: legacy is \(file["legacy"] ?? "gone"), renamed is \(file["renamed"] ?? "gone")")
        }
        return found
    }

    private func observedForm(_ key: String, _ value: String?) -> String? {
        (key.hasPrefix("c.") || key.hasPrefix("m.")) ? (value ?? "0") : value
    }

    private func describe(_ operation: Operation) -> String {
        "\(operation.process)'s \(operation.kind) #\(operation.id)"
            + (operation.value.map { " of \($0)" } ?? "") + (operation.mode.isEmpty ? "" : " (\(operation.mode))")
    }
}
