import Foundation
import Testing
import TypedDefaults

/// The tool's files: what it exports imports back, and a link, a device, a FIFO or an endless
/// file at a path it is given is never replaced and never hangs it. Each test's comment says
/// what input it is; the test fails without the handling it guards.
@Suite struct ToolFileSafetyTests {
    /// CommandLineAndSchemas: a value reads back "however deep: up to 250 arrays and dictionaries",
    /// and `read --json`, `export --format json` and `import` share one JSON form that "holds every
    /// value a suite can store exactly". But the JSON reader refuses text nested deeper than 250,
    /// and the suite's own object is one more level: a suite holding a value 250 arrays deep
    /// exports, and its export does not import ("nested too deeply"). A backup that cannot be
    /// restored.
    @Test func anExportOfAValueNestedAsDeepAsASuiteHoldsImportsBack() async throws {
        let (suite, store) = try Tool.suite()
        var value: DefaultsStoredValue = .integer(1)
        for _ in 0..<250 { value = .array([value]) }  // 250 arrays, as deep as the articles allow
        try store.editStoredValues { $0["deep"] = value }
        let export = try await Tool.run("export", suite, "-", "--format", "json")
        #expect(export.status == 0, "\(export.errors)")
        let (target, targetStore) = try Tool.suite()
        let imported = try await Tool.run("import", target, "-", input: Data(export.output.utf8))
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(try targetStore.storedValues() == store.storedValues())
        // The same suite's file, a binary property list, imports back too: its dictionary is the
        // suite, not a level of its values.
        let (copy, copyStore) = try Tool.suite()
        let fromFile = try await Tool.run("import", copy, Tool.file(of: suite).path)
        #expect(fromFile.status == 0, "\(fromFile.errors)")
        #expect(try copyStore.storedValues() == store.storedValues())
    }

    /// A dictionary whose only member's name starts with `$` is written `{"$dictionary": {…}}`, one
    /// more JSON level per level of the value: such dictionaries nested 130 deep (a value the suite
    /// holds, well within 250) are printed by `read suite key --json`, and the printed text is
    /// refused by `write --json`, which CommandLineAndSchemas says reads it back as the same value.
    @Test func aValueOfDollarDictionariesPrintedByReadJSONWritesBack() async throws {
        let (suite, store) = try Tool.suite()
        var value: DefaultsStoredValue = .integer(1)
        for _ in 1..<130 { value = .dictionary(["$k": value]) }
        try store.editStoredValues { $0["dollars"] = value }
        let printed = try await Tool.run("read", suite, "dollars", "--json")
        #expect(printed.status == 0, "\(printed.errors)")
        let text = String(printed.output.dropLast())
        let written = try await Tool.run("write", suite, "copy", "--json", text)
        #expect(written.status == 0, "\(written.errors)")
        #expect(try store.storedValues()[DefaultsStoredKey("copy")] == value)
    }

    /// `export suite FILE` writes with `Data.write(options: .atomic)`: a temporary file renamed
    /// over FILE, whatever FILE is. A symlink (a backup kept in a dotfiles repository) is replaced
    /// by a regular file and its target keeps the old contents; a character device is replaced by
    /// a regular file: run as root, `typed-defaults export suite /dev/null` (or `/dev/stdout`,
    /// `/dev/full`) deletes the device node of the whole system and reports success (found when
    /// `export suite /dev/full --format json` exited 0 and left /dev/full a regular file, which
    /// had to be made again with mknod). Here in a folder of the test's own: a link and a device
    /// node equal to /dev/null's (1, 3), which must stay what they are.
    @Test func anExportNeverReplacesALinkOrADeviceAtItsPath() async throws {
        let (suite, store) = try Tool.suite()
        store[DefaultsKey<Int>("k", default: 0)] = 1
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (target, link) = (folder.appendingPathComponent("backup.json"), folder.appendingPathComponent("link.json"))
        try Data("old".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
        let exported = try await Tool.run("export", suite, link.path, "--format", "json")
        #expect(exported.status == 0, "\(exported.errors)")
        #expect(
            (try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == target.path,
            "the link was replaced by a regular file")
        #expect(
            try String(contentsOf: target, encoding: .utf8).contains("\"k\": 1"), "the link's target was not written")
        guard getuid() == 0 else { return }
        let device = folder.appendingPathComponent("null")
        #expect(mknod(device.path, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0)
        _ = try await Tool.run("export", suite, device.path, "--format", "json")
        var status = stat()
        #expect(
            lstat(device.path, &status) == 0 && status.st_mode & S_IFMT == S_IFCHR,
            "the device node was replaced by a regular file")
    }

    /// A FIFO planted at a suite's path: `typed-defaults read suite` opens it with a blocking
    /// `open()` and waits for a writer for ever. CommandLineAndSchemas: a failure is "one line
    /// on standard error".
    @Test func aFIFOInPlaceOfASuiteIsOneLineAndStatusOne() async throws {
        let (suite, _) = try Tool.suite()
        #expect(mkfifo(Tool.file(of: suite).path, 0o600) == 0)
        defer { unlink(Tool.file(of: suite).path) }
        // `timeout` stands for the user who gives up: it kills the tool after 10 s (status 124 or 137).
        let read = try await Tool.run(["read", suite], launcher: ["/usr/bin/timeout", "-s", "KILL", "10"])
        #expect(read.status == 1, "status \(read.status): \(read.errors)")
        #expect(read.errors.split(separator: "\n").count == 1, "\(read.errors)")
    }

    /// An import from a file that never ends stops at what a suite may hold: one line, status
    /// 1, nothing written.
    @Test func anImportOfAFileThatNeverEndsStopsAtTheLimit() async throws {
        let (suite, _) = try Tool.suite()
        #expect(try await Tool.run("write", suite, "kept", "--int", "1").status == 0)
        let before = try Data(contentsOf: Tool.file(of: suite))
        let run = try await Tool.run(
            ["import", suite, "/dev/zero"], launcher: ["/usr/bin/timeout", "-s", "KILL", "60"])
        #expect(run.status == 1, "status \(run.status): \(run.errors)")
        #expect(run.errors.split(separator: "\n").count == 1 && run.errors.contains("64 MiB"), "\(run.errors)")
        #expect(try Data(contentsOf: Tool.file(of: suite)) == before)
    }
}
