import Foundation
import Testing

@testable import TypedDefaults
@testable import TypedDefaultsStorage

/// What a process remembers of a suite file it last read or wrote: the file watcher skips a file
/// that is still this process's own last write, and a commit skips parsing a file whose bytes it
/// parsed or wrote. The record never outlives what the file holds: once the file is removed, the
/// same bytes coming back are another program's write, and are read; bytes another program put
/// back are not this process's synced write.
@Suite(.enabled(if: isLinux), .plistFilesOnly("the plist file's remembered bytes"), .serialized)
struct RememberedFileTests {
    /// This process writes value=A. Another program removes the file; the watcher takes that in
    /// (the store reads the default). Another process then writes value=A: the file holds the
    /// very bytes this process wrote before, and the store must read A again and tell its
    /// observer.
    @Test(.tags(.childProcess), .startsProcesses, .hangGuard)
    func theSameBytesWrittenByAnotherProcessAfterARemovalAreRead() async throws {
        let suite = try TestSuite()
        let store = suite.store.durability(.immediate)
        let value = DefaultsKey<String>("value", default: "default")
        store[value] = "A"
        try store.flush()
        let written = try Data(contentsOf: suite.plistURL)

        let heard = Collected<String>()
        let observation = store.observe(value) { heard.append($0.newValue) }
        defer { observation.cancel() }

        // Another program removes the suite file: the store takes that in.
        try FileManager.default.removeItem(at: suite.plistURL)
        #expect(await eventually { store[value] == "default" }, "the removal was never taken in")

        // Another process writes A again.
        let result = try await Probe.run(["immediate", suite.name, "A"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(try Data(contentsOf: suite.plistURL) == written, "the other process wrote other bytes")
        #expect(
            await eventually { store[value] == "A" },
            "the store still reads \(store[value]) after another process wrote A; the file holds A")
        #expect(await eventually(seconds: 1) { heard.all == ["default", "A"] }, "the observer heard \(heard.all)")
    }

    /// The same, with the bytes put back by another program (a backup restored with `cp`).
    @Test(.tags(.childProcess), .startsProcesses, .hangGuard)
    func theSameBytesRestoredAfterARemovalAreRead() async throws {
        let suite = try TestSuite()
        let store = suite.store.durability(.immediate)
        let value = DefaultsKey<String>("value", default: "default")
        let other = DefaultsKey<Int>("other", default: 0)
        store[value] = "A"
        store[other] = 7
        try store.flush()
        let backup = suite.plistURL.appendingPathExtension("backup")
        try FileManager.default.copyItem(at: suite.plistURL, to: backup)
        defer { try? FileManager.default.removeItem(at: backup) }

        try FileManager.default.removeItem(at: suite.plistURL)
        #expect(await eventually { store[value] == "default" && store[other] == 0 }, "the removal was never taken in")

        let copy = Process()
        copy.executableURL = URL(fileURLWithPath: "/bin/cp")
        copy.arguments = [backup.path, suite.plistURL.path]
        try copy.run()
        copy.waitUntilExit()
        #expect(copy.terminationStatus == 0)
        #expect(
            await eventually { store[value] == "A" && store[other] == 7 },
            "the store still reads \(store[value]), \(store[other]) after the file was restored to A, 7")
    }

    /// This process writes k=v (synced). Another program writes the same bytes again without a
    /// sync (a new file renamed into place, as a backup restore or an unsynced writer does). An
    /// edit that finds k=v already there must still sync the file before it returns
    /// (PlistFileBackend's "another program may have written it without a sync"): the file's
    /// bytes being this process's last write says nothing about whether they are on the device.
    @Test func theSameBytesWrittenAgainWithoutASyncAreSynced() throws {
        let suite = try TestSuite()
        try suite.store.editStoredValues { $0["k"] = .string("v") }
        let written = try Data(contentsOf: suite.plistURL)
        let temporary = suite.plistURL.deletingLastPathComponent().appendingPathComponent("other-\(UUID().uuidString)")
        try written.write(to: temporary)
        #expect(rename(temporary.path, suite.plistURL.path) == 0)

        let failing = DurableFile.InjectedFailure(path: suite.plistURL.standardizedFileURL.path, step: .newContents)
        DurableFile.injectedFailures.withLock { $0[failing] = EIO }
        defer { DurableFile.injectedFailures.withLock { $0[failing] = nil } }
        // The sync in place meets the injected EIO, if it is attempted at all.
        #expect(throws: DefaultsError.self, "the edit returned without syncing the unsynced file") {
            try suite.store.editStoredValues { $0["k"] = .string("v") }
        }
    }

    /// Lost updates: two other processes increment a shared counter while this one increments
    /// it too and reads the suite whole without the lock (`storedValues()` and `refresh()`, which
    /// remember what they read) on another thread, over and over.
    @Test(.tags(.childProcess), .startsProcesses, .hangGuard)
    func incrementsWhileReadsWithoutTheLockRememberLoseNothing() async throws {
        let suite = try TestSuite()
        let store = suite.store.durability(.immediate)
        let counter = UserDefault(wrappedValue: 0, "counter", store: store)
        let done = Counter()
        let reader = Thread {
            while done.value == 0 {
                _ = try? store.storedValues()
                store.refresh()
            }
        }
        reader.start()
        let first = try Probe.start("increment", suite.name, "300")
        let second = try Probe.start("increment", suite.name, "300")
        for _ in 0..<300 { counter.update { $0 += 1 } }
        first.process.waitUntilExit()
        second.process.waitUntilExit()
        done.increment()
        #expect(first.process.terminationStatus == 0 && second.process.terminationStatus == 0)
        let stored =
            try PropertyListSerialization.propertyList(from: Data(contentsOf: suite.plistURL), format: nil)
            as? [String: Any]
        #expect(stored?["counter"] as? Int == 900)
        #expect(await eventually { counter.wrappedValue == 900 }, "the store reads \(counter.wrappedValue)")
    }
}
