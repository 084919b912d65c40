import Foundation
import Testing
import TypedDefaults

/// Defects of the tool found by the hostile review of issue 28. Each test FAILS on the code it
/// was written against (branch issue28-hostile, 8fd355b) and says what it shows.
@Suite struct HostileReviewToolTests {
    /// The README: a value may nest "up to 250 arrays and dictionaries deep", and `read --json`,
    /// `export --format json` and `import` share one JSON form that "holds every value a suite
    /// can store exactly". But the JSON reader refuses text nested deeper than 250, and the
    /// suite's own object is one more level: a suite holding a value 250 arrays deep exports, and
    /// its export does not import ("nested too deeply"). A backup that cannot be restored.
    @Test func anExportOfAValueNestedAsDeepAsASuiteHoldsImportsBack() async throws {
        let (suite, store) = try Tool.suite()
        var value: DefaultsStoredValue = .integer(1)
        for _ in 0..<250 { value = .array([value]) }  // 250 arrays, as deep as the README allows
        try store.editStoredValues { $0["deep"] = value }
        let export = try await Tool.run("export", suite, "-", "--format", "json")
        #expect(export.status == 0, "\(export.errors)")
        let (target, targetStore) = try Tool.suite()
        let imported = try await Tool.run("import", target, "-", input: Data(export.output.utf8))
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(try targetStore.storedValues() == store.storedValues())
    }

    /// A dictionary whose only member's name starts with `$` is written `{"$dictionary": {…}}`,
    /// one more JSON level per level of the value: such dictionaries nested 130 deep (a value
    /// the suite holds, well within 250) are printed by `read suite key --json`, and the printed
    /// text is refused by `write --json`, which the README says reads it back as the same value.
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

    /// A FIFO planted at a suite's path: `typed-defaults read suite` opens it with a blocking
    /// `open()` and waits for a writer for ever. The README: a suite that cannot be read is "one
    /// line, exit 1".
    @Test func aFIFOInPlaceOfASuiteIsOneLineAndStatusOne() async throws {
        let (suite, _) = try Tool.suite()
        #expect(mkfifo(Tool.file(of: suite).path, 0o600) == 0)
        defer { unlink(Tool.file(of: suite).path) }
        // `timeout` stands for the user who gives up: it kills the tool after 10 s (status 124 or 137).
        let read = try await Tool.run(["read", suite], launcher: ["/usr/bin/timeout", "-s", "KILL", "10"])
        #expect(read.status == 1, "status \(read.status): \(read.errors)")
        #expect(read.errors.split(separator: "\n").count == 1, "\(read.errors)")
    }
}
