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
