import Foundation
import Testing

/// Histories of several processes on one suite, checked against a model of what the API promises
/// (the Semantics article lists them). Each run draws fresh seeds and prints them; a failure
/// names its seed, and `TYPEDDEFAULTS_HISTORY_SEED=SEED swift test --filter HistoryTests` replays
/// it. `TYPEDDEFAULTS_HISTORY_SEEDS=N` runs N seeds, for a longer search.
@Suite(
    .enabled(if: isLinux),
    .plistFilesOnly(
        "histories of several processes, checked against the plist-file engine's model: corelibs UserDefaults neither merges nor announces other processes' writes"
    )) struct HistoryTests
{
    static let environment = ProcessInfo.processInfo.environment

    static var seeds: [UInt64] {
        if let seed = environment["TYPEDDEFAULTS_HISTORY_SEED"].flatMap(UInt64.init) { return [seed] }
        // One under ThreadSanitizer, where five instrumented processes slow every other test.
        let count = environment["TYPEDDEFAULTS_HISTORY_SEEDS"].flatMap(Int.init) ?? (isThreadSanitized ? 1 : 3)
        return (0..<count).map { _ in UInt64.random(in: 0...UInt64.max) }
    }

    @Test(.tags(.childProcess), .startsProcesses) func historiesKeepEveryPromise() async throws {
        for seed in Self.seeds {
            let outcome = try await HistoryRun(seed: seed, operations: isThreadSanitized ? 600 : 1500).run()
            print("history seed \(seed): \(outcome.violations.isEmpty ? "ok" : "FAILED"), \(outcome.summary)")
            #expect(
                outcome.violations.isEmpty,
                """
                history seed \(seed) broke \(outcome.violations.count) promises; replay with \
                TYPEDDEFAULTS_HISTORY_SEED=\(seed) swift test --filter HistoryTests
                \(outcome.violations.prefix(20).joined(separator: "\n"))
                """)
        }
    }

    /// The checker is trusted because it catches planted defects: workers that acknowledge a
    /// durable write they never made, and that increment with a read and a write.
    @Test(.tags(.childProcess), .startsProcesses, arguments: ["dropped-write", "lost-update"])
    func theCheckerCatchesAPlantedDefect(plant: String) async throws {
        let outcome = try await HistoryRun(seed: 7, operations: isThreadSanitized ? 400 : 800, plant: plant).run()
        print("history with \(plant) planted: \(outcome.violations.count) violations, \(outcome.summary)")
        // A dropped write shows where its process reads the key back, or in the file at the end.
        let expected =
            plant == "dropped-write" ? ["its own last write was", "an acknowledged write was lost"] : ["a lost update"]
        #expect(
            outcome.violations.contains { violation in expected.contains { violation.contains($0) } },
            "\(outcome.violations.prefix(10).joined(separator: "\n"))")
    }

    // MARK: The checker's rules, on histories written out

    /// A history of one process `w1` from log lines `B …`, `A …` (times added in order).
    func checker(_ lines: [String], ending: HistoryChecker.Ending? = nil) -> HistoryChecker {
        var checker = HistoryChecker()
        checker.read(
            log: lines.enumerated().map { "\(($0.offset + 1) * 1000) \($0.element)" }.joined(separator: "\n"), of: "w1")
        checker.endings["w1"] = ending ?? .init(killedAt: nil, endedAt: Int64(lines.count + 1) * 1000, finished: true)
        return checker
    }

    @Test func aDurableWriteMissingFromTheFileIsLost() {
        let history = checker(["B 1 set p.1.0 w1:1 immediate", "A 1 -", "B 2 set p.1.0 w1:2 coalesced", "A 2 -"])
        // The coalesced write may or may not have reached the file: both are fine, nothing is not.
        #expect(history.violations(final: ["p.1.0": "w1:1"]).isEmpty)
        #expect(history.violations(final: ["p.1.0": "w1:2"]).isEmpty)
        #expect(history.violations(final: [:]).first?.contains("which no process removed") == true)
        // Once flushed, the coalesced write supersedes the first.
        let flushed = checker([
            "B 1 set p.1.0 w1:1 immediate", "A 1 -", "B 2 set p.1.0 w1:2 coalesced", "A 2 -", "B 3 flush -", "A 3 -",
        ])
        #expect(flushed.violations(final: ["p.1.0": "w1:1"]).first?.contains("an acknowledged write was lost") == true)
        // A refresh between them lets the file's value win: the write was never durable.
        let refreshed = checker([
            "B 1 set p.1.0 w1:1 immediate", "A 1 -", "B 2 set p.1.0 w1:2 coalesced", "A 2 -", "B 3 refresh -", "A 3 -",
            "B 4 flush -", "A 4 -",
        ])
        #expect(refreshed.violations(final: ["p.1.0": "w1:1"]).isEmpty)
    }

    @Test func aRemovedKeyBackOrAValueNobodyWroteIsCaught() {
        let history = checker(["B 1 set s.0 w1:1 immediate", "A 1 -", "B 2 remove s.0 - immediate", "A 2 -"])
        #expect(history.violations(final: [:]).isEmpty)
        #expect(history.violations(final: ["s.0": "w1:1"]).first?.contains("an acknowledged write was lost") == true)
        #expect(history.violations(final: ["s.0": "w9:9"]).first?.contains("which no process wrote") == true)
    }

    @Test func countersAllowOnlyTheIncrementsUnderWay() {
        let killed = checker(
            ["B 1 update c.0", "A 1 1", "B 2 update c.0", "A 2 2", "B 3 update c.0"],
            ending: .init(killedAt: 6000, endedAt: 6000, finished: false))
        #expect(killed.violations(final: ["c.0": "2"]).isEmpty)
        #expect(killed.violations(final: ["c.0": "3"]).isEmpty)
        #expect(killed.violations(final: ["c.0": "1"]).first?.contains("a lost update") == true)
        #expect(killed.violations(final: ["c.0": "4"]).first?.contains("more than was ever begun") == true)
        let failed = checker(["B 1 update c.0", "A 1 1", "B 2 update c.0", "F 2"])
        #expect(failed.violations(final: ["c.0": "2"]).first?.contains("more than was ever begun") == true)
    }

    @Test func readsObserversAndHangsAreChecked() {
        var history = checker([
            "B 1 set p.1.0 w1:1 coalesced", "A 1 -", "B 2 read p.1.0", "A 2 -", "B 3 update c.0", "A 3 1",
            "B 4 read c.0", "A 4 0",
        ])
        history.observed = ["c.0": "1", "s.0": "w1:7"]
        history.endings["w2"] = .init(killedAt: nil, endedAt: 1, finished: false)
        let found = history.violations(final: ["p.1.0": "w1:1", "c.0": "1"])
        #expect(found.contains { $0.contains("read nothing, its own last write was w1:1") })
        #expect(found.contains { $0.contains("read 0 after reading 1") })
        #expect(found.contains { $0.contains("the observer's last value of s.0 is w1:7") })
        #expect(found.contains { $0.contains("w2 was not killed and did not finish") })
        #expect(found.count == 4, "\(found)")
    }
}
