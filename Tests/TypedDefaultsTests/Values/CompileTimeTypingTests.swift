import Foundation
import Testing

/// The build folder's module files, beside the test binary (Linux); `nil` where not found.
private let builtModules: URL? = {
    #if os(Linux)
        let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let modules = folder.appendingPathComponent("Modules")
        let module = modules.appendingPathComponent("TypedDefaults.swiftmodule")
        return FileManager.default.fileExists(atPath: module.path) ? modules : nil
    #else
        return nil
    #endif
}()

/// Typed keys make a value of the wrong type a compile error. The snippets here are compiled
/// against the TypedDefaults module just built: the correct one must compile, and every line of
/// the wrong one must fail.
@Suite(.enabled(if: builtModules != nil, "needs the build folder's module files"))
struct CompileTimeTypingTests {
    static let declarations = """
        import TypedDefaults
        extension DefaultsKeys { static let count = DefaultsKey<Int>("count", default: 0) }
        let store = DefaultsStore.inMemory()

        """

    /// Type-checks `body` after the declarations; returns the exit status and the lines (of
    /// `body`, counted from 1) that have errors. Waits without blocking a thread: the compiler
    /// takes seconds, and a blocked thread of the small cooperative pool would stall other
    /// tests' tasks.
    func typecheck(_ body: String) async throws -> (status: Int32, errorLines: Set<Int>) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("snippet.swift")
        try (Self.declarations + body).write(to: file, atomically: true, encoding: .utf8)
        let errorsFile = folder.appendingPathComponent("errors.txt")
        _ = FileManager.default.createFile(atPath: errorsFile.path, contents: nil)
        let errors = try FileHandle(forWritingTo: errorsFile)
        defer { try? errors.close() }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-typecheck", "-swift-version", "6", "-I", builtModules?.path ?? "", file.path]
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        let output = try String(contentsOf: errorsFile, encoding: .utf8)

        let offset = Self.declarations.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        let pattern = "snippet.swift:"
        let lines = output.split(separator: "\n").compactMap { line -> Int? in
            guard line.contains("error:"), let range = line.range(of: pattern) else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber }).map { $0 - offset }
        }
        return (status, Set(lines))
    }

    @Test(.tags(.childProcess), .startsProcesses) func rightTypesCompile() async throws {
        let result = try await typecheck(
            """
            store[.count] = 7
            let number: Int = store[.count]
            store.update(.count) { $0 += 1 }
            func property() { @UserDefault(.count, store: store) var count; count += 1 }
            """)
        #expect(result.status == 0, "errors on lines \(result.errorLines.sorted())")
    }

    @Test(.tags(.childProcess), .startsProcesses) func wrongTypesDoNotCompile() async throws {
        let wrong = [
            #"store[.count] = "seven""#,
            #"let name: String = store[.count]"#,
            #"_ = DefaultsKey<Int>("zero", default: "zero")"#,
            #"func property() { @UserDefault(.count, store: store) var count; count = 1.5 }"#,
            #"store.update(.count) { $0.append("x") }"#,
            #"let optional: Int? = nil; store[.count] = optional"#,
        ]
        let result = try await typecheck(wrong.joined(separator: "\n"))
        #expect(result.status != 0)
        for (index, line) in wrong.enumerated() {
            #expect(result.errorLines.contains(index + 1), "compiled: \(line)")
        }
    }
}
