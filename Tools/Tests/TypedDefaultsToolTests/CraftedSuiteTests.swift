import Foundation
import Testing
import TypedDefaults

/// Files other programs crafted, met by the tool: a binary property list whose shared objects
/// expand without end, and keys that differ only in their Unicode normalization.
@Suite struct CraftedSuiteTests {
    /// Python writes `script` with the file's path as its argument, and the file is dated a
    /// minute back: a crafted file left there, not one another program is still writing.
    static func python(_ script: String, _ file: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, file.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: file.path)
    }

    /// 40 levels of `n = [n, n]`: 2^40 elements in a few hundred bytes.
    static let bomb = #"""
        import plistlib, sys
        n = 0
        for _ in range(40):
            n = [n, n]
        open(sys.argv[1], "wb").write(plistlib.dumps({"bomb": n}, fmt=plistlib.FMT_BINARY))
        """#

    @Test(.timeLimit(.minutes(1))) func readAndImportRefuseASharedObjectBombAtOnce() async throws {
        let (suite, _) = try Tool.suite()
        try Self.python(Self.bomb, Tool.file(of: suite))
        let read = try await Tool.run("read", suite)
        #expect(read.status == 1)
        #expect(read.errors.contains("elements"), "\(read.errors)")
        // Read leaves the file where and as it is.
        #expect(FileManager.default.fileExists(atPath: Tool.file(of: suite).path))
        // The same bytes as a file to import: refused, nothing written.
        let (target, targetStore) = try Tool.suite()
        #expect(try await Tool.run("write", target, "kept", "--int", "1").status == 0)
        let imported = try await Tool.run(["import", target, Tool.file(of: suite).path])
        #expect(imported.status == 1)
        #expect(imported.errors.contains("elements"), "\(imported.errors)")
        #expect(try targetStore.storedValues() == ["kept": .integer(1)])
    }

    @Test func keysThatDifferOnlyInNormalizationStayTwo() async throws {
        let (suite, _) = try Tool.suite()
        let (nfc, nfd) = ("caf\u{E9}", "cafe\u{301}")
        try Self.python(
            #"""
            import plistlib, sys
            open(sys.argv[1], "wb").write(plistlib.dumps({"caf\u00e9": "one", "cafe\u0301": "two"}))
            """#, Tool.file(of: suite))
        #expect(try await Tool.run("read", suite, nfc).output == "one\n")
        #expect(try await Tool.run("read", suite, nfd).output == "two\n")
        // A write and a delete of one form leave the other as it was.
        #expect(try await Tool.run("write", suite, nfd, "deux").status == 0)
        #expect(try await Tool.run("read", suite, nfc).output == "one\n")
        #expect(try await Tool.run("delete", suite, nfc).status == 0)
        #expect(try await Tool.run("read", suite, nfd).output == "deux\n")
        #expect(try await Tool.run("read", suite, nfc).status == 1)
        // Export and import keep both.
        #expect(try await Tool.run("write", suite, nfc, "uno").status == 0)
        let exported = try await Tool.run("export", suite, "-", "--format", "json")
        let (copy, copyStore) = try Tool.suite()
        let imported = try await Tool.run(["import", copy, "-"], input: Data(exported.output.utf8))
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(
            try copyStore.storedValues() == [
                DefaultsStoredKey(nfc): .string("uno"), DefaultsStoredKey(nfd): .string("deux"),
            ])
    }
}
