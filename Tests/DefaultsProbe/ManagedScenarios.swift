import Foundation
import TypedDefaults

/// A managed suite seen from another process: the administrator's files come from the
/// `XDG_CONFIG_DIRS` the test gives this process.
enum ManagedScenario {
    static let telemetry = DefaultsKey<Bool>("telemetry", default: true)

    static func run(_ name: String, suite: String, _ arguments: [String]) throws -> Bool {
        switch name {
        case "managed-follow":
            // Prints the key's state at start and at every change heard, until it is stopped.
            let store = try DefaultsStore(suiteName: suite)
            // Unbuffered, as the test reads each line while this process runs.
            let describe: @Sendable (String) -> Void = { event in
                let line =
                    "\(event) telemetry=\(store[telemetry]) writable=\(store.isWritable(telemetry)) "
                    + "source=\(store.valueSource(of: telemetry))\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            }
            let observation = store.observe(telemetry) { _ in describe("change") }
            describe("ready")
            while true { sleep(60) }
            _ = observation
        case "managed-write":
            // Writes the key as a program would, then says what it reads and what was reported.
            let store = try DefaultsStore(suiteName: suite, durability: .immediate)
            let reported = ReportedLines()
            DefaultsError.handler = { reported.append("\($0)") }
            store[telemetry] = arguments.first == "true"
            try store.flush()
            print("telemetry=\(store[telemetry]) reported=\(reported.lines.joined(separator: " | "))")
        default:
            return false
        }
        return true
    }
}

/// Lines reported from any thread.
final class ReportedLines: @unchecked Sendable {  // `all` only under `lock`
    private let lock = NSLock()
    private var all: [String] = []

    func append(_ line: String) { lock.withLock { all.append(line) } }
    var lines: [String] { lock.withLock { all } }
}
