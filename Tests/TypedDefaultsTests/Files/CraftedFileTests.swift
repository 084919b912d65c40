import Foundation
import Testing

@testable import TypedDefaults
@testable import TypedDefaultsStorage

/// Suite files another program crafted to make readers hang or grow: each is set aside as
/// unparsable at once, reported once, and the suite starts empty.
@Suite(
    .plistFilesOnly(
        "crafted plist files: corelibs `UserDefaults` expands shared objects without end, waits on a FIFO for ever, and reads any size"
    ))
struct CraftedFileTests {
    /// Python's `plistlib` writes a list that holds the same list twice once, and refers to it
    /// twice: 40 levels of `n = [n, n]` are 2^40 elements in a few hundred bytes. Before, every
    /// program that opened the suite ran for ever while its memory grew.
    @Test(.tags(.childProcess), .startsProcesses, .hangGuard)
    func sharedObjectsThatExpandWithoutEndAreSetAside() async throws {
        let suite = try TestSuite()
        let script = #"""
            import plistlib, sys
            n = 0
            for _ in range(40):
                n = [n, n]
            open(sys.argv[1], "wb").write(plistlib.dumps({"bomb": n, "kept": "x"}, fmt=plistlib.FMT_BINARY))
            """#
        _ = try await Python.run(script, suite.plistURL.path)
        try leaveAtRest(suite.plistURL)
        let bomb = try Data(contentsOf: suite.plistURL)
        #expect(bomb.count < 400)
        // Another process opens the suite, reads a key and writes one; a reader that expands
        // the file runs for ever, and is killed after a minute.
        let touched = try await Probe.run(["touch", suite.name], killAfter: 60)
        #expect(!touched.timedOut)
        #expect(touched.status == 0, "\(touched.errors)")
        #expect(touched.output.contains("value default"))
        #expect(touched.errors.contains("elements"), "\(touched.errors)")
        // The file is kept aside byte for byte, and the suite holds the new write alone.
        let folder = suite.plistURL.deletingLastPathComponent()
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix(suite.plistURL.lastPathComponent + ".corrupt-") }
        // Listed by a reader that expands it, a file still holding the bomb never ends.
        try #require(aside.count == 1)
        #expect(
            aside.first.map { FileManager.default.contents(atPath: folder.appendingPathComponent($0).path) } == bomb)
        #expect(try await Python.entries(of: suite.plistURL) == [#"'after' 'written'"#])
    }

    /// The same file met by this process: a read gives the default and the error is reported
    /// once, however often the suite is read.
    @Test(.hangGuard) func aBombIsReportedOnceAndReadsGiveDefaults() async throws {
        let suite = try TestSuite()
        try writeAtRest(PropertyListReaderTests.suiteBomb(levels: 40), to: suite.plistURL)
        let (values, reports) = ReportedErrors.during {
            (0..<3).map { _ in UserDefault(wrappedValue: 5, "count", store: suite.store).wrappedValue }
        }
        #expect(values == [5, 5, 5])
        #expect(reports.count == 1)
        guard case .corruptFile(_, let preservedAt?, _)? = reports.first else {
            Issue.record("reported \(reports)")
            return
        }
        #expect(FileManager.default.fileExists(atPath: preservedAt))
    }

    /// `plistlib` writes a string once however many arrays hold it: 8,000 references to one
    /// string of 8 KB are a 35 KB file. A write of another key rewrote it with 8,000 copies,
    /// 66 MB; equal strings and data are written once now, as the file had them.
    @Test(.tags(.childProcess), .startsProcesses, .hangGuard)
    func aFileSharingOneValueManyTimesIsWrittenBackAsSmall() async throws {
        let suite = try TestSuite()
        let script = #"""
            import plistlib, sys
            big = "x" * 8000
            blob = b"y" * 8000
            value = {"strings": [big] * 4000, "datas": [blob] * 4000, big: big}
            open(sys.argv[1], "wb").write(plistlib.dumps(value, fmt=plistlib.FMT_BINARY))
            """#
        _ = try await Python.run(script, suite.plistURL.path)
        let before = try Data(contentsOf: suite.plistURL).count
        suite.store[DefaultsKey<Int>("other", default: 0)] = 1
        try suite.store.flush()
        let after = try Data(contentsOf: suite.plistURL).count
        #expect(after < before + 1_000, "written back as \(after) bytes, read from \(before)")
        let check = #"""
            import plistlib, sys
            d = plistlib.load(open(sys.argv[1], "rb"))
            print(sorted(d), len(d["strings"]), {len(x) for x in d["strings"]}, {len(x) for x in d["datas"]})
            """#
        #expect(
            try await Python.run(check, suite.plistURL.path)
                == "['datas', 'other', 'strings', '\(String(repeating: "x", count: 8000))'] 4000 {8000} {8000}\n")
        let strings = try suite.store.storedValues()[DefaultsStoredKey("strings")]
        #expect(strings == .array(Array(repeating: .string(String(repeating: "x", count: 8000)), count: 4000)))
    }

    /// A path that holds no regular file, or one larger than a suite may be, is a suite that
    /// cannot be read (`readFailed`), left where and as it is, never set aside as corrupt nor
    /// written over: a FIFO (a plain `open` waits for a writer for ever) and a device
    /// (`/dev/zero` never ends) are refused before a byte is read, a sparse file of 65 MiB by its
    /// size.
    @Test(arguments: ["fifo", "device", "large"])
    func aPathHoldingNoSuiteFileIsUnreadableAndLeftAlone(kind: String) throws {
        let suite = try TestSuite()
        let path = suite.plistURL.path
        defer { unlink(path) }
        switch kind {
        case "fifo": #expect(mkfifo(path, 0o600) == 0)
        case "device": try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
        default:
            #expect(FileManager.default.createFile(atPath: path, contents: Data("bplist00".utf8)))
            #expect(truncate(path, off_t(FileBytes.limit + 1)) == 0)
        }
        let (value, reports) = ReportedErrors.during {
            (0..<3).map { _ in UserDefault(wrappedValue: 5, "count", store: suite.store).wrappedValue }
        }
        #expect(value == [5, 5, 5])
        guard case .readFailed(_, let underlying)? = reports.first, reports.count == 1 else {
            Issue.record("reported \(reports)")
            return
        }
        #expect(underlying is FileBytes.Refusal, "\(underlying)")
        suite.store[DefaultsKey<Int>("count", default: 5)] = 6
        #expect(throws: DefaultsError.self) { try suite.store.flush() }
        var status = stat()
        #expect(lstat(path, &status) == 0)
        let expected: mode_t = kind == "fifo" ? S_IFIFO : kind == "device" ? S_IFLNK : S_IFREG
        #expect(status.st_mode & S_IFMT == expected)
        if kind == "large" { #expect(status.st_size == FileBytes.limit + 1) }
    }

    /// Changes that would make the suite's file larger than a reader here reads are not
    /// written: the flush fails with `writeFailed`, and the file stays as it was. (A store's
    /// size limit refuses such a write before; a store without one reaches the flush.)
    @Test func aSuiteTooLargeToReadBackIsNotWritten() throws {
        let suite = try TestSuite()
        let store = suite.store.sizeLimit(.none)
        store[DefaultsKey<Int>("small", default: 0)] = 1
        try suite.store.flush()
        let before = try Data(contentsOf: suite.plistURL)
        let huge = DefaultsKey<Data>("huge", default: Data())
        store[huge] = Data(count: FileBytes.limit)
        #expect {
            try suite.store.flush()
        } throws: { error in
            guard case .writeFailed(_, let underlying) = error as? DefaultsError else { return false }
            return underlying is FileBytes.Refusal
        }
        #expect(try Data(contentsOf: suite.plistURL) == before)
        // A refused write stays pending and is retried; taken back, nothing is left to write
        // once the suite's files are removed.
        UserDefault(huge, store: suite.store).reset()
        try suite.store.flush()
    }
}
