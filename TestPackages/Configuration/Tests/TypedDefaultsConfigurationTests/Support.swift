import Configuration
import Foundation
import Synchronization
import Testing
import TypedDefaults

/// The preferences folder of these tests, and their suites. Set once, before any store is made:
/// the library reads `XDG_CONFIG_HOME` when it opens a suite.
enum Suites {
    static let folder: URL = {
        let folder =
            ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("typed-defaults-configuration-\(UUID())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        setenv("XDG_CONFIG_HOME", folder.path, 1)
        // Read once, at a suite's first use: never the machine's own administrator's files.
        try? FileManager.default.createDirectory(at: administrator, withIntermediateDirectories: true)
        setenv("XDG_CONFIG_DIRS", administrator.path, 1)
        return folder
    }()

    /// The administrator's folder of these tests: a test managing a suite writes its files,
    /// named by the suite's name no other test uses, before the suite's first use.
    static let administrator = FileManager.default.temporaryDirectory
        .appendingPathComponent("typed-defaults-configuration-admin-\(UUID())")

    /// A suite no other test uses, and its store.
    static func make(_ label: String = #function) throws -> (name: String, store: DefaultsStore) {
        _ = folder
        let name = "configuration-tests.\(label.filter { $0.isLetter || $0.isNumber }).\(UUID().uuidString.prefix(8))"
        return (name, try DefaultsStore(suiteName: name))
    }
}

/// Waits up to `seconds` for `condition`; whether it came true.
func eventually(seconds: Double = 10, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return true
}

/// Collects what a watch delivers, from any task.
final class Received<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])
    func append(_ item: Element) { items.withLock { $0.append(item) } }
    var all: [Element] { items.withLock { $0 } }
}

/// The `typed-defaults` tool, built by the Tools package: `TYPEDDEFAULTS_TOOL` names it (CI
/// sets it), else it is looked for in `Tools/.build/debug`.
enum Tool {
    static var executable: URL? {
        if let path = ProcessInfo.processInfo.environment["TYPEDDEFAULTS_TOOL"] { return URL(fileURLWithPath: path) }
        // TestPackages/Configuration/Tests/TypedDefaultsConfigurationTests/Support.swift
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let built = repository.appendingPathComponent("Tools/.build/debug/typed-defaults")
        return FileManager.default.isExecutableFile(atPath: built.path) ? built : nil
    }

    /// Runs the tool to the end in the tests' preferences folder; its exit status and errors.
    static func run(_ arguments: [String]) async throws -> (status: Int32, errors: String) {
        let executable = try #require(executable, "typed-defaults is not built: bash .ci/configuration builds it")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = Suites.folder.path
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        return (status, String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }
}

/// The errors `DefaultsError.handler` receives while a test body runs. The handler is
/// process-wide and tests run in parallel, so each test's reports are routed through a task
/// local: a test sees only the errors its own reads reported; others are printed as by default.
enum HandlerReports {
    @TaskLocal static var received: Received<DefaultsError>?

    private static let installed: Void = {
        DefaultsError.handler = { error in
            if let received = HandlerReports.received {
                received.append(error)
            } else {
                DefaultsError.printToStandardError(error)
            }
        }
    }()

    /// Runs `body`; its result, and what it reported.
    static func during<Result>(_ body: () async throws -> Result) async rethrows -> (Result, [DefaultsError]) {
        _ = installed
        let received = Received<DefaultsError>()
        let result = try await $received.withValue(received) { try await body() }
        return (result, received.all)
    }
}
