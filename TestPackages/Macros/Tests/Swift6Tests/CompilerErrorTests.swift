// What the compiler reports of models the macro refuses, compiled as an app's module is: with
// the library and the macro plugin these tests were built with, in the isolation mode given.
// Each refusal must leave the user the one error that says what to write.
import Foundation
import Testing

@Suite struct CompilerErrorTests {
    /// Type-checks `source` as a module of its own and returns its errors, each as
    /// `line:column: message` (`expansion:line:column: message` inside a macro's expansion).
    private func errors(of source: String, _ flags: String...) throws -> [String] {
        let built = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("compiler-errors-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Models.swift")
        try Data(source.utf8).write(to: file)
        let plugin = built.appendingPathComponent("TypedDefaultsMacrosPlugin-tool").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "swiftc", "-typecheck", "-parse-as-library", "-swift-version", "6", "-diagnostic-style", "llvm",
                "-module-cache-path", folder.appendingPathComponent("cache").path,
                "-I", built.appendingPathComponent("Modules").path,
                "-load-plugin-executable", "\(plugin)#TypedDefaultsMacrosPlugin",
            ] + flags + [file.path]
        let output = Pipe()
        process.standardError = output
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus != 0, "the model compiled")
        return printed.split(separator: "\n").compactMap { line in
            guard let error = line.range(of: ": error: ") else { return nil }
            let place = line[..<error.lowerBound]
            let position = place.split(separator: ":").suffix(2).joined(separator: ":")
            let inExpansion = place.contains("/@__swiftmacro_") ? "expansion:" : ""
            let message = line[error.upperBound...]
                .replacingOccurrences(of: " (from macro 'ObservableSettings ')", with: "")
            return "\(inExpansion)\(position): \(message)"
        }
    }

    @Test func aPropertyWithNoDefaultOrWithObserversIsOneErrorEach() throws {
        let errors = try errors(
            of: """
                import TypedDefaultsMacros
                @ObservableSettings final class A: Sendable {
                    var name: String
                }
                @ObservableSettings final class B: Sendable {
                    var count = 0 { didSet { print(count) } }
                }
                @ObservableSettings final class C: Sendable {
                    var count = 0 { willSet { print(newValue) } }
                }
                """)
        let observers =
            "a setting cannot have 'willSet' or 'didSet': other handles and processes change it too; use a typed key's didSet(_:)"
        #expect(
            errors == [
                "3:9: a setting needs a default, the value read while nothing is stored ('var name = value'); only an optional may leave it out",
                "6:19: \(observers)", "9:19: \(observers)",
            ])
    }

    @Test func aSecretWrapperInASendableModelLeadsToSettingSecret() throws {
        let errors = try errors(
            of: """
                import TypedDefaultsMacros
                @ObservableSettings final class Account: Sendable {
                    var server = "x"
                    @Secret("apiToken") var apiToken: String?
                }
                """)
        // The wrapper's own storage is the compiler's to report, after the way out.
        #expect(
            errors.first
                == "4:5: declare a model's secret @SettingSecret, which files it under the model's store; a @Secret wrapper's storage is a 'var', which a 'Sendable' class cannot hold"
        )
    }

    @Test func aNonisolatedModelsMainActorStoreIsReportedAtTheStore() throws {
        let errors = try errors(
            of: """
                import TypedDefaultsMacros
                extension DefaultsStore {
                    static let app = DefaultsStore(suite: "com.example.app")
                }
                @ObservableSettings(store: .app)
                nonisolated final class SyncSettings: Sendable {
                    var value = 0
                }
                """, "-default-isolation", "MainActor")
        #expect(
            errors == [
                "expansion:3:6: main actor-isolated static property 'app' can not be referenced from a nonisolated context"
            ])
    }
}
