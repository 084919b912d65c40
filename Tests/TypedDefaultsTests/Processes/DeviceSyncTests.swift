import Foundation
import Testing

@testable import TypedDefaults
@testable import TypedDefaultsStorage

/// A suite file is replaced so that a power cut leaves the old file or the new one,
/// and a write called durable is on the device when it returns. The power cut itself is
/// simulated in the tool's tests (PowerCutTests, on loop devices); these show the order of the
/// calls without one, and what a failed sync does.
@Suite(.plistFilesOnly("how the plist file is replaced and synced")) struct DeviceSyncTests {
    /// Whether `strace` is here; CI installs it, so there the test always runs.
    static let strace: String? = ["/usr/bin/strace", "/bin/strace"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    static let mustRun = ProcessInfo.processInfo.environment["CI"] == "true"

    /// The temporary file is written and synced before it is renamed over the suite, and the
    /// folder is synced after the rename, all before the setter of a `.immediate` store returns.
    @Test(
        .tags(.childProcess), .startsProcesses,
        .enabled(if: isLinux && (strace != nil || mustRun), "needs strace (CI installs it)"))
    func aDurableWriteSyncsTheNewFileThenRenamesItThenSyncsTheFolder() async throws {
        let strace = try #require(Self.strace, "CI=true: strace must be installed")
        let suite = try TestSuite()
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("strace-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: trace) }
        let run = try await Probe.run(
            [
                "-f", "-o", trace.path, "-e", "trace=openat,fsync,fdatasync,rename,renameat,renameat2",
                Probe.executable.path, "immediate", suite.name, "durable",
            ],
            executable: URL(fileURLWithPath: strace))
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("written"))
        let calls = SyscallTrace(try String(contentsOf: trace, encoding: .utf8))
        let target = suite.plistURL.standardizedFileURL.path
        let order = try #require(calls.replacement(of: target), "no rename over \(target) in:\n\(calls.text)")
        #expect(order.temporarySynced, "the temporary file was not synced before the rename:\n\(calls.text)")
        #expect(order.folderSyncedAfter, "the folder was not synced after the rename:\n\(calls.text)")
    }

    /// The trace's reader joins a call another thread interrupted, as `strace -f` prints it.
    @Test func aTraceWithInterruptedCallsIsReadWhole() throws {
        let trace = SyscallTrace(
            """
            7 openat(AT_FDCWD, "/f/.s.plist.7.a.tmp", O_WRONLY|O_CREAT|O_EXCL, 0600) = 5
            7 fsync(5 <unfinished ...>
            8 openat(AT_FDCWD, "/other", O_RDONLY) = 6
            7 <... fsync resumed>)            = 0
            7 rename("/f/.s.plist.7.a.tmp", "/f/s.plist") = 0
            7 openat(AT_FDCWD, "/f", O_RDONLY|O_CLOEXEC|O_DIRECTORY) = 5
            7 fsync(5)                          = 0
            """)
        let order = try #require(trace.replacement(of: "/f/s.plist"))
        #expect(order.temporarySynced && order.folderSyncedAfter)
        #expect(
            SyscallTrace(trace.text.replacingOccurrences(of: "7 fsync(5)", with: "7 close(5)")).replacement(
                of: "/f/s.plist")?.folderSyncedAfter == false)
    }

    /// The first write into a preferences folder that does not exist yet makes it, and syncs
    /// each folder it made into its parent, so the suite does not vanish with a new folder.
    @Test(
        .tags(.childProcess), .startsProcesses,
        .enabled(if: isLinux && (strace != nil || mustRun), "needs strace (CI installs it)"))
    func aNewPreferencesFolderIsSyncedIntoItsParent() async throws {
        let strace = try #require(Self.strace, "CI=true: strace must be installed")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("new-folder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let made = scratch.appendingPathComponent("a/b")
        let trace = scratch.appendingPathComponent("trace")
        let run = try await Probe.run(
            [
                "-f", "-o", trace.path, "-e", "trace=mkdir,mkdirat,openat,fsync", Probe.executable.path, "immediate",
                "suite", "durable",
            ], environment: Probe.environment(["XDG_CONFIG_HOME": made.path]), executable: URL(fileURLWithPath: strace))
        #expect(run.status == 0, "\(run.errors)")
        let text = try String(contentsOf: trace, encoding: .utf8)
        let calls = SyscallTrace(text)
        for folder in [scratch.appendingPathComponent("a"), made] {
            #expect(calls.madeAndSyncedIntoParent(folder.path), "\(folder.path) not synced into its parent:\n\(text)")
        }
    }

    /// A sync that fails (`EIO` from the device) is a failed write: the suite's file stays as it
    /// was, no temporary file is left, the change stays pending and is written by the next flush.
    @Test func aFailedSyncLeavesTheOldFileAndTheChangePending() throws {
        let suite = try TestSuite()
        let value = UserDefault(wrappedValue: "default", "value", store: suite.store.durability(.immediate))
        value.wrappedValue = "old"
        let before = try Data(contentsOf: suite.plistURL)
        let key = suite.plistURL.standardizedFileURL.path
        let failing = DurableFile.InjectedFailure(path: key, step: .newContents)
        DurableFile.injectedFailures.withLock { $0[failing] = EIO }
        let (_, reported) = ReportedErrors.during { value.wrappedValue = "new" }
        DurableFile.injectedFailures.withLock { $0[failing] = nil }

        #expect(reported.count == 1, "\(reported)")
        guard case .writeFailed(let path, let underlying)? = reported.first else {
            Issue.record("expected writeFailed, reported \(reported)")
            return
        }
        #expect(path == suite.plistURL.path)
        #expect("\(underlying)".contains("errno \(EIO)"), "\(underlying)")
        #expect(try Data(contentsOf: suite.plistURL) == before, "the old file must stay in place")
        let names = try FileManager.default.contentsOfDirectory(atPath: suite.plistURL.deletingLastPathComponent().path)
        #expect(!names.contains { $0.hasPrefix(".\(suite.plistURL.lastPathComponent).") }, "a temporary file was left")
        #expect(value.wrappedValue == "new", "the change stays pending, and reads see it")

        try suite.store.flush()
        let stored =
            try PropertyListSerialization.propertyList(
                from: try Data(contentsOf: suite.plistURL), format: nil) as? [String: Any]
        #expect(stored?["value"] as? String == "new")
    }

    /// The same for the folder's sync, after the rename: the write is reported as failed (it is
    /// not known to be on the device), the change stays pending, and the next flush writes it.
    @Test func aFailedSyncOfTheFolderIsReportedAndRetried() throws {
        let suite = try TestSuite()
        let store = suite.store.durability(.immediate)
        let value = UserDefault(wrappedValue: 0, "value", store: store)
        let key = suite.plistURL.standardizedFileURL.path
        let failing = DurableFile.InjectedFailure(path: key, step: .folder)
        DurableFile.injectedFailures.withLock { $0[failing] = EIO }
        let (_, reported) = ReportedErrors.during { value.wrappedValue = 1 }
        DurableFile.injectedFailures.withLock { $0[failing] = nil }
        // The new file is in place: the error says so rather than "nothing was written".
        guard case .writeFailed(_, let underlying as DefaultsUnconfirmedWrite)? = reported.first else {
            Issue.record("expected an unconfirmed write, reported \(reported)")
            return
        }
        #expect("\(underlying)".hasPrefix("the new contents are in place, but the device did not confirm"))
        #expect(value.wrappedValue == 1)
        try store.flush()
        let stored =
            try PropertyListSerialization.propertyList(
                from: try Data(contentsOf: suite.plistURL), format: nil) as? [String: Any]
        #expect(stored?["value"] as? Int == 1)
    }
}

extension DeviceSyncTests {
    /// A commit that finds the value it writes already in the file (another program wrote it,
    /// perhaps without a sync) still syncs the file before it returns.
    @Test func aWriteOfWhatTheFileHoldsSyncsTheFileAsItIs() throws {
        let suite = try TestSuite()
        // Written as a program that does not sync would write it.
        let data = try PropertyListSerialization.data(fromPropertyList: ["k": "v"], format: .binary, options: 0)
        try data.write(to: suite.plistURL)
        let failing = DurableFile.InjectedFailure(path: suite.plistURL.standardizedFileURL.path, step: .newContents)
        DurableFile.injectedFailures.withLock { $0[failing] = EIO }
        defer { DurableFile.injectedFailures.withLock { $0[failing] = nil } }
        #expect(throws: DefaultsError.self) { try suite.store.editStoredValues { $0["k"] = .string("v") } }
        DurableFile.injectedFailures.withLock { $0[failing] = nil }
        try suite.store.editStoredValues { $0["k"] = .string("v") }
        #expect(try Data(contentsOf: suite.plistURL) == data, "the file is synced, not rewritten")
    }

    /// Two suites that are links to one file, in one folder or two, take one lock, beside the
    /// file: each commit merges the other's keys, and neither removes the other's temporary file.
    @Test func twoLinksToOneSuiteFileShareItsLock() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("linked-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("shared.plist")
        let (first, second) = (try TestSuite(), try TestSuite())
        defer {
            try? FileManager.default.removeItem(at: first.plistURL)
            try? FileManager.default.removeItem(at: second.plistURL)
        }
        for suite in [first, second] {
            try FileManager.default.createSymbolicLink(at: suite.plistURL, withDestinationURL: target)
        }
        #expect(
            PlistFileBackend.File(url: first.plistURL).lockURL == PlistFileBackend.File(url: second.plistURL).lockURL)
        let count = 150
        let (_, reported) = await ReportedErrors.whileAwaiting {
            await withTaskGroup(of: Void.self) { group in
                for (index, suite) in [first, second].enumerated() {
                    let store = suite.store.durability(.immediate)
                    group.addTask {
                        for key in 0..<count {
                            UserDefault(wrappedValue: 0, "s\(index).\(key)", store: store).wrappedValue = key
                        }
                    }
                }
            }
        }
        #expect(reported.isEmpty, "\(reported.prefix(3))")
        let stored = try PropertyListSerialization.propertyList(from: Data(contentsOf: target), format: nil)
        let keys = (stored as? [String: Any])?.keys.filter { $0.hasPrefix("s") } ?? []
        #expect(keys.count == 2 * count, "\(2 * count - keys.count) keys lost")
    }
}

/// The calls `strace -f` printed, one per line (`PID name(arguments) = result`).
struct SyscallTrace {
    let text: String
    private let calls: [(name: String, arguments: String, result: String)]

    init(_ text: String) {
        self.text = text
        calls = Self.joined(text).compactMap { line in
            let rest = Substring(line)
            // strace pads the result into a column: "fsync(5)          = 0".
            guard let open = rest.firstIndex(of: "("), let equals = rest.range(of: " = ", options: .backwards) else {
                return nil
            }
            let call = rest[..<equals.lowerBound].reversed().drop { $0 == " " }.reversed()
            guard call.last == ")" else { return nil }
            return (
                String(rest[..<open]),
                String(call.dropFirst(rest.distance(from: rest.startIndex, to: open) + 1).dropLast()),
                String(rest[equals.upperBound...].prefix { !$0.isWhitespace })
            )
        }
    }

    /// Each call on one line without its PID: a call another thread interrupted is printed in
    /// two parts ("12 fsync(5 <unfinished ...>", then "12 <... fsync resumed>) = 0").
    private static func joined(_ text: String) -> [String] {
        var lines: [String] = []
        var unfinished: [Substring: (index: Int, text: String)] = [:]
        for line in text.split(separator: "\n") {
            let pid = line.prefix { $0.isNumber }
            let rest = line.dropFirst(pid.count).drop { $0 == " " }
            if let cut = rest.range(of: " <unfinished ...>") {
                unfinished[pid] = (lines.count, String(rest[..<cut.lowerBound]))
                lines.append("")
            } else if rest.hasPrefix("<... "), let resumed = rest.range(of: " resumed>"),
                let start = unfinished.removeValue(forKey: pid)
            {
                lines[start.index] = start.text + rest[resumed.upperBound...]
            } else {
                lines.append(String(rest))
            }
        }
        return lines
    }

    /// For the last rename over `target`: whether the file renamed was synced after it was
    /// opened and before the rename, and whether the folder was opened and synced after it.
    func replacement(of target: String) -> (temporarySynced: Bool, folderSyncedAfter: Bool)? {
        guard
            let rename = calls.lastIndex(where: {
                $0.name.hasPrefix("rename") && $0.result == "0" && $0.arguments.contains("\"\(target)\"")
            }),
            let temporary = Self.quoted(calls[rename].arguments).first
        else { return nil }
        let opened = calls[..<rename].lastIndex { $0.name == "openat" && Self.quoted($0.arguments).first == temporary }
        let synced = opened.map { opened in
            let descriptor = calls[opened].result
            return calls[opened..<rename].contains {
                ($0.name == "fsync" || $0.name == "fdatasync") && $0.arguments == descriptor
            }
        }
        let folder = (target as NSString).deletingLastPathComponent
        let folderSynced = calls[rename...].indices.contains { index in
            let call = calls[index]
            guard call.name == "openat", Self.quoted(call.arguments).first == folder,
                call.arguments.contains("O_DIRECTORY")
            else { return false }
            return calls[index...].contains { $0.name == "fsync" && $0.arguments == call.result }
        }
        return (synced ?? false, folderSynced)
    }

    /// Whether `folder` was made, and its parent then opened and synced.
    func madeAndSyncedIntoParent(_ folder: String) -> Bool {
        guard
            let made = calls.firstIndex(where: {
                $0.name.hasPrefix("mkdir") && Self.quoted($0.arguments).first == folder
            })
        else { return false }
        let parent = (folder as NSString).deletingLastPathComponent
        return calls[made...].indices.contains { index in
            let call = calls[index]
            guard call.name == "openat", Self.quoted(call.arguments).first == parent,
                call.arguments.contains("O_DIRECTORY")
            else { return false }
            return calls[index...].contains { $0.name == "fsync" && $0.arguments == call.result }
        }
    }

    /// The quoted strings among `arguments`.
    private static func quoted(_ arguments: String) -> [String] {
        arguments.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
            .map { String($0.element) }
    }
}
