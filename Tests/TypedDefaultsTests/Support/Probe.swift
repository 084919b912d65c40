import Foundation

/// Runs the `DefaultsProbe` helper in a child process.
enum Probe {
    struct Result {
        var status: Int32
        var output: String
        var errors: String
        /// When the process ended, taken as Foundation tells of it (on its own thread): the time
        /// the awaiting test resumes comes later when other tests hold the cooperative threads.
        var ended = Date.distantFuture
        /// Whether it ended by a signal of its own (a crash), and whether `run`'s `killAfter` ended it.
        var crashed = false
        var timedOut = false
    }

    /// The helper sits beside the test bundle in the build folder.
    static var executable: URL {
        #if os(Linux)
            let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            return testBinary.deletingLastPathComponent().appendingPathComponent("DefaultsProbe")
        #else
            let bundle = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") } ?? .main
            return bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("DefaultsProbe")
        #endif
    }

    /// A child process still running, whose output can be waited for.
    final class Running {
        let process = Process()
        private let output = Pipe()
        private var received = ""

        init(_ arguments: [String], environment: [String: String]? = nil) throws {
            process.executableURL = Probe.executable
            process.arguments = arguments
            process.environment = environment
            process.standardOutput = output
            try process.run()
        }

        /// Blocks until the child has printed a line for which `condition` holds; returns it.
        func waitForLine(where condition: (String) -> Bool) -> String? {
            while true {
                if let line = received.split(separator: "\n").map(String.init).last(where: condition) {
                    return line
                }
                let data = output.fileHandleForReading.availableData
                guard !data.isEmpty else { return nil }  // the child closed its output
                received += String(decoding: data, as: UTF8.self)
            }
        }

        /// Sends `signal` and waits for the child to end; returns how it ended.
        func end(with signal: Int32) -> (reason: Process.TerminationReason, status: Int32) {
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            return (process.terminationReason, process.terminationStatus)
        }
    }

    static func start(_ arguments: String...) throws -> Running {
        try Running(arguments)
    }

    /// Runs the helper to the end and returns what it printed. Waits without blocking a thread:
    /// a child process takes a second to start under ThreadSanitizer, and tests that block the
    /// small cooperative pool for that long stall every other test's tasks.
    static func run(_ arguments: String...) async throws -> Result {
        try await run(arguments)
    }

    /// The environment of this process with `changes` made (`nil` removes a variable).
    static func environment(_ changes: [String: String?]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in changes { environment[name] = value }
        return environment
    }

    /// Runs the helper to the end, with `environment` in place of this process's, and through
    /// `launcher` when given (a command that runs the rest of its arguments, such as `setpriv`).
    /// - Parameters:
    ///   - executable: the program to run, the helper unless given (a test binary runs itself).
    ///   - killAfter: when given, the program is killed (SIGKILL) if it still runs that long after
    ///     its start, and the result says it `timedOut`.
    static func run(
        _ arguments: [String], environment: [String: String]? = nil, launcher: [String] = [],
        executable: URL = Probe.executable, killAfter: Double? = nil
    ) async throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Files, not pipes: nothing has to read while the child runs, and it can never block on
        // a full pipe.
        let (outputFile, errorsFile) = (folder.appendingPathComponent("out"), folder.appendingPathComponent("err"))
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorsFile.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputFile)
        let errors = try FileHandle(forWritingTo: errorsFile)
        defer {
            try? output.close()
            try? errors.close()
        }

        let process = Process()
        if let command = launcher.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = launcher.dropFirst() + [executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        process.environment = environment
        process.standardOutput = output
        process.standardError = errors
        let killed = Counter()
        let (status, ended): (Int32, Date) = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: ($0.terminationStatus, Date())) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
            if let killAfter {
                DispatchQueue.global().asyncAfter(deadline: .now() + killAfter) {
                    guard process.isRunning else { return }
                    killed.increment()
                    kill(process.processIdentifier, SIGKILL)
                }
            }
        }
        return Result(
            status: status, output: String(decoding: try Data(contentsOf: outputFile), as: UTF8.self),
            errors: String(decoding: try Data(contentsOf: errorsFile), as: UTF8.self), ended: ended,
            crashed: process.terminationReason == .uncaughtSignal && killed.value == 0, timedOut: killed.value > 0)
    }
}
