import Foundation
import Testing

@testable import TypedDefaults

/// Suite files another program crafted to make readers hang or grow: each is set aside as
/// unparsable at once, reported once, and the suite starts empty.
@Suite struct CraftedFileTests {
    /// Python's `plistlib` writes a list that holds the same list twice once, and refers to it
    /// twice: 40 levels of `n = [n, n]` are 2^40 elements in a few hundred bytes. Before, every
    /// program that opened the suite ran for ever while its memory grew.
    @Test(.timeLimit(.minutes(1))) func sharedObjectsThatExpandWithoutEndAreSetAside() async throws {
        let suite = try TestSuite()
        let script = #"""
            import plistlib, sys
            n = 0
            for _ in range(40):
                n = [n, n]
            open(sys.argv[1], "wb").write(plistlib.dumps({"bomb": n, "kept": "x"}, fmt=plistlib.FMT_BINARY))
            """#
        _ = try await Python.run(script, suite.plistURL.path)
        let bomb = try Data(contentsOf: suite.plistURL)
        #expect(bomb.count < 400)
        // Another process opens the suite, reads a key and writes one.
        let touched = try await Probe.run("touch", suite.name)
        #expect(touched.status == 0, "\(touched.errors)")
        #expect(touched.output.contains("value default"))
        #expect(touched.errors.contains("elements"), "\(touched.errors)")
        // The file is kept aside byte for byte, and the suite holds the new write alone.
        let folder = suite.plistURL.deletingLastPathComponent()
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix(suite.plistURL.lastPathComponent + ".corrupt-") }
        #expect(aside.count == 1)
        #expect(
            aside.first.map { FileManager.default.contents(atPath: folder.appendingPathComponent($0).path) } == bomb)
        #expect(try await Python.entries(of: suite.plistURL) == [#"'after' 'written'"#])
    }

    /// The same file met by this process: a read gives the default and the error is reported
    /// once, however often the suite is read.
    @Test(.timeLimit(.minutes(1))) func aBombIsReportedOnceAndReadsGiveDefaults() async throws {
        let suite = try TestSuite()
        try PropertyListReaderTests.suiteBomb(levels: 40).write(to: suite.plistURL)
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
}
