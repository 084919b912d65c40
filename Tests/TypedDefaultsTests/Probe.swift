import Foundation

/// Runs the `DefaultsProbe` helper in a child process.
enum Probe {
    struct Result {
        var status: Int32
        var output: String
        var errors: String
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

        init(_ arguments: [String]) throws {
            process.executableURL = Probe.executable
            process.arguments = arguments
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

    static func run(_ arguments: String...) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read before waiting so a large output cannot fill the pipe and block the child.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData, as: UTF8.self))
    }
}
