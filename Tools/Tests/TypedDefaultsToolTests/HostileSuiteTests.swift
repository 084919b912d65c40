import Foundation
import Testing
import TypedDefaults

/// Suites the tool must not make worse: files that do not parse, files it cannot read.
@Suite struct HostileSuiteTests {
    @Test func aCorruptSuiteIsReportedAndNeverOverwritten() async throws {
        let (suite, _) = try Tool.suite()
        let garbage = Data("<?xml version=\"1.0\"?><plist><dict><key>half".utf8)
        try Tool.writeAtRest(garbage, to: Tool.file(of: suite))
        let commands: [[String]] = [
            ["read", suite], ["read", suite, "k"], ["write", suite, "k", "v"], ["write", suite, "k", "--int", "1"],
            ["delete", suite], ["delete", suite, "k"], ["rename", suite, "a", "b"], ["reset", suite, "k"],
            ["export", suite], ["import", suite, "-"], ["list-recursively", suite],
        ]
        for arguments in commands {
            let result = try await Tool.run(arguments, input: Data(#"{"k": 1}"#.utf8))
            #expect(result.status == 1, "\(arguments)")
            #expect(result.errors.contains("does not parse"), "\(arguments): \(result.errors)")
            #expect(result.errors.contains("left as it is"), "\(arguments): \(result.errors)")
        }
        #expect(try Data(contentsOf: Tool.file(of: suite)) == garbage)
        let asides = try FileManager.default.contentsOfDirectory(atPath: Tool.folder.path).filter {
            $0.hasPrefix("\(suite).plist.corrupt")
        }
        #expect(asides.isEmpty)
    }

    /// A write that would take a suite past the most Apple platforms keep is refused, saying why,
    /// and the file is left as it was: the tool writes through a store, as a program does.
    @Test func aWritePastTheSizeLimitIsRefusedSayingWhy() async throws {
        let (suite, _) = try Tool.suite()
        let file = Tool.file(of: suite)
        let nearlyFull: [String: Any] = ["archive": Data(count: 4_193_000)]
        try PropertyListSerialization.data(fromPropertyList: nearlyFull, format: .binary, options: 0).write(to: file)
        let before = try Data(contentsOf: file)
        let refused = try await Tool.run("write", suite, "note", String(repeating: "n", count: 2000))
        #expect(refused.status == 1)
        #expect(refused.errors.contains("past its limit of 4194303"), "\(refused.errors)")
        #expect(refused.errors.contains("nothing was written"), "\(refused.errors)")
        #expect(try Data(contentsOf: file) == before)
        // A write that makes it smaller is made.
        #expect(try await Tool.run("delete", suite, "archive").status == 0)
        #expect(try await Tool.run("write", suite, "note", "short").status == 0)
    }

    @Test func anUnreadableSuiteIsAnIOErrorNotCorruptData() async throws {
        let (suite, _) = try Tool.suite()
        #expect(try await Tool.run("write", suite, "k", "1").status == 0)
        let file = Tool.file(of: suite)
        let before = try Data(contentsOf: file)
        chmod(file.path, 0)
        defer { chmod(file.path, 0o600) }
        // Root reads every file: as root, the tool runs as nobody.
        let launcher = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        for arguments in [["read", suite], ["export", suite]] {
            let result = try await Tool.run(arguments, launcher: launcher)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.errors.contains("cannot read \(file.path)"), "\(arguments): \(result.errors)")
            #expect(!result.errors.contains("does not parse"))
        }
        // As another user, a write cannot take the suite's lock (as the owner, it cannot read).
        let write = try await Tool.run(["write", suite, "k", "2"], launcher: launcher)
        #expect(write.status == 1)
        #expect(write.errors.contains("cannot"), "\(write.errors)")
        #expect(write.errors.contains("nothing was written"), "\(write.errors)")
        #expect(!write.errors.contains("does not parse"))
        #expect(try Data(contentsOf: file) == before)
        var status = stat()
        #expect(stat(file.path, &status) == 0 && status.st_mode & 0o777 == 0)
    }

    @Test func aStoppedLockHolderDelaysNoReadAndAWriteForFiveSecondsAtMost() async throws {
        let (suite, _) = try Tool.suite()
        #expect(try await Tool.run("write", suite, "k", "--int", "1").status == 0)
        // Another process takes the suite's lock and stops itself (as Ctrl-Z would) holding it.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = [
            "python3", "-c",
            "import fcntl, os, signal, sys; f = open(sys.argv[1], 'a'); fcntl.flock(f, fcntl.LOCK_EX); "
                + "os.kill(os.getpid(), signal.SIGSTOP)",
            Tool.file(of: suite).path + ".lock",
        ]
        try holder.run()
        defer {
            kill(holder.processIdentifier, SIGKILL)
            holder.waitUntilExit()
        }
        let stat = "/proc/\(holder.processIdentifier)/stat"
        #expect(
            await WatchTests.eventually {
                (try? String(contentsOfFile: stat, encoding: .utf8))?.contains(") T ") == true
            })
        let read = try await Tool.run("read", suite, "k")
        #expect(read.status == 0, "\(read.errors)")
        #expect(read.output == "1\n")
        let started = Date()
        let write = try await Tool.run("write", suite, "k", "--int", "2")
        #expect(write.status == 1)
        #expect(write.errors.contains("cannot write"), "\(write.errors)")
        #expect(write.errors.contains("nothing was written"), "\(write.errors)")
        #expect(Date().timeIntervalSince(started) < 30)
        kill(holder.processIdentifier, SIGKILL)
        #expect(try await Tool.run("read", suite, "k").output == "1\n")
    }

    @Test func anImportKilledAtAnyMomentLeavesTheOldSuiteOrTheNewOne() async throws {
        let (suite, store) = try Tool.suite()
        let old = Dictionary(
            uniqueKeysWithValues: (0..<2000).map {
                (DefaultsStoredKey("old\($0)"), DefaultsStoredValue.integer(Int64($0)))
            })
        let new = Dictionary(
            uniqueKeysWithValues: (0..<2000).map {
                (DefaultsStoredKey("new\($0)"), DefaultsStoredValue.string("\($0)"))
            })
        let file = Tool.folder.appendingPathComponent("\(suite).import.json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(DefaultsStoredValue.dictionary(new).json().utf8).write(to: file)
        for delay in [0, 20, 40, 60, 80, 100, 150, 200] {
            try store.editStoredValues { $0 = old }
            let tool = Process()
            tool.executableURL = Tool.executable
            tool.arguments = ["import", suite, file.path]
            tool.environment = Tool.environment()
            try tool.run()
            try await Task.sleep(for: .milliseconds(delay))
            kill(tool.processIdentifier, SIGKILL)
            tool.waitUntilExit()
            let contents = try store.storedValues()
            #expect(contents == old || contents == new, "killed after \(delay) ms: \(contents.count) keys")
        }
    }

    @Test func aWriteMergesWithAnotherWritersKeys() async throws {
        let (suite, store) = try Tool.suite()
        @UserDefault("mine", store: store) var mine = 0
        mine = 1
        try store.flush()
        // Many tool processes at once, each writing its own key: none is lost.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<12 {
                group.addTask {
                    let result = try await Tool.run("write", suite, "key\(index)", "--int", "\(index)")
                    #expect(result.status == 0, "\(result.errors)")
                }
            }
            try await group.waitForAll()
        }
        let values = try store.storedValues()
        #expect(values.count == 13)
        #expect(values["mine"] == .integer(1))
        #expect((0..<12).allSatisfy { values[DefaultsStoredKey("key\($0)")] == .integer(Int64($0)) })
    }
}
