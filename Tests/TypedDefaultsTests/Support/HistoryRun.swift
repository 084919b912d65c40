import Foundation

/// One history: three workers (the probe's `history` role), another program writing the file
/// (Python, `HistoryOutsider`) and an observer, on one suite in a folder of their own; some
/// workers killed with SIGKILL at random instants; then the checker's verdict. Everything random
/// comes from the seed, so a failing seed replays (the processes' timing aside).
struct HistoryRun {
    let seed: UInt64
    var workers = 3
    var operations = 1500
    /// Makes the workers misbehave (`dropped-write`, `lost-update`), to show the checker catches it.
    var plant: String?

    struct Outcome {
        var violations: [String]
        var summary: String
    }

    func run() async throws -> Outcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "history-\(seed)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let suite = "history"
        let file = folder.appendingPathComponent("\(suite).plist")
        let environment = Probe.environment(["XDG_CONFIG_HOME": folder.path])
        // A key for the migrations to rename, as an earlier release left it.
        try PropertyListSerialization.data(fromPropertyList: ["legacy": "L"], format: .binary, options: 0).write(
            to: file)
        func log(_ name: String) -> String { folder.appendingPathComponent("\(name).log").path }

        let observer = try Probe.Running(
            ["history", suite, "observer", "\(seed)", "0", log("observer")], environment: environment)
        defer { if observer.process.isRunning { _ = observer.end(with: SIGKILL) } }
        // Waited for without blocking a thread of the small cooperative pool, which other tests need.
        let readyDeadline = ContinuousClock.now + .seconds(60)
        while !((try? String(contentsOfFile: log("observer"), encoding: .utf8))?.contains(" R\n") ?? false) {
            guard observer.process.isRunning, ContinuousClock.now < readyDeadline else {
                throw Failure("the observer did not start")
            }
            try await Task.sleep(for: .milliseconds(20))
        }

        var random = SplitMix64(state: seed)
        var processes: [String: Process] = [:]
        for index in 1...workers {
            var arguments = ["history", suite, "worker", "\(seed)", "\(index)", log("w\(index)"), "\(operations)"]
            if let plant { arguments.append(plant) }
            processes["w\(index)"] = try Probe.Running(arguments, environment: environment).process
        }
        let outside = Process()
        outside.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        outside.arguments = ["python3", "-c", HistoryOutsider.script, file.path, log("outside"), "\(seed)", "60"]
        try outside.run()
        processes["outside"] = outside
        defer { for process in processes.values where process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        // One or two workers killed, each at a random instant of the first three seconds.
        var kills: [(String, Double)] = []
        for index in (1...workers).shuffled(using: &random).prefix(Int.random(in: 1...2, using: &random)) {
            kills.append(("w\(index)", Double.random(in: 0.05...3, using: &random)))
        }
        let start = ContinuousClock.now
        var endings: [String: HistoryChecker.Ending] = [:]
        while processes.contains(where: { endings[$0.key] == nil }) {
            let elapsed = (ContinuousClock.now - start)
            for (name, process) in processes where endings[name] == nil {
                if !process.isRunning {
                    endings[name] = .init(killedAt: nil, endedAt: Self.now, finished: process.terminationStatus == 0)
                } else if let kill = kills.first(where: { $0.0 == name }), elapsed >= .seconds(kill.1) {
                    let at = Self.now
                    Foundation.kill(process.processIdentifier, SIGKILL)
                    process.waitUntilExit()
                    endings[name] = .init(killedAt: at, endedAt: Self.now, finished: false)
                } else if elapsed > .seconds(120) {
                    // Hung: the checker says so, for it was neither killed nor finished.
                    Foundation.kill(process.processIdentifier, SIGKILL)
                    process.waitUntilExit()
                    endings[name] = .init(killedAt: nil, endedAt: Self.now, finished: false)
                }
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        _ = FileManager.default.createFile(atPath: log("observer") + ".stop", contents: nil)
        let observerDeadline = ContinuousClock.now + .seconds(60)
        while observer.process.isRunning, ContinuousClock.now < observerDeadline {
            try await Task.sleep(for: .milliseconds(20))
        }

        var checker = HistoryChecker()
        checker.endings = endings
        for name in processes.keys.sorted() + ["observer"] {
            checker.read(log: (try? String(contentsOfFile: log(name), encoding: .utf8)) ?? "", of: name)
        }
        var violations = try await Self.unreadable(file, in: folder)
        violations += checker.errors.filter { !$0.contains("for more than") }.map { "an error was reported: \($0)" }
        if observer.process.isRunning { violations.append("the observer did not end") }
        violations += checker.violations(final: try await Self.contents(of: file))
        let killed = endings.filter { $0.value.killedAt != nil }.keys.sorted()
        let summary =
            "\(checker.operations.count) operations, killed \(killed.isEmpty ? "none" : killed.joined(separator: ", "))"
        return Outcome(violations: violations, summary: summary)
    }

    /// The machine's monotonic clock, as the processes' logs give it.
    static var now: Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// Nothing unreadable: the file parses for corelibs and Python, and nothing was set aside.
    static func unreadable(_ file: URL, in folder: URL) async throws -> [String] {
        var found: [String] = []
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        for name in names where name.contains(".corrupt-") { found.append("a file was set aside as corrupt: \(name)") }
        if let data = FileManager.default.contents(atPath: file.path),
            (try? PropertyListSerialization.propertyList(from: data, format: nil)) == nil
        {
            found.append("the suite's file does not parse for corelibs")
        }
        return found
    }

    /// The suite's top-level keys and values as Python's `plistlib` reads them, values as text.
    static func contents(of file: URL) async throws -> [String: String] {
        guard FileManager.default.fileExists(atPath: file.path) else { return [:] }
        let script = """
            import plistlib, sys
            for key, value in plistlib.load(open(sys.argv[1], "rb")).items():
                print(key, value)
            """
        var contents: [String: String] = [:]
        for line in try await Python.run(script, file.path).split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            if parts.count == 2 { contents[parts[0]] = parts[1] }
        }
        return contents
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// A seeded random generator (SplitMix64): the kills a seed chose are chosen again.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
