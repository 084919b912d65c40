import Foundation
import Testing

@testable import TypedDefaults

/// A suite file that is a symlink (dotfiles kept in a repository) hears other processes' writes:
/// every writer replaces the link's target, under the target's own name, so the watcher looks
/// for that name in the target's folder as well as for the suite's.
@Suite(.enabled(if: isLinux), .plistFilesOnly("a suite file that is a symlink"), .serialized)
struct LinkedSuiteTests {
    /// Another suite's file in the same folder: a write through that suite reaches the linked one.
    @Test(.hangGuard) func aLinkToAFileInTheSameFolderHearsWritesThroughTheFilesName() async throws {
        let (plain, linked) = (try TestSuite(), try TestSuite())
        try FileManager.default.createSymbolicLink(at: linked.plistURL, withDestinationURL: plain.plistURL)
        defer { try? FileManager.default.removeItem(at: linked.plistURL) }
        let value = DefaultsKey<String>("value", default: "default")
        let (plainStore, linkedStore) = (plain.store.durability(.immediate), linked.store.durability(.immediate))
        linkedStore[value] = "A"
        #expect(plainStore[value] == "A")
        plainStore[value] = "B"
        try plainStore.flush()
        #expect(
            await eventually { linkedStore[value] == "B" },
            "the linked suite still reads \(linkedStore[value]); the file holds B")
    }

    /// A target in a folder of its own: another process writing through the link replaces the
    /// target there, and the linked suite of this process takes it in.
    @Test(.tags(.childProcess), .startsProcesses, .hangGuard)
    func aLinkToAFileInAnotherFolderHearsAnotherProcessesWrites() async throws {
        let suite = try TestSuite()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("linked-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("settings.plist")
        try? FileManager.default.removeItem(at: suite.plistURL)
        try FileManager.default.createSymbolicLink(at: suite.plistURL, withDestinationURL: target)
        defer { try? FileManager.default.removeItem(at: suite.plistURL) }
        let value = DefaultsKey<String>("value", default: "default")
        let store = suite.store.durability(.immediate)
        store[value] = "A"
        #expect(try Data(contentsOf: target).isEmpty == false, "the write did not reach the link's target")
        let result = try await Probe.run(["immediate", suite.name, "B"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(
            await eventually { store[value] == "B" },
            "the linked suite still reads \(store[value]) after another process wrote B")
    }
}
