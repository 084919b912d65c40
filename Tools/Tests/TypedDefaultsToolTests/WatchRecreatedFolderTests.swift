import Foundation
import Testing
import TypedDefaults

/// `typed-defaults watch` keeps printing other processes' writes after its preferences folder,
/// or the folder's parent, is removed and made again (issue 28). The watcher runs in a folder of
/// this test's own, so removing it disturbs no other test.
@Suite struct WatchRecreatedFolderTests {
    /// A `typed-defaults watch` with `XDG_CONFIG_HOME` set to `folder`, through `launcher` when
    /// given (a command that runs the rest of its arguments, such as `setpriv`).
    final class Watcher: @unchecked Sendable {  // `received` is only touched under `lock`.
        private let process = Process()
        private let output = Pipe()
        private let errors = Pipe()
        private let lock = NSLock()
        private var received = ""

        init(_ arguments: [String], folder: URL, launcher: [String] = []) throws {
            if let command = launcher.first {
                process.executableURL = URL(fileURLWithPath: command)
                process.arguments = launcher.dropFirst() + [Tool.executable.path] + arguments
            } else {
                process.executableURL = Tool.executable
                process.arguments = arguments
            }
            process.environment = Tool.environment(folder: folder)
            process.standardOutput = output
            process.standardError = errors
            for pipe in [output, errors] {
                pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
                    let data = handle.availableData
                    self?.lock.withLock { self?.received += String(decoding: data, as: UTF8.self) }
                }
            }
            try process.run()
        }

        var text: String { lock.withLock { received } }

        /// Waits up to `seconds` for a line equal to `line`, or containing it with `partly`.
        func waitFor(_ line: String, partly: Bool = false, seconds: Double = 10) async -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while !text.split(separator: "\n").contains(where: { partly ? $0.contains(line) : $0 == line }) {
                if Date() > deadline { return false }
                try? await Task.sleep(for: .milliseconds(5))
            }
            return true
        }

        func stop() {
            process.terminate()
            process.waitUntilExit()
            output.fileHandleForReading.readabilityHandler = nil
            errors.fileHandleForReading.readabilityHandler = nil
        }
    }

    @Test func watchHearsWritesAfterItsFolderAndItsParentAreMadeAgain() async throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("watch-remade-\(UUID())")
        let folder = parent.appendingPathComponent("prefs", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: parent) }
        let suite = "tool-tests.remade.\(UUID().uuidString.prefix(8))"
        #expect(try await Tool.run(["write", suite, "existing", "1"], folder: folder).status == 0)
        let watcher = try Watcher(["watch", suite], folder: folder)
        defer { watcher.stop() }
        #expect(await watcher.waitFor("Watching \(suite)", partly: true), "\(watcher.text)")

        let rounds: [(removed: URL, value: String)] = [(folder, "dark"), (folder, "light"), (parent, "blue")]
        for (removed, value) in rounds {
            try FileManager.default.removeItem(at: removed)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            #expect(try await Tool.run(["write", suite, "theme", value], folder: folder).status == 0)
            #expect(
                await watcher.waitFor("theme: \(value)"),
                "not heard after \(removed.lastPathComponent) was made again: \(watcher.text)")
        }
    }

    /// A folder made again that the watcher may not read takes no watch (EACCES): it polls the
    /// folder each second instead of going deaf. Run as `nobody` when the tests run as root,
    /// whom no folder's mode stops.
    @Test func watchPollsAFolderMadeAgainThatItCannotWatch() async throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("watch-unreadable-\(UUID())")
        let folder = parent.appendingPathComponent("prefs", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: parent) }
        let asRoot = getuid() == 0
        let launcher = asRoot ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        // Made beside it and renamed into place, so the watcher never meets it with another mode.
        func makeFolder(mode: mode_t) throws {
            let staged = parent.appendingPathComponent("staged-\(UUID())")
            try FileManager.default.createDirectory(at: staged, withIntermediateDirectories: true)
            if asRoot { chown(staged.path, 65534, 65534) }
            chmod(staged.path, mode)
            try FileManager.default.moveItem(at: staged, to: folder)
        }
        try makeFolder(mode: 0o700)
        let suite = "tool-tests.unreadable.\(UUID().uuidString.prefix(8))"
        let first = try await Tool.run(["write", suite, "existing", "1"], folder: folder, launcher: launcher)
        #expect(first.status == 0, "\(first.errors)")
        let watcher = try Watcher(["watch", suite], folder: folder, launcher: launcher)
        defer { watcher.stop() }
        #expect(await watcher.waitFor("Watching \(suite)", partly: true), "\(watcher.text)")

        try FileManager.default.removeItem(at: folder)
        try makeFolder(mode: 0o300)  // writable and searchable, not readable: no watch
        let write = try await Tool.run(["write", suite, "theme", "dark"], folder: folder, launcher: launcher)
        #expect(write.status == 0, "\(write.errors)")
        #expect(await watcher.waitFor("theme: dark"), "not heard in a folder it cannot watch: \(watcher.text)")
    }
}
