import Foundation
import Testing

@testable import TypedDefaults
@testable import TypedDefaultsStorage

/// The file watcher hears the preferences folder at its path whatever changes above it: an ancestor
/// moved away and made again, a symlinked ancestor pointed elsewhere, a symlink's target made,
/// while the folder is armed or awaited. inotify tells nothing of those (a watch follows its
/// inode); the watcher finds them by comparing, once a second, the folder at the path with the one
/// watched. Each test has folders of its own under a root removed when it ends.
@Suite(.enabled(if: isLinux), .plistFilesOnly("the plist file's watcher")) struct WatchedPathTests {
    /// A new folder under the temporary folder; removed (with whatever was moved beside it) by
    /// `remove`.
    final class Root {
        let url: URL
        let moved: URL

        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("watched-path-\(UUID().uuidString)")
            moved = url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".old")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        deinit {
            try? FileManager.default.removeItem(at: url)
            try? FileManager.default.removeItem(at: moved)
        }

        func folder(_ path: String) -> URL { url.appendingPathComponent(path, isDirectory: true) }

        func make(_ path: String) throws {
            try FileManager.default.createDirectory(at: folder(path), withIntermediateDirectories: true)
        }

        /// Points the symlink `link` at `target` as `ln -sfn target link.tmp && mv -T link.tmp link`
        /// does: one rename, so the path never lacks a link.
        func point(_ link: String, at target: String) throws {
            let temporary = folder(link + ".tmp")
            try FileManager.default.createSymbolicLink(atPath: temporary.path, withDestinationPath: target)
            #expect(rename(temporary.path, folder(link).path) == 0, "rename: \(String(cString: strerror(errno)))")
        }
    }

    /// A store in this process on a suite in `folder`, wired to the watcher as
    /// `DefaultsStore(_:)` wires one in the preferences folder.
    static func store(_ suite: String, in folder: URL) -> DefaultsStore {
        let file = folder.appendingPathComponent("\(suite).plist")
        let state = SuiteRegistry.unlistedState(
            backend: PlistFileBackend(file: PlistFile(url: file), suiteName: suite), label: suite, fileURL: file)
        return DefaultsStore(state: state, durability: .immediate)
    }

    /// A child process writes `key` = 0 to `suite` in `folder` (named by its path, links and
    /// all), and exits.
    static func childWrites(_ key: String, to suite: String, in folder: URL) async throws {
        let run = try await Probe.run(
            ["burst", suite, "1", String(key.dropLast(2))],
            environment: Probe.environment(["XDG_CONFIG_HOME": folder.path]))
        #expect(run.status == 0, "\(run.errors)")
    }

    /// `root/link/prefs` with `link` a symlink to `first`, then to `second`, then back to
    /// `first`: every write at the path is heard (the watch on the old target is let go, and one
    /// on the folder the link names now is added, the second time on a folder watched before).
    @Test(.tags(.childProcess), .startsProcesses) func aSymlinkedAncestorPointedElsewhereAndBackIsHeard() async throws {
        let root = try Root()
        try root.make("first/prefs")
        try root.make("second/prefs")
        try FileManager.default.createSymbolicLink(atPath: root.folder("link").path, withDestinationPath: "first")
        let folder = root.folder("link/prefs")
        let suite = RecreatedFolderTests.suiteName()
        let store = Self.store(suite, in: folder)
        for (round, target) in ["second", "first"].enumerated() {
            let heard = try await RecreatedFolderTests.hears("round\(round).0", in: store) {
                try root.point("link", at: target)
                try await Self.childWrites("round\(round).0", to: suite, in: folder)
            }
            #expect(heard, "round \(round): the write after the link was pointed at \(target) was not heard")
        }
    }

    /// `root/a/b/prefs` loses `b` (the watcher then waits on `a` for `b` to come back); `root`
    /// is moved away and `root/a/b/prefs` made again: inotify says nothing to the watch on `a`
    /// (its parent moved), which follows `a` to `root.old/a`; the folder at the path is heard.
    @Test(.tags(.childProcess), .startsProcesses) func aFolderAwaitedBelowAnAncestorMovedAwayIsHeard() async throws {
        let root = try Root()
        try root.make("a/b/prefs")
        let folder = root.folder("a/b/prefs")
        let suite = RecreatedFolderTests.suiteName()
        let store = Self.store(suite, in: folder)
        let heard = try await RecreatedFolderTests.hears("awaited.0", in: store) {
            try FileManager.default.removeItem(at: root.folder("a/b"))
            // The watcher hears the removal within milliseconds and waits on `a`; were `root`
            // moved first, it would wait on the temporary folder, which hears `root` made again.
            try await Task.sleep(for: .milliseconds(500))
            try FileManager.default.moveItem(at: root.url, to: root.moved)
            try root.make("a/b/prefs")
            try await Self.childWrites("awaited.0", to: suite, in: folder)
        }
        #expect(heard, "the write after the folder's awaited ancestor was moved away and made again was not heard")
    }

    /// `root/prefs` is a symlink to `target`, which is not there yet: the watcher waits on `root`
    /// for `prefs`, and making `target` tells it nothing (the event names `target`); once the
    /// folder is there, a write in it is heard.
    @Test(.tags(.childProcess), .startsProcesses) func aSymlinkedFolderWhoseTargetIsMadeLaterIsHeard() async throws {
        let root = try Root()
        try FileManager.default.createSymbolicLink(atPath: root.folder("prefs").path, withDestinationPath: "target")
        let folder = root.folder("prefs")
        let suite = RecreatedFolderTests.suiteName()
        let store = Self.store(suite, in: folder)
        let heard = try await RecreatedFolderTests.hears("later.0", in: store) {
            try root.make("target")
            try await Self.childWrites("later.0", to: suite, in: folder)
        }
        #expect(heard, "the write in the link's target, made after the watch began, was not heard")
    }

    /// `root/a/prefs` while `root` is moved away and made again twice: the grandparent's move is
    /// heard each time, and so is the write at the path.
    @Test(.tags(.childProcess), .startsProcesses) func aGrandparentMovedAwayAndReplacedTwiceIsHeard() async throws {
        let root = try Root()
        try root.make("a/prefs")
        let folder = root.folder("a/prefs")
        let suite = RecreatedFolderTests.suiteName()
        let store = Self.store(suite, in: folder)
        for round in 1...2 {
            let heard = try await RecreatedFolderTests.hears("round\(round).0", in: store) {
                try? FileManager.default.removeItem(at: root.moved)
                try FileManager.default.moveItem(at: root.url, to: root.moved)
                try root.make("a/prefs")
                try await Self.childWrites("round\(round).0", to: suite, in: folder)
            }
            #expect(heard, "round \(round): the write after the grandparent was moved away was not heard")
        }
    }
}
