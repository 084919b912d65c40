import Foundation
import Testing
import TypedDefaults

/// `typed-defaults watch` keeps printing other processes' writes after its preferences folder,
/// or the folder's parent, is removed and made again (issue 28). The watcher runs in a folder of
/// this test's own, so removing it disturbs no other test.
@Suite struct WatchRecreatedFolderTests {
    @Test func watchHearsWritesAfterItsFolderAndItsParentAreMadeAgain() async throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("watch-remade-\(UUID())")
        let folder = parent.appendingPathComponent("prefs", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: parent) }
        let suite = "tool-tests.remade.\(UUID().uuidString.prefix(8))"
        #expect(try await Tool.run(["write", suite, "existing", "1"], folder: folder).status == 0)
        let watcher = try Tool.Running(["watch", suite], folder: folder)
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
        let watcher = try Tool.Running(["watch", suite], folder: folder, launcher: launcher)
        defer { watcher.stop() }
        #expect(await watcher.waitFor("Watching \(suite)", partly: true), "\(watcher.text)")

        try FileManager.default.removeItem(at: folder)
        try makeFolder(mode: 0o300)  // writable and searchable, not readable: no watch
        let write = try await Tool.run(["write", suite, "theme", "dark"], folder: folder, launcher: launcher)
        #expect(write.status == 0, "\(write.errors)")
        #expect(await watcher.waitFor("theme: dark"), "not heard in a folder it cannot watch: \(watcher.text)")
    }
}
