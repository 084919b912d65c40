import Foundation
import Testing

@testable import TypedDefaults
@testable import TypedDefaultsStorage

/// The standard suite a program names keeps its settings whatever the executable is called.
@Suite struct StandardSuiteTests {
    /// Without the name, each copy of the program would count in a file named after itself.
    @Test(.tags(.childProcess), .startsProcesses)
    func aNamedStandardSuiteSurvivesARenamedExecutable() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("standard-\(UUID().uuidString)")
        let preferences = folder.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: preferences, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let renamed = folder.appendingPathComponent("Renamed")
        try FileManager.default.copyItem(at: Probe.executable, to: renamed)
        let environment = Probe.environment(["XDG_CONFIG_HOME": preferences.path])

        let first = try await Probe.run(["standard-named", "com.example.pinned"], environment: environment)
        let second = try await Probe.run(
            ["standard-named", "com.example.pinned"], environment: environment, executable: renamed)
        #expect(first.output.contains("launches 1"), "\(first.output)\(first.errors)")
        #expect(second.output.contains("launches 2"), "\(second.output)\(second.errors)")
        #expect(first.output.contains("second name refused"), "\(first.output)")
        let files = try FileManager.default.contentsOfDirectory(atPath: preferences.path).filter {
            $0.hasSuffix(".plist")
        }
        #expect(files == ["com.example.pinned.plist"])
    }

    @Test(.enabled(if: Bundle.main.bundleIdentifier == nil, "a program with a bundle identifier keeps its domain"))
    func namingTheStandardSuiteOnceItIsInUseThrows() throws {
        _ = DefaultsStore.standard
        let inUse = PreferencesFolder.standardSuiteName
        #expect(throws: DefaultsError.self) { try DefaultsStore.nameStandardSuite(inUse + ".other") }
        try DefaultsStore.nameStandardSuite(inUse)
    }

    @Test func aNameThatIsNoFileNameIsRefused() {
        for name in ["", "../settings", "a/b"] {
            #expect(throws: DefaultsError.self) { try DefaultsStore.nameStandardSuite(name) }
        }
    }
}
