import Foundation
import TypedDefaults

enum ServeTestTheme: String, CaseIterable, DefaultsValueConvertible, Sendable {
    case system, light, dark
}

struct ServeTestProfile: Codable, DefaultsValueConvertible, Sendable {
    var name = "Ada"
}

/// A program's settings, published as its schema: a range, options, a `Codable` value and an
/// optional whose default is `nil`.
struct ServeTestSettings: SettingsCatalog {
    @Setting var fontSize: Int
    @Setting var volume: Double
    @Setting var theme: ServeTestTheme
    @Setting var profile: ServeTestProfile
    @Setting var nickname: String?

    init(store: DefaultsStore) {
        _fontSize = Setting(
            wrappedValue: 12, "fontSize", title: "Font size", info: "Text size in points.", range: 8...72, step: 2,
            store: store)
        _volume = Setting(wrappedValue: 0.5, "volume", title: "Volume", range: 0...1, step: 0.1, store: store)
        _theme = Setting(wrappedValue: .system, "theme", title: "Theme", store: store)
        _profile = Setting(wrappedValue: ServeTestProfile(), "profile", title: "Profile", store: store)
        _nickname = Setting("nickname", title: "Nickname", store: store)
    }
}

/// Runs the built `typed-defaults-serve` as a real process, in a preferences folder of the
/// tests' own.
enum Serve {
    struct Result {
        var status: Int32
        var output: String
        var errors: String
    }

    /// The folder every suite of these tests lives in, shared with the server's processes. Set
    /// once, before any store is made: the library reads `XDG_CONFIG_HOME` when it opens a suite.
    static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typed-defaults-serve-\(UUID())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        setenv("XDG_CONFIG_HOME", folder.path, 1)
        return folder
    }()

    /// A suite name no other test uses, and its store in this process.
    static func suite(_ label: String = #function) throws -> (name: String, store: DefaultsStore) {
        _ = folder
        let name = "serve-tests.\(label.filter { $0.isLetter || $0.isNumber }).\(UUID().uuidString.prefix(8))"
        return (name, try DefaultsStore(suiteName: name, durability: .immediate))
    }

    /// The server sits beside the test bundle in the build folder.
    static var executable: URL {
        #if os(Linux)
            let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            return testBinary.deletingLastPathComponent().appendingPathComponent("typed-defaults-serve")
        #else
            let bundle = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") } ?? .main
            return bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("typed-defaults-serve")
        #endif
    }

    /// This process's environment, with the preferences folder `folder`.
    static var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = folder.path
        return environment
    }

    /// Runs the server to the end (a command line it refuses); waits without blocking a thread
    /// of the cooperative pool.
    static func run(_ arguments: [String]) async throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let (output, errors) = (Pipe(), Pipe())
        process.standardOutput = output
        process.standardError = errors
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        // The process has ended: what it wrote is in the pipes, and each ends there.
        return Result(
            status: status,
            output: String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            errors: String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    /// A server still running, whose lines can be waited for.
    final class Running: Sendable {
        let process = Process()
        private let output = Pipe()
        private let errors = Pipe()
        private let outputReader: PipeReader
        private let errorsReader: PipeReader

        /// Starts the server with `XDG_CONFIG_HOME` set to the tests' folder, and `variables`.
        init(_ arguments: [String], environment variables: [String: String] = [:]) throws {
            process.executableURL = Serve.executable
            process.arguments = arguments
            process.environment = Serve.environment.merging(variables) { $1 }
            process.standardOutput = output
            process.standardError = errors
            outputReader = PipeReader(output)
            errorsReader = PipeReader(errors)
            try process.run()
        }

        /// The lines of its standard output.
        var lines: [String] { outputReader.text.split(separator: "\n").map(String.init) }

        /// Both outputs, for a failure's message.
        var text: String { outputReader.text + errorsReader.text }

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
