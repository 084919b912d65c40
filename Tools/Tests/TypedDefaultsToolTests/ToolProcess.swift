import Foundation
import TypedDefaults

/// Runs the built `typed-defaults` as a real process, in a preferences folder of the tests' own.
enum Tool {
    struct Result {
        var status: Int32
        var output: String
        var errors: String
    }

    /// The folder every suite of these tests lives in, shared with the tool's processes. Set
    /// once, before any store is made: the library reads `XDG_CONFIG_HOME` when it opens a suite.
    static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typed-defaults-tool-\(UUID())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        setenv("XDG_CONFIG_HOME", folder.path, 1)
        return folder
    }()

    /// A suite name no other test uses, and its store in this process.
    static func suite(_ label: String = #function) throws -> (name: String, store: DefaultsStore) {
        _ = folder
        let name = "tool-tests.\(label.filter { $0.isLetter || $0.isNumber }).\(UUID().uuidString.prefix(8))"
        return (name, try DefaultsStore(suiteName: name, durability: .immediate))
    }

    static func file(of suite: String) -> URL {
        folder.appendingPathComponent("\(suite).plist")
    }

    /// Writes `bytes` as a suite file someone left there a minute ago: the library takes an
    /// empty or unparsable file for what it is only once it has been left as it is for 10 s
    /// (before that, another program may be halfway through writing it).
    static func writeAtRest(_ bytes: Data, to url: URL) throws {
        try bytes.write(to: url)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: url.path)
    }

    /// The tool sits beside the test bundle in the build folder.
    static var executable: URL {
        #if os(Linux)
            let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            return testBinary.deletingLastPathComponent().appendingPathComponent("typed-defaults")
        #else
            let bundle = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") } ?? .main
            return bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("typed-defaults")
        #endif
    }

    /// This process's environment, with the preferences folder `folder`.
    static func environment(folder: URL = Tool.folder) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = folder.path
        return environment
    }

    /// Runs the tool to the end with `input` on its standard input; waits without blocking a
    /// thread of the cooperative pool.
    @discardableResult
    static func run(_ arguments: String..., input: Data? = nil) async throws -> Result {
        try await run(arguments, input: input)
    }

    /// Runs the tool to the end; through `launcher` when given (a command that runs the rest of
    /// its arguments, such as `setpriv`), with the variables of `environment` set as given.
    static func run(
        _ arguments: [String], input: Data? = nil, folder: URL = Tool.folder, launcher: [String] = [],
        environment variables: [String: String] = [:]
    ) async throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tool-run-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (outputFile, errorsFile, inputFile) = (
            scratch.appendingPathComponent("out"), scratch.appendingPathComponent("err"),
            scratch.appendingPathComponent("in")
        )
        for file in [outputFile, errorsFile, inputFile] {
            _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        }
        if let input { try input.write(to: inputFile) }
        let (output, errors, stdin) = (
            try FileHandle(forWritingTo: outputFile), try FileHandle(forWritingTo: errorsFile),
            try FileHandle(forReadingFrom: inputFile)
        )
        defer {
            try? output.close()
            try? errors.close()
            try? stdin.close()
        }
        let process = Process()
        if let command = launcher.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = launcher.dropFirst() + [executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        process.environment = environment(folder: folder).merging(variables) { $1 }
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = stdin
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        return Result(
            status: status, output: try String(contentsOf: outputFile, encoding: .utf8),
            errors: try String(contentsOf: errorsFile, encoding: .utf8))
    }

    /// A tool process still running (`watch`), whose lines can be waited for.
    final class Running: Sendable {
        let process = Process()
        private let output = Pipe()
        private let errors = Pipe()
        private let outputReader: PipeReader
        private let errorsReader: PipeReader

        /// Starts the tool with `XDG_CONFIG_HOME` set to `folder`, through `launcher` when given (a
        /// command that runs the rest of its arguments, such as `setpriv`).
        init(
            _ arguments: [String], folder: URL = Tool.folder, launcher: [String] = [],
            environment variables: [String: String] = [:]
        ) throws {
            if let command = launcher.first {
                process.executableURL = URL(fileURLWithPath: command)
                process.arguments = launcher.dropFirst() + [Tool.executable.path] + arguments
            } else {
                process.executableURL = Tool.executable
                process.arguments = arguments
            }
            process.environment = Tool.environment(folder: folder).merging(variables) { $1 }
            process.standardOutput = output
            process.standardError = errors
            outputReader = PipeReader(output)
            errorsReader = PipeReader(errors)
            try process.run()
        }

        var lines: [String] { outputReader.text.split(separator: "\n").map(String.init) }
        var errorText: String { errorsReader.text }

        /// Both outputs, for a failure's message.
        var text: String { outputReader.text + errorsReader.text }

        /// Waits up to `seconds` for a line, on either output, equal to `line`, or containing it
        /// with `partly`.
        func waitFor(_ line: String, partly: Bool = false, seconds: Double = 10) async -> Bool {
            await wait(seconds: seconds) { running in
                running.text.split(separator: "\n").contains { partly ? $0.contains(line) : $0 == line }
            }
        }

        /// Waits up to `seconds` for `condition`; whether it came true.
        func wait(seconds: Double = 10, for condition: (Running) -> Bool) async -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while !condition(self) {
                if Date() > deadline { return false }
                try? await Task.sleep(for: .milliseconds(5))
            }
            return true
        }

        func stop() {
            process.terminate()
            process.waitUntilExit()
        }
    }
}
