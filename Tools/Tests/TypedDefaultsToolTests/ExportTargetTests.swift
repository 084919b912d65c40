import Foundation
import Testing
import TypedDefaults

/// What `export suite FILE` does with what is at FILE: a regular file is replaced in one step, and
/// nothing else is ever replaced; a write that fails is one line and status 1. Every path is in a
/// folder of the test's own, every FIFO its own (no device: see `ToolFileSafetyTests` for the
/// one device node, made there and removed).
@Suite struct ExportTargetTests {
    /// A folder of the test's own, and a suite holding `k` = 1 and, when `large`, a string of
    /// 300 000 bytes: more than a pipe holds (64 KiB), so a FIFO's writer waits for its reader.
    static func setUp(large: Bool = false, _ label: String = #function) throws -> (folder: URL, suite: String) {
        let (suite, store) = try Tool.suite(label)
        try store.editStoredValues { values in
            values["k"] = .integer(1)
            if large { values["large"] = .string(String(repeating: "x", count: 300_000)) }
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("export-target-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (folder, suite)
    }

    static func kind(_ url: URL) -> mode_t? {
        var status = stat()
        return lstat(url.path, &status) == 0 ? status.st_mode & S_IFMT : nil
    }

    /// Reads the FIFO at `path` (the tool's open for writing waits for this reader) until
    /// `enough` says so or the writer closes it, for at most 10 s; then closes it.
    static func readFIFO(_ path: String, enough: (Data) -> Bool) async -> Data {
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        guard reader >= 0 else { return Data() }
        defer { close(reader) }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !enough(received) {
            let count = read(reader, &buffer, buffer.count)
            if count > 0 {
                received.append(contentsOf: buffer[..<count])
            } else if count == 0, !received.isEmpty {
                break  // The writer has closed it.
            } else {
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        return received
    }

    @Test func aFIFOIsWrittenIntoAsItIs() async throws {
        let (folder, suite) = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("backup.json")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let export = Task { try await Tool.run("export", suite, fifo.path, "--format", "json") }
        let received = await Self.readFIFO(fifo.path) { _ in false }
        let exported = try await export.value
        #expect(exported.status == 0, "\(exported.errors)")
        #expect(String(decoding: received, as: UTF8.self).contains("\"k\": 1"), "the FIFO's reader got nothing")
        #expect(Self.kind(fifo) == S_IFIFO, "the FIFO was replaced")
    }

    /// A FIFO whose reader goes after 1 KiB: EPIPE, reported in one line that says how much was
    /// written, not that nothing was; not SIGPIPE.
    @Test func aFIFOWhoseReaderGoesIsOneLineAndStatusOne() async throws {
        let (folder, suite) = try Self.setUp(large: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("backup.json")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let export = Task { try await Tool.run("export", suite, fifo.path, "--format", "json") }
        let received = await Self.readFIFO(fifo.path) { $0.count >= 1024 }
        let exported = try await export.value
        #expect(!received.isEmpty, "the FIFO's reader got nothing")
        #expect(exported.status == 1, "status \(exported.status): \(exported.errors)")
        let lines = exported.errors.split(separator: "\n")
        #expect(lines.count == 1, "\(exported.errors)")
        #expect(lines.first?.contains("Broken pipe") == true, "\(exported.errors)")
        #expect(lines.first?.contains("bytes were written") == true, "\(exported.errors)")
        #expect(Self.kind(fifo) == S_IFIFO, "the FIFO was replaced")
    }

    /// A regular file is replaced in one step: a new file (another inode) with the old one's
    /// permissions; a write that fails (here `ulimit -f`, as a full disk would) leaves the old
    /// file and no temporary one, in one line.
    @Test func aRegularFileIsReplacedWholeOrNotAtAll() async throws {
        let (folder, suite) = try Self.setUp(large: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("backup.json")
        try Data("old".utf8).write(to: file)
        #expect(chmod(file.path, 0o640) == 0)
        var before = stat()
        #expect(stat(file.path, &before) == 0)

        let limited = try await Tool.run(
            ["export", suite, file.path, "--format", "json"], launcher: ["/usr/bin/prlimit", "--fsize=4096"])
        #expect(limited.status == 1, "status \(limited.status): \(limited.errors)")
        #expect(limited.errors == "typed-defaults: cannot write \(file.path): File too large; nothing was written\n")
        #expect(try String(contentsOf: file, encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["backup.json"])

        let exported = try await Tool.run("export", suite, file.path, "--format", "json")
        #expect(exported.status == 0, "\(exported.errors)")
        #expect(try String(contentsOf: file, encoding: .utf8).contains("\"k\": 1"))
        var after = stat()
        #expect(stat(file.path, &after) == 0)
        #expect(after.st_ino != before.st_ino, "written in place, not replaced in one step")
        #expect(after.st_mode & 0o7777 == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["backup.json"])
    }

    /// `-` is standard output still; a write to it that fails (here `ulimit -f` on the file it
    /// is, as a full disk would) is one line that says how much was written, not a signal.
    @Test func aFailedWriteToStandardOutputIsOneLine() async throws {
        let (folder, suite) = try Self.setUp(large: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let exported = try await Tool.run("export", suite, "-", "--format", "json")
        #expect(exported.status == 0)
        #expect(exported.output.utf8.count > 300_000)
        let limited = try await Tool.run(
            ["export", suite, "-", "--format", "json"], launcher: ["/usr/bin/prlimit", "--fsize=4096"])
        #expect(limited.status == 1, "status \(limited.status): \(limited.errors)")
        #expect(
            limited.errors
                == "typed-defaults: cannot write standard output: File too large; 4096 of \(exported.output.utf8.count) "
                + "bytes were written\n")
    }

    /// Links are followed to the end, relative or not, and stay links; a link to nothing makes
    /// the file it names, as the shell's `>` does.
    @Test func linksAreFollowedAndKept() async throws {
        let (folder, suite) = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        try manager.createDirectory(at: folder.appendingPathComponent("kept"), withIntermediateDirectories: true)
        let target = folder.appendingPathComponent("kept/backup.json")
        try Data("old".utf8).write(to: target)
        let (first, second) = (folder.appendingPathComponent("first"), folder.appendingPathComponent("second"))
        try manager.createSymbolicLink(atPath: first.path, withDestinationPath: "second")
        try manager.createSymbolicLink(atPath: second.path, withDestinationPath: "kept/backup.json")
        let exported = try await Tool.run("export", suite, first.path, "--format", "json")
        #expect(exported.status == 0, "\(exported.errors)")
        #expect(try manager.destinationOfSymbolicLink(atPath: first.path) == "second")
        #expect(try manager.destinationOfSymbolicLink(atPath: second.path) == "kept/backup.json")
        #expect(try String(contentsOf: target, encoding: .utf8).contains("\"k\": 1"))

        let dangling = folder.appendingPathComponent("dangling")
        try manager.createSymbolicLink(atPath: dangling.path, withDestinationPath: "kept/new.json")
        #expect(try await Tool.run("export", suite, dangling.path, "--format", "json").status == 0)
        #expect(try manager.destinationOfSymbolicLink(atPath: dangling.path) == "kept/new.json")
        #expect(try String(contentsOf: folder.appendingPathComponent("kept/new.json"), encoding: .utf8).contains("k"))

        let loop = folder.appendingPathComponent("loop")
        try manager.createSymbolicLink(atPath: loop.path, withDestinationPath: "loop")
        let looped = try await Tool.run("export", suite, loop.path)
        #expect(looped.status == 1)
        #expect(looped.errors.split(separator: "\n").count == 1, "\(looped.errors)")
        #expect(try manager.destinationOfSymbolicLink(atPath: loop.path) == "loop")
    }

    /// A link the kernel follows to a descriptor, as `/dev/stdout` is one: `/proc/self/fd/1`
    /// names a pipe ("pipe:[…]", no path), which is written through, the link kept.
    @Test func aLinkToADescriptorIsWrittenThrough() async throws {
        let (folder, suite) = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = folder.appendingPathComponent("standard-output")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/proc/self/fd/1")
        // The tool's standard output is a pipe to `cat`, and the status the tool's.
        let exported = try await Tool.run(
            ["export", suite, link.path, "--format", "json"],
            launcher: ["/bin/bash", "-c", #"set -o pipefail; "$0" "$@" | cat"#])
        #expect(exported.status == 0, "\(exported.errors)")
        #expect(exported.output.contains("\"k\": 1"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "/proc/self/fd/1")
    }

    /// A folder, and a file in a folder that does not exist, are refused in one line: the tool
    /// makes no folder and puts no file in place of one.
    @Test func aFolderOrAMissingFolderIsRefused() async throws {
        let (folder, suite) = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases = [
            (folder.path, "cannot write \(folder.path): it is a folder; nothing was written"),
            (
                folder.path + "/missing/backup.json",
                "cannot write \(folder.path)/missing/backup.json: the folder \(folder.path)/missing does not exist; "
                    + "nothing was written"
            ),
        ]
        for (path, message) in cases {
            let exported = try await Tool.run("export", suite, path, "--format", "json")
            #expect(exported.status == 1)
            #expect(exported.errors == "typed-defaults: \(message)\n")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
