import Foundation
import Testing

@testable import TypedDefaults
@testable import TypedDefaultsStorage

/// The suite file as other programs, other users and a hostile system leave it: a file that
/// cannot be read, other writers' formats and values, links, stale and planted files.
@Suite(.plistFilesOnly("other programs' writes to the plist file, and its bytes")) struct HostileFileTests {
    /// The suite's file, parsed; fails the test if it does not parse.
    func contents(of url: URL) throws -> [String: Any] {
        let data = try #require(FileManager.default.contents(atPath: url.path))
        let root = try PropertyListSerialization.propertyList(from: data, format: nil)
        let entries = try #require(root as? [String: Any])
        return Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.value) })
    }

    func write(_ contents: [String: Any], to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try PropertyListSerialization.data(fromPropertyList: contents, format: .binary, options: 0).write(to: url)
    }

    /// Files beside the suite's whose names start with its own (corrupt copies, temporaries).
    func siblings(of url: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
            .filter { $0.contains(url.lastPathComponent) && $0 != url.lastPathComponent }
            .filter { !$0.hasSuffix(".lock") }
    }

    // MARK: A file that cannot be read is not corrupt

    @Test func aFolderInPlaceOfTheFileIsLeftAloneAndNeverWrittenOver() throws {
        let suite = try TestSuite()
        let store = suite.store.durability(.coalesced(within: .seconds(3600)))
        try FileManager.default.createDirectory(at: suite.plistURL, withIntermediateDirectories: true)
        let value = UserDefault(wrappedValue: "default", "value", store: store)

        let (read, reported) = ReportedErrors.during { value.wrappedValue }
        #expect(read == "default")
        guard case .readFailed(let path, _)? = reported.first else {
            Issue.record("expected .readFailed, got \(reported)")
            return
        }
        #expect(path == suite.plistURL.path)
        UserDefault(wrappedValue: "", "after", store: store).wrappedValue = "written"
        #expect(throws: DefaultsError.self) { try store.flush() }
        var isFolder: ObjCBool = false
        #expect(
            FileManager.default.fileExists(atPath: suite.plistURL.path, isDirectory: &isFolder) && isFolder.boolValue)
        #expect(try siblings(of: suite.plistURL).isEmpty, "nothing moved aside")

        // Once the file can be read, reads see it and the kept change is merged into it.
        try FileManager.default.removeItem(at: suite.plistURL)
        try write(["value": "stored", "other": "kept"], to: suite.plistURL)
        #expect(value.wrappedValue == "stored")
        try store.flush()
        let stored = try contents(of: suite.plistURL)
        #expect(stored["value"] as? String == "stored")
        #expect(stored["other"] as? String == "kept")
        #expect(stored["after"] as? String == "written")
    }

    /// A file another user owns (a tool once run under `sudo`), which this process may not read:
    /// run as `nobody` when the tests run as root, else with the file's mode 000.
    @Test(.tags(.childProcess), .startsProcesses, .enabled(if: isLinux)) func anotherUsersFileIsLeftExactlyAsItIs()
        async throws
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("others-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        chmod(folder.path, 0o777)
        let name = "typeddefaults-tests.othersFile"
        let file = folder.appendingPathComponent("\(name).plist")
        try write(["value": "stored"], to: file)
        chmod(file.path, 0o000)
        let before = try Data(contentsOf: file)

        let launcher = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        let run = try await Probe.run(
            ["touch", name], environment: Probe.environment(["XDG_CONFIG_HOME": folder.path, "HOME": folder.path]),
            launcher: launcher)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output == "value default\n")
        #expect(run.errors.contains("cannot read \(file.path)"), "\(run.errors)")
        #expect(!run.errors.contains("does not parse"))
        #expect(try Data(contentsOf: file) == before)
        var status = stat()
        #expect(stat(file.path, &status) == 0 && status.st_mode & 0o777 == 0 && status.st_uid == getuid())
        #expect(try siblings(of: file).isEmpty, "nothing moved aside or left behind")
    }

    @Test(.tags(.childProcess), .startsProcesses, .enabled(if: isLinux))
    func runningOutOfFileDescriptorsIsNoCorruptFile() async throws {
        let suite = try TestSuite()
        try write(["value": "stored"], to: suite.plistURL)
        let run = try await Probe.run("withoutFileDescriptors", suite.name)
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output.split(separator: "\n") == [
                "exhausted true", "read default", "flush failed", "read stored", "flushed",
            ])
        #expect(!run.errors.contains("does not parse"), "\(run.errors)")
        let stored = try contents(of: suite.plistURL)
        #expect(stored["value"] as? String == "stored")
        #expect(stored["after"] as? String == "written")
        #expect(try siblings(of: suite.plistURL).isEmpty)
    }

    // MARK: Other writers

    /// A plain `UserDefaults` process truncates the file, then writes it; a commit that read the
    /// empty file in between would drop every key of it. The plain writer goes on for 4 s and
    /// until this test has committed twice: under ThreadSanitizer a first commit of the 20,000
    /// keys once took longer than a fixed 4 s of rewrites, and met none.
    @Test(.tags(.childProcess), .startsProcesses, .enabled(if: isLinux))
    func aPlainWriterRewritingInPlaceLosesNoKeyToOurCommits() throws {
        let suite = try TestSuite()
        let count = 20_000
        let stop = suite.plistURL.appendingPathExtension("stop")
        defer { try? FileManager.default.removeItem(at: stop) }
        let plain = try Probe.start("plainRewriter", suite.name, "\(count)", stop.path)
        #expect(plain.waitForLine { $0 == "ready" } != nil)
        let store = suite.store.durability(.immediate)
        // Commit whenever the file changes, and at once when it is caught empty.
        var last = PlistFileBackend.File(url: suite.plistURL).identity()
        var commits = 0
        let start = Date()
        while plain.process.isRunning {
            let now = PlistFileBackend.File(url: suite.plistURL).identity()
            if now != last || now?.size == 0 {
                UserDefault(wrappedValue: 0, "ours", store: store).wrappedValue = commits
                commits += 1
                last = PlistFileBackend.File(url: suite.plistURL).identity()
            }
            if commits >= 2, Date().timeIntervalSince(start) >= 4 {
                _ = FileManager.default.createFile(atPath: stop.path, contents: nil)
            }
        }
        #expect(plain.process.terminationStatus == 0)
        let stored = try contents(of: suite.plistURL)
        let missing = (0..<count).filter { (stored["plain.\($0)"] as? Int) != $0 }
        #expect(missing.count == 0, "\(missing.count) of \(count) plain keys lost over \(commits) commits")
        #expect(commits >= 2, "our commits must meet the plain rewrites")
    }

    /// A plain writer that truncated the file, or wrote part of it, and then stalled for longer
    /// than the store waits (a loaded machine) still loses no key: a file that is empty or does
    /// not parse and changed less than 10 s ago is neither taken for an empty suite nor moved
    /// aside, so the commit fails, is reported, and goes in once the writer has finished.
    @Test(arguments: [false, true]) func aWriterStalledHalfwayLosesNoKey(afterWritingHalf: Bool) throws {
        let suite = try TestSuite()
        try write(["theirs": 1, "padding": String(repeating: "x", count: 4096)], to: suite.plistURL)
        let whole = try Data(contentsOf: suite.plistURL)
        let store = suite.store.durability(.immediate)
        let ours = UserDefault(wrappedValue: 0, "ours", store: store)
        #expect(UserDefault(wrappedValue: 0, "theirs", store: store).wrappedValue == 1)
        // The writer truncates the file and writes nothing, or the first half, then stalls.
        let writer = try FileHandle(forWritingTo: suite.plistURL)
        defer { try? writer.close() }
        let half = afterWritingHalf ? whole.count / 2 : 0
        try writer.truncate(atOffset: 0)
        try writer.write(contentsOf: whole.prefix(half))
        let (_, reported) = ReportedErrors.during { ours.wrappedValue = 1 }
        #expect(reported.contains { $0.description.contains("another program is writing it") }, "\(reported)")
        #expect(try siblings(of: suite.plistURL).isEmpty, "nothing moved aside")
        // The writer finishes, in the same file.
        try writer.write(contentsOf: whole.dropFirst(half))
        try writer.close()
        try store.flush()
        let stored = try contents(of: suite.plistURL)
        #expect(stored["theirs"] as? Int == 1)
        #expect(stored["ours"] as? Int == 1)
    }

    /// A commit keeps every key it did not change exactly as it was: a binary file's date keeps
    /// its fraction, strings their control characters and line ends.
    @Test func otherWritersValuesSurviveOurCommitExactly() throws {
        let suite = try TestSuite()
        let original: [String: Any] = [
            "date": Date(timeIntervalSinceReferenceDate: 1_234_567_890.125), "text": "a\u{1}b\r\nc\u{0}d",
            "huge": UInt64.max, "real": 0.1, "old": Date(timeIntervalSinceReferenceDate: -63_113_904_000.5),
        ]
        try write(original, to: suite.plistURL)
        UserDefault(wrappedValue: 0, "unrelated", store: suite.store).wrappedValue = 1
        try suite.store.flush()
        let stored = try contents(of: suite.plistURL)
        for (key, value) in original {
            #expect(StoredObject.same(value, stored[key] as Any), "\(key): \(String(describing: stored[key]))")
        }
        #expect(stored["unrelated"] as? Int == 1)
    }

    /// Whichever comes first: the refresh, or the file watcher taking in the plain write.
    @Test(arguments: [false, true]) func aRefreshLetsAPlainWriteWinOverAnOlderPendingOne(watcherFirst: Bool) throws {
        let suite = try TestSuite()
        let store = suite.store.durability(.coalesced(within: .seconds(3600)))
        let name = UserDefault(wrappedValue: "", "name", store: store)
        let other = UserDefault(wrappedValue: "", "other", store: store)
        name.wrappedValue = "engine"
        other.wrappedValue = "engine too"
        suite.defaults.set("plain", forKey: "name")
        suite.defaults.synchronize()
        if watcherFirst { usleep(300_000) }  // the watcher reacts within 10 ms of the write
        store.refresh()
        #expect(name.wrappedValue == "plain", "the backend's later write wins")
        #expect(other.wrappedValue == "engine too", "a key the backend did not change keeps the pending write")
        try store.flush()
        let stored = try contents(of: suite.plistURL)
        #expect(stored["name"] as? String == "plain")
        #expect(stored["other"] as? String == "engine too")
    }

    // MARK: Links and temporary files

    @Test func aLinkPlantedAtATemporaryNameRedirectsNothing() throws {
        let suite = try TestSuite()
        let folder = suite.plistURL.deletingLastPathComponent()
        let victim = folder.appendingPathComponent("victim-\(UUID().uuidString)")
        try Data("precious".utf8).write(to: victim)
        defer { try? FileManager.default.removeItem(at: victim) }
        chmod(victim.path, 0o644)
        // The names temporary files once had, and one left by a killed writer.
        let planted = [
            ".\(suite.plistURL.lastPathComponent).\(getpid()).tmp", ".\(suite.plistURL.lastPathComponent).1.tmp",
        ]
        for name in planted {
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent(name), withDestinationURL: victim)
        }
        let stale = folder.appendingPathComponent(".\(suite.plistURL.lastPathComponent).99999.5f3a.tmp")
        try Data("stale keys".utf8).write(to: stale)

        // A suite whose name starts with this one's keeps its temporary file.
        let neighbour = folder.appendingPathComponent(".\(suite.plistURL.lastPathComponent).x.plist.12.ab.tmp")
        try Data("another suite's".utf8).write(to: neighbour)
        defer { try? FileManager.default.removeItem(at: neighbour) }

        UserDefault(wrappedValue: "", "key", store: suite.store).wrappedValue = "value"
        try suite.store.flush()
        #expect(FileManager.default.fileExists(atPath: neighbour.path))
        try FileManager.default.removeItem(at: neighbour)
        #expect(try Data(contentsOf: victim) == Data("precious".utf8))
        var status = stat()
        #expect(stat(victim.path, &status) == 0 && status.st_mode & 0o777 == 0o644)
        #expect(lstat(suite.plistURL.path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(try contents(of: suite.plistURL)["key"] as? String == "value")
        #expect(try siblings(of: suite.plistURL).isEmpty, "stale and planted temporaries are removed")
    }

    /// Dotfiles kept in a repository: the suite file is a link, and stays one.
    @Test func aSuiteFileThatIsALinkStaysOne() throws {
        let suite = try TestSuite()
        let repository = FileManager.default.temporaryDirectory.appendingPathComponent("dotfiles-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: repository) }
        let target = repository.appendingPathComponent("app.plist")
        try write(["kept": "yes"], to: target)
        chmod(target.path, 0o644)
        try FileManager.default.createDirectory(
            at: suite.plistURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: suite.plistURL, withDestinationURL: target)

        UserDefault(wrappedValue: "", "new", store: suite.store).wrappedValue = "value"
        try suite.store.flush()
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: suite.plistURL.path) == target.path)
        let stored = try contents(of: target)
        #expect(stored["kept"] as? String == "yes")
        #expect(stored["new"] as? String == "value")
        var status = stat()
        #expect(stat(target.path, &status) == 0 && status.st_mode & 0o777 == 0o644, "the owner's mode is kept")
        // The lock is beside the file that is replaced, which every link to it shares; no
        // temporary file is left.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: repository.path).sorted() == [
                "app.plist", "app.plist.lock",
            ])
    }

    // MARK: Where the file is, and what it may be called

    @Test(.tags(.childProcess), .startsProcesses, .enabled(if: isLinux)) func theSuiteIsWhereCorelibsPutsItUnderHome()
        async throws
    {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let name = "typeddefaults-tests.home"
        let run = try await Probe.run(
            ["homeFolder", name], environment: Probe.environment(["HOME": home.path, "XDG_CONFIG_HOME": nil]))
        #expect(run.status == 0, "\(run.errors)")
        let file = home.appendingPathComponent(".config/\(name).plist")
        #expect(run.output == "file \(file.path)\n")
        let stored = try contents(of: file)
        #expect(stored["typed"] as? Int == 1)
        #expect(stored["plain"] as? Int == 2, "plain UserDefaults wrote to the same file")
    }

    @Test func aNameTooLongForItsFilesIsRefusedUpFront() throws {
        let tooLong = "typeddefaults-tests." + String(repeating: "n", count: 181)
        #expect(tooLong.utf8.count == 201)
        #expect {
            try DefaultsStore(suiteName: tooLong)
        } throws: { error in
            guard case .invalidSuiteName(_, let reason) = error as? DefaultsError else { return false }
            return reason.contains("255")
        }
        // Opened through UserDefaults, it is left to UserDefaults, which can write it.
        let plain = try #require(UserDefaults(suiteName: tooLong))
        #expect(DefaultsStore(plain).fileURL == nil)

        let longest = "typeddefaults-tests." + UUID().uuidString + String(repeating: "n", count: 144)
        #expect(longest.utf8.count == 200)
        let store = try DefaultsStore(suiteName: longest)
        let file = try #require(store.fileURL)
        defer { TestSuite.removeFiles(of: file) }
        UserDefault(wrappedValue: 0, "key", store: store).wrappedValue = 1
        try store.flush()
        #expect(try contents(of: file)["key"] as? Int == 1)
    }
}
