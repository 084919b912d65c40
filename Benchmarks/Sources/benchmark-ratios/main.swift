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

/// Benchmarks that run 1,000 operations a sample (`.thousandPerSample` in the benchmarks); the
/// others time one operation a sample.
func runsAThousandPerSample(_ name: String) -> Bool {
    name.hasSuffix(" read") || name.hasPrefix("UserDefault init")
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

/// The families' tables, in the order the benchmarks declare them.
func familyTable(_ medians: [String: Medians]) -> [String] {
    let families = medians.keys.filter { $0.hasSuffix(" raw read") }.map { String($0.dropLast(" raw read".count)) }
    var lines = [
        "| Type family | raw read | read | ratio | target | mallocs per read | raw write | write | ratio | target |",
        "|---|---:|---:|---:|---|---:|---:|---:|---:|---|",
    ]
    for family in families.sorted(by: familyOrder) {
        let heavy = family.hasPrefix("Codable") || family.hasPrefix("NSSecureCoding")
        let readTarget = heavy ? 100.0 : 30
        let read = pair(medians, family, "read", target: "≤ 1/\(Int(readTarget)), 0 mallocs") { ours, raw in
            ours.nanoseconds <= raw.nanoseconds / readTarget && (ours.mallocs ?? 0) == 0
        }
        let write = pair(medians, family, "write", target: "≤ 1.1") { ours, raw in
            ours.nanoseconds <= raw.nanoseconds * 1.1
        }
        let mallocs = medians["\(family) read"]?.mallocs.map { String(format: "%.0f", $0) } ?? "–"
        lines.append(
            "| \(family) | \(read.joined(separator: " | ")) | \(mallocs) | \(write.joined(separator: " | ")) |")
    }
    return lines
}

/// Raw, ours, their ratio and whether it meets the target, for one operation of a family.
func pair(
    _ medians: [String: Medians], _ family: String, _ operation: String, target: String,
    meets: (Medians, Medians) -> Bool
) -> [String] {
    guard let raw = medians["\(family) raw \(operation)"], let ours = medians["\(family) \(operation)"] else {
        return [
            medians["\(family) raw \(operation)"].map { format($0.nanoseconds) } ?? "–",
            medians["\(family) \(operation)"].map { format($0.nanoseconds) } ?? "–", "–", target,
        ]
    }
    return [
        format(raw.nanoseconds), format(ours.nanoseconds), ratio(ours.nanoseconds, raw.nanoseconds),
        "\(target) \(meets(ours, raw) ? "✅" : "❌")",
    ]
}

/// Families in the order of the issue: primitives first, then collections, then encoded values.
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
    let isFamily = { (name: String) in name.hasSuffix(" read") || name.hasSuffix(" write") }
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
        (["### Type families", ""] + familyTable(medians) + ["", "### Engine", ""] + engineTable(medians))
            .joined(separator: "\n"))
} catch {
    FileHandle.standardError.write(Data("benchmark-ratios: \(error)\n".utf8))
    exit(1)
}
