import Foundation
import Testing
import TypedDefaults

/// `typed-defaults watch` keeps printing other processes' writes after its preferences folder,
/// or the folder's parent, is removed and made again. The watcher runs in a folder of
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

    /// The preferences folder is a symlink (`prefs` → `first`), pointed at another folder as
    /// `ln -sfn second prefs.tmp && mv -T prefs.tmp prefs` does; then the folder holding the link
    /// is moved away and made again: the watcher hears writes at the path each time.
    @Test func watchHearsWritesAfterItsSymlinkedFolderIsPointedElsewhereAndItsParentMovedAway() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("watch-linked-\(UUID())")
        let moved = root.deletingLastPathComponent().appendingPathComponent(root.lastPathComponent + ".old")
        let link = root.appendingPathComponent("prefs", isDirectory: true)
        defer {
            try? FileManager.default.removeItem(at: root)
            try? FileManager.default.removeItem(at: moved)
        }
        func makeFolders() throws {
            for name in ["first", "second"] {
                try FileManager.default.createDirectory(
                    at: root.appendingPathComponent(name), withIntermediateDirectories: true)
            }
        }
        /// Points `prefs` at `target` by renaming a new link over it.
        func point(at target: String) throws {
            let temporary = root.appendingPathComponent("prefs.tmp")
            try FileManager.default.createSymbolicLink(atPath: temporary.path, withDestinationPath: target)
            #expect(rename(temporary.path, link.path) == 0, "rename: \(String(cString: strerror(errno)))")
        }
        try makeFolders()
        try point(at: "first")
        let suite = "tool-tests.linked.\(UUID().uuidString.prefix(8))"
        #expect(try await Tool.run(["write", suite, "existing", "1"], folder: link).status == 0)
        let watcher = try Tool.Running(["watch", suite], folder: link)
        defer { watcher.stop() }
        #expect(await watcher.waitFor("Watching \(suite)", partly: true), "\(watcher.text)")

        try point(at: "second")
        #expect(try await Tool.run(["write", suite, "theme", "dark"], folder: link).status == 0)
        #expect(await watcher.waitFor("theme: dark"), "not heard after the link was pointed elsewhere: \(watcher.text)")

        try FileManager.default.moveItem(at: root, to: moved)
        try makeFolders()
        try point(at: "first")
        #expect(try await Tool.run(["write", suite, "theme", "light"], folder: link).status == 0)
        #expect(await watcher.waitFor("theme: light"), "not heard after the link's folder moved away: \(watcher.text)")
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
