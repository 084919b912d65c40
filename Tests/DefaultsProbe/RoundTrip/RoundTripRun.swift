import Foundation
import TypedDefaults

/// Generated round trips: `roundtrip-write SUITE SEED [FAMILY]` writes thousands of values drawn
/// from SEED through `@UserDefault` and typed keys and exits normally (the library flushes at
/// exit); `roundtrip-verify SUITE SEED [FAMILY]`, in a fresh process, draws the same values again
/// and compares them with what it reads. Each prints one line of counts; each problem goes to
/// standard error with the seed, the family, the key, and the values written and read, and makes
/// the exit status 1.
///
/// Each family has a suite of its own, `SUITE.FAMILY`. A flush rewrites a whole suite, and with
/// every value in one suite (3 MB) a debug build's background flush took long enough (seconds
/// under ThreadSanitizer) that the flush at exit, which waits at most 2 s for it, could give up
/// and lose the last writes: a limit of the engine, not of these values. `ROUNDTRIP_ONE_SUITE=1`
/// puts every family in SUITE itself, which shows it (with `ROUNDTRIP_SCALE=5`, seed 101).
enum RoundTrip {
    static func run(_ action: String, suite: String, _ arguments: [String]) throws -> Bool {
        guard action == "roundtrip-write" || action == "roundtrip-verify" else { return false }
        guard let seed = arguments.first.flatMap({ UInt64($0) }) else {
            throw RoundTripUsage(message: "usage: DefaultsProbe \(action) SUITE SEED [FAMILY]")
        }
        let only = arguments.dropFirst().first
        let families = RoundTripFamily.all.filter { only == nil || $0.name == only }
        guard !families.isEmpty else { throw RoundTripUsage(message: "no family named \(only ?? "")") }

        let reported = RoundTripErrors()
        DefaultsError.handler = { reported.append($0) }
        let writing = action == "roundtrip-write"
        let started = Date()
        var problems: [(family: String, text: String)] = []
        var count = 0
        // A longer soak: ROUNDTRIP_SCALE=10 draws ten times as many values of each family.
        let scale = ProcessInfo.processInfo.environment["ROUNDTRIP_SCALE"].flatMap { Int($0) }.map { max(1, $0) } ?? 1
        let oneSuite = ProcessInfo.processInfo.environment["ROUNDTRIP_ONE_SUITE"] == "1"
        for family in families {
            let store = try DefaultsStore(suiteName: oneSuite ? suite : "\(suite).\(family.name)")
            let context = RoundTripContext(seed: seed, store: store, reported: reported)
            for index in 0..<(family.count * scale) {
                var draw = Draw(SeededGenerator(seed: seed, stream: family.name, index: index))
                let key = "\(family.name).\(index)"
                let entry = family.entry(&draw, key)
                let found = writing ? entry.write(context) : entry.verify(context)
                problems += found.map { (family.name, "seed \(seed), family \(family.name), key \(key): \($0)") }
                count += 1
            }
        }
        problems += reported.takeAll().map { ("-", "seed \(seed): reported outside any value: \($0)") }
        // What the flush at exit reports goes to standard error, where the test shows it.
        DefaultsError.handler = { FileHandle.standardError.write(Data("DefaultsProbe: at exit: \($0)\n".utf8)) }
        let elapsed = Date().timeIntervalSince(started)
        print(
            "\(action) seed \(seed): \(count) values of \(families.count) families in "
                + "\(String(format: "%.2f", elapsed)) s, \(problems.count) problems")
        if !problems.isEmpty {
            FileHandle.standardError.write(Data((summary(problems, seed: seed) + "\n").utf8))
            exit(1)
        }
        return true
    }
}

extension RoundTrip {
    /// The problems by family: how many each, and the first three of each in full.
    static func summary(_ problems: [(family: String, text: String)], seed: UInt64) -> String {
        var families: [String] = []
        var byFamily: [String: [String]] = [:]
        for problem in problems {
            if byFamily[problem.family] == nil { families.append(problem.family) }
            byFamily[problem.family, default: []].append(problem.text)
        }
        var lines = ["seed \(seed): \(problems.count) problems in \(families.count) families"]
        for family in families {
            let texts = byFamily[family] ?? []
            lines.append("== \(family): \(texts.count) problems")
            lines += texts.prefix(3)
        }
        return lines.joined(separator: "\n")
    }
}

struct RoundTripUsage: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
