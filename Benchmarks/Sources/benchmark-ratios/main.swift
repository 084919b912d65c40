import Foundation

// Prints the tables of RESULTS.md from a benchmark run exported in JMH format:
//
//     swift package --package-path Benchmarks --allow-writing-to-directory /tmp/run \
//         benchmark --format jmh --path /tmp/run
//     swift run --package-path Benchmarks benchmark-ratios /tmp/run/Current_run.jmh.json
//
// Each figure is a median. A raw baseline is the benchmark of the same name with the word
// "raw" in it; the ratio is ours divided by raw, so below 1 means faster than raw.

/// The medians of one benchmark, per operation.
struct Medians {
    var nanoseconds: Double
    var mallocs: Double?
    var extra: [(name: String, value: Double, unit: String)] = []
}

/// Benchmarks that run 1,000 operations a sample (`.thousandPerSample` and
/// `.thousandWritesPerSample` in the benchmarks); the others time one operation a sample.
func runsAThousandPerSample(_ name: String) -> Bool {
    name.contains(" read: ") || name.hasSuffix(" raw read") || name.hasSuffix(" write: class property")
        || name.hasSuffix(" write: store[.key]") || name.hasSuffix(" raw write") || name.hasPrefix("UserDefault init")
}

func nanoseconds(_ value: Double, unit: String) -> Double {
    switch unit {
    case "ns": value
    case "μs", "us": value * 1_000
    case "ms": value * 1_000_000
    case "s": value * 1_000_000_000
    default: value
    }
}

func readMedians(from file: String) throws -> [String: Medians] {
    let data = try Data(contentsOf: URL(fileURLWithPath: file))
    guard let elements = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
        throw Failure("\(file) is not a JMH export (a JSON array)")
    }
    var medians: [String: Medians] = [:]
    for element in elements {
        guard let qualified = element["benchmark"] as? String,
            let metrics = element["secondaryMetrics"] as? [String: [String: Any]]
        else { continue }
        // "package.benchmark.TARGET.NAME", with the name's spaces made underscores.
        let name =
            qualified.split(separator: ".", maxSplits: 3).last.map {
                $0.replacingOccurrences(of: "_", with: " ")
            } ?? qualified
        let scale = runsAThousandPerSample(name) ? 1_000.0 : 1
        func median(_ metric: String) -> (value: Double, unit: String)? {
            guard let entry = metrics[metric], let percentiles = entry["scorePercentiles"] as? [String: Double],
                let value = percentiles["50.0"]
            else { return nil }
            return (value, entry["scoreUnit"] as? String ?? "")
        }
        guard let time = median("Time (wall clock)") else { continue }
        var result = Medians(
            nanoseconds: nanoseconds(time.value, unit: time.unit) / scale,
            mallocs: median("Malloc (total)").map { $0.value / scale })
        // Only the memory benchmark measures these. (The JMH exporter hands every benchmark
        // the secondary metrics of the ones before it, so their presence proves nothing.)
        if name.hasSuffix(" writes") {
            for metric in ["Malloc / free Δ", "Memory Δ (resident peak)"] {
                if let value = median(metric) { result.extra.append((metric, value.value, value.unit)) }
            }
        }
        medians[name] = result
    }
    return medians
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func format(_ nanoseconds: Double) -> String {
    switch nanoseconds {
    case ..<10_000: String(format: "%.0f ns", nanoseconds)
    case ..<10_000_000: String(format: "%.1f µs", nanoseconds / 1_000)
    default: String(format: "%.1f ms", nanoseconds / 1_000_000)
    }
}

func ratio(_ ours: Double, _ raw: Double) -> String {
    let ratio = ours / raw
    return ratio >= 0.1 ? String(format: "%.2f", ratio) : "1/\(Int((raw / ours).rounded()))"
}

/// Where reads and writes are measured, as the benchmarks name them.
let readPositions = [
    "class property", "struct property", "store[.key]", "@UserDefault(.key)", "Setting", "wrapper held (floor)",
]
let writePositions = ["class property", "store[.key]"]

/// Whether a family's values are encoded on every write and decoded on every uncached read.
func isEncoded(_ family: String) -> Bool {
    family.hasPrefix("Codable") || family.hasPrefix("NSSecureCoding")
}

/// The read target (RESULTS.md, "Targets"): a fraction of the raw read.
func readTarget(_ family: String) -> Double {
    isEncoded(family) ? 300 : family == "Optional (nil)" ? 25 : 60
}

/// The write target (RESULTS.md, "Targets") as a ratio to the raw write, where it names one.
func writeTarget(_ family: String) -> Double? {
    if isEncoded(family) { return 0.2 }
    let named = ["Bool", "Int", "Double", "String", "Date", "URL", "UUID", "RawRepresentable"]
    return named.contains(family) ? 1.0 / 40 : nil
}

/// Reads in every position, as ratios to raw, judged by the slowest idiomatic one (the
/// wrapper held directly is the floor, shown but not judged).
func readTable(_ medians: [String: Medians]) -> [String] {
    var lines = [
        "| Type family | raw read | " + readPositions.joined(separator: " | ")
            + " | slowest ratio | target | mallocs per read |",
        "|---|---:|" + String(repeating: "---:|", count: readPositions.count) + "---:|---|---:|",
    ]
    for family in families(medians) {
        guard let raw = medians["\(family) raw read"] else { continue }
        let ours = readPositions.map { medians["\(family) read: \($0)"] }
        let judged = ours.dropLast().compactMap { $0 }
        let slowest = judged.map(\.nanoseconds).max() ?? .nan
        let mallocs = judged.compactMap(\.mallocs).max()
        let target = readTarget(family)
        let meets = slowest <= raw.nanoseconds / target && (mallocs ?? 0) == 0
        let cells = ours.map {
            $0.map { "\(format($0.nanoseconds)) (\(ratio($0.nanoseconds, raw.nanoseconds)))" } ?? "–"
        }
        lines.append(
            "| \(family) | \(format(raw.nanoseconds)) | \(cells.joined(separator: " | ")) | "
                + "\(ratio(slowest, raw.nanoseconds)) | ≤ 1/\(Int(target)), 0 mallocs \(meets ? "✅" : "❌") | "
                + "\(mallocs.map { String(format: "%.0f", $0) } ?? "–") |")
    }
    return lines
}

/// Writes through a class property and through `store[.key]`, as ratios to raw.
func writeTable(_ medians: [String: Medians]) -> [String] {
    var lines = [
        "| Type family | raw write | " + writePositions.joined(separator: " | ") + " | slowest ratio | target |",
        "|---|---:|" + String(repeating: "---:|", count: writePositions.count) + "---:|---|",
    ]
    for family in families(medians) {
        guard let raw = medians["\(family) raw write"] else { continue }
        let ours = writePositions.map { medians["\(family) write: \($0)"] }
        let slowest = ours.compactMap { $0?.nanoseconds }.max() ?? .nan
        let target = writeTarget(family).map { target in
            let shown = target < 0.1 ? "1/\(Int((1 / target).rounded()))" : String(format: "%.1f", target)
            return "≤ \(shown) \(slowest <= raw.nanoseconds * target ? "✅" : "❌")"
        }
        let cells = ours.map { $0.map { format($0.nanoseconds) } ?? "–" }
        lines.append(
            "| \(family) | \(format(raw.nanoseconds)) | \(cells.joined(separator: " | ")) | "
                + "\(ratio(slowest, raw.nanoseconds)) | \(target ?? "none named") |")
    }
    return lines
}

/// The families measured, in the tables' order.
func families(_ medians: [String: Medians]) -> [String] {
    medians.keys.filter { $0.hasSuffix(" raw read") }.map { String($0.dropLast(" raw read".count)) }
        .sorted(by: familyOrder)
}

/// Families in the tables' order: primitives first, then collections, then encoded values.
func familyOrder(_ first: String, _ second: String) -> Bool {
    let order = [
        "Bool", "Int", "Double", "String", "Data", "Date", "URL", "UUID", "[String]", "[String: Int]",
        "Optional (nil)", "Optional (non-nil)", "RawRepresentable", "Codable (small)", "Codable (1", "NSSecureCoding",
    ]
    func rank(_ name: String) -> Int { order.firstIndex { name.hasPrefix($0) } ?? order.count }
    return (rank(first), first) < (rank(second), second)
}

/// Everything else: paired with its raw baseline where it has one.
func engineTable(_ medians: [String: Medians]) -> [String] {
    let measured = Set(families(medians))
    let isFamily = { (name: String) in
        measured.contains { family in
            [" read: ", " write: ", " raw read", " raw write"].contains { name.hasPrefix(family + $0) }
        }
    }
    let names = medians.keys.filter { !isFamily($0) && !$0.split(separator: " ").contains("raw") }
    var lines = ["| Benchmark | raw | TypedDefaults | ratio | mallocs |", "|---|---:|---:|---:|---:|"]
    for name in names.sorted() {
        guard let ours = medians[name] else { continue }
        let rawName = medians.keys.first {
            $0.split(separator: " ").filter { $0 != "raw" }.joined(separator: " ") == name && $0 != name
        }
        let raw = rawName.flatMap { medians[$0] }
        lines.append(
            "| \(name) | \(raw.map { format($0.nanoseconds) } ?? "–") | \(format(ours.nanoseconds)) "
                + "| \(raw.map { ratio(ours.nanoseconds, $0.nanoseconds) } ?? "–") "
                + "| \(ours.mallocs.map { String(format: "%.0f", $0) } ?? "–") |")
        for (metric, value, unit) in ours.extra {
            lines.append("| ↳ \(metric) | | \(String(format: "%.0f", value)) \(unit) | | |")
        }
    }
    return lines
}

let arguments = CommandLine.arguments.dropFirst()
guard let file = arguments.first else {
    FileHandle.standardError.write(Data("usage: benchmark-ratios RUN.jmh.json\n".utf8))
    exit(2)
}
do {
    let medians = try readMedians(from: file)
    print(
        (["### Reads", ""] + readTable(medians) + ["", "### Writes", ""] + writeTable(medians)
            + ["", "### Engine", ""] + engineTable(medians))
            .joined(separator: "\n"))
} catch {
    FileHandle.standardError.write(Data("benchmark-ratios: \(error)\n".utf8))
    exit(1)
}
