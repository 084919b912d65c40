import Configuration
import Foundation
import TypedDefaults
import TypedDefaultsConfiguration

// Usage: configuration-benchmark [--quick]       reads, then another process's writes to a watch
//        configuration-benchmark writer SUITE    (the other process: writes what it is told)
//
// 1. `config.int(forKey:)` through a ConfigReader over DefaultsProvider, against the same over
//    swift-configuration's InMemoryProvider (target: within 2×).
// 2. From another process's write, committed to the suite's file, to the watchValue update that
//    carries it (target: under 20 ms, median): the writer prints the time its `.immediate`
//    setter returned, the watch notes when the value arrives, on the same clock.
// Prints a table and exits 1 when a target is missed.

let arguments = Array(CommandLine.arguments.dropFirst())

if arguments.first == "writer", arguments.count == 2 {
    // Writes each number read from standard input, then prints it and the time of the commit.
    let store = try DefaultsStore(suiteName: arguments[1], durability: .immediate)
    let limit = DefaultsKey<Int>("http.maxConnections", default: 0, store: store)
    while let line = readLine(), let value = Int(line) {
        store[limit] = value
        // Unbuffered: the other side reads each line as it is written.
        FileHandle.standardOutput.write(Data("\(value) \(Date().timeIntervalSince1970)\n".utf8))
    }
    exit(0)
}

let quick = arguments.contains("--quick")
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("configuration-benchmark-\(UUID())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
setenv("XDG_CONFIG_HOME", folder.path, 1)
defer { try? FileManager.default.removeItem(at: folder) }

// MARK: Reads

let suite = "configuration-benchmark.\(UUID().uuidString.prefix(8))"
let store = try DefaultsStore(suiteName: suite)
let limit = DefaultsKey<Int>("http.maxConnections", default: 0, store: store)
store[limit] = 100
try store.flush()
let provider = try DefaultsProvider(store: store)
let ours = ConfigReader(provider: provider)
let inMemory = ConfigReader(
    provider: InMemoryProvider(values: ["http.maxConnections": ConfigValue(.int(100), isSecret: false)]))

/// Nanoseconds per read, the median of a few rounds.
func nanosecondsPerRead(_ reader: ConfigReader, reads: Int) -> Double {
    var rounds: [Double] = []
    for _ in 0..<5 {
        var total = 0
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<reads { total &+= reader.int(forKey: "http.maxConnections") ?? 0 }
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        if total != 100 * reads {
            print("a read gave another value than the 100 stored")
            exit(1)
        }
        rounds.append(Double(elapsed) / Double(reads))
    }
    return rounds.sorted()[rounds.count / 2]
}

let reads = quick ? 20_000 : 200_000
let oursRead = nanosecondsPerRead(ours, reads: reads)
let inMemoryRead = nanosecondsPerRead(inMemory, reads: reads)
let readRatio = oursRead / inMemoryRead

// MARK: Another process's write to a watch

let writer = Process()
writer.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
writer.arguments = ["writer", suite]
let toWriter = Pipe()
let fromWriter = Pipe()
writer.standardInput = toWriter
writer.standardOutput = fromWriter
try writer.run()

/// When each value arrived at the watch.
final class Arrivals: @unchecked Sendable {  // `times` is only touched under `lock`
    private let lock = NSLock()
    private var times: [Int: Double] = [:]
    func note(_ value: Int) { lock.withLock { times[value] = Date().timeIntervalSince1970 } }
    func time(of value: Int) -> Double? { lock.withLock { times[value] } }
}
let arrivals = Arrivals()
let watching = Task.detached {  // off the main actor, which the loop below keeps busy
    try await provider.watchValue(forKey: "http.maxConnections", type: .int) { updates in
        for await update in updates {
            if case .int(let value)? = try? update.get().value?.content { arrivals.note(value) }
        }
    }
}

var lines = FileHandleLines(fromWriter.fileHandleForReading)
var latencies: [Double] = []
let samples = quick ? 30 : 300
for value in 1...samples {
    toWriter.fileHandleForWriting.write(Data("\(value + 1_000)\n".utf8))
    guard let line = lines.next(), let committed = line.split(separator: " ").last.flatMap({ Double($0) }) else {
        print("the writer stopped")
        exit(1)
    }
    let deadline = Date().addingTimeInterval(5)
    while arrivals.time(of: value + 1_000) == nil, Date() < deadline { usleep(100) }
    guard let arrived = arrivals.time(of: value + 1_000) else {
        print("the watch did not see write \(value) within 5 s")
        exit(1)
    }
    latencies.append(max(0, arrived - committed) * 1_000)
}
try? toWriter.fileHandleForWriting.close()
writer.waitUntilExit()
watching.cancel()

latencies.sort()
let median = latencies[latencies.count / 2]
let p99 = latencies[min(latencies.count - 1, Int(Double(latencies.count) * 0.99))]

print("| measure | value | target |")
print("|---|---:|---|")
print(String(format: "| `config.int(forKey:)`, DefaultsProvider | %.0f ns | |", oursRead))
print(String(format: "| `config.int(forKey:)`, InMemoryProvider | %.0f ns | |", inMemoryRead))
print(String(format: "| ratio | %.2f | ≤ 2 %@ |", readRatio, readRatio <= 2 ? "✅" : "❌"))
print(
    String(
        format: "| another process's write → watch, median (%d writes) | %.2f ms | < 20 ms %@ |", samples, median,
        median < 20 ? "✅" : "❌"))
print(String(format: "| the same, p99 | %.2f ms | |", p99))
exit(readRatio <= 2 && median < 20 ? 0 : 1)

/// The lines of a file handle, read as they come.
struct FileHandleLines {
    let handle: FileHandle
    var buffer = Data()

    init(_ handle: FileHandle) { self.handle = handle }

    mutating func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            let data = handle.availableData
            if data.isEmpty { return nil }
            buffer.append(data)
        }
    }
}
