import Foundation
import Testing
import TypedDefaults
import TypedDefaultsSchema

/// Dates of any year through the tool: written with `--date` and `$date`, and shown by `read`,
/// `read --json` and `export` in a form that reads back as the same instant.
@Suite struct DateCommandTests {
    /// -0044-03-15T12:00:00Z (45 BC) in the proleptic Gregorian calendar: Julian day 1705063 at
    /// noon, 2001-01-01T00:00:00Z being Julian day 2451910.5.
    static let ides = Date(timeIntervalSinceReferenceDate: (1_705_063 - 2_451_910.5) * 86_400)
    /// 1500-06-01T00:00:00Z, proleptic Gregorian (Julian day 2269074.5), not the Julian calendar's.
    static let before1582 = Date(timeIntervalSinceReferenceDate: (2_269_074.5 - 2_451_910.5) * 86_400)

    @Test func negativeYearsAreWrittenReadAndWrittenAgain() async throws {
        let (suite, store) = try Tool.suite()
        let writes: [([String], Date)] = [
            (["ides", "--date", "-0044-03-15T12:00:00Z"], Self.ides),
            (["spelled", "-date", "-0044-03-15 12:00:00 +0000"], Self.ides),
            (["offset", "--date", "-0044-03-15T13:00:00+01:00"], Self.ides),
            (["fraction", "--date", "-0044-03-15T12:00:00.25Z"], Self.ides.addingTimeInterval(0.25)),
            (
                ["yearZero", "--date", "0000-02-29"],
                Date(timeIntervalSinceReferenceDate: -63_145_526_400 + 59 * 86_400)
            ),
            (["future", "--date", "+10000-01-01T00:00:00Z"], Date(timeIntervalSinceReferenceDate: 252_423_993_600)),
            (["json", "--json", #"{"$date": "-0044-03-15T12:00:00Z"}"#], Self.ides),
            (["old", "--date", "1500-06-01T00:00:00Z"], Self.before1582),
        ]
        for (arguments, _) in writes {
            let result = try await Tool.run(["write", suite] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.errors)")
        }
        let stored = try store.storedValues()
        for (arguments, date) in writes {
            #expect(stored[DefaultsStoredKey(arguments[0])] == .date(date), "\(arguments)")
        }
        // Shown as macOS defaults shows a date (unquoted, on its own), in the years and fraction
        // ISO 8601 gives it …
        #expect(try await Tool.run("read", suite, "ides").output == "-0044-03-15 12:00:00 +0000\n")
        #expect(try await Tool.run("read", suite, "fraction").output == "-0044-03-15 12:00:00.25 +0000\n")
        #expect(try await Tool.run("read", suite, "yearZero").output == "0000-02-29 00:00:00 +0000\n")
        #expect(try await Tool.run("read", suite, "future").output == "+10000-01-01 00:00:00 +0000\n")
        #expect(try await Tool.run("read", suite, "old").output == "1500-06-01 00:00:00 +0000\n")
        #expect(
            try await Tool.run("read", suite, "fraction", "--json").output
                == #"{"$date":"-0044-03-15T12:00:00.25Z"}"# + "\n")
        let listed = try await Tool.run("list-recursively", suite)
        #expect(listed.output.contains("\(suite) ides \"-0044-03-15 12:00:00 +0000\"\n"), "\(listed.output)")
        // … which --date reads back as the same instant.
        let (copy, copyStore) = try Tool.suite()
        for key in stored.keys.map(\.name) {
            let shown = try await Tool.run("read", suite, key)
            let text = String(shown.output.dropLast())
            let written = try await Tool.run("write", copy, key, "--date", text)
            #expect(written.status == 0, "\(key) \(text): \(written.errors)")
        }
        #expect(try copyStore.storedValues() == stored)
    }

    @Test func exportKeepsEveryYearInJSONAndRefusesWhatXMLCannotHold() async throws {
        let (suite, store) = try Tool.suite()
        let values: [DefaultsStoredKey: DefaultsStoredValue] = [
            "ides": .date(Self.ides), "fraction": .date(Self.ides.addingTimeInterval(-0.5)),
            "old": .date(Self.before1582), "first": .date(Date(timeIntervalSinceReferenceDate: -63_113_904_000)),
        ]
        try store.editStoredValues { $0 = values }
        let json = try await Tool.run("export", suite, "-", "--format", "json")
        #expect(json.output.contains("-0044-03-15T12:00:00Z"), "\(json.output)")
        #expect(json.output.contains("-0044-03-15T11:59:59.5Z"), "\(json.output)")
        let (target, targetStore) = try Tool.suite()
        #expect(try await Tool.run("import", target, "-", input: Data(json.output.utf8)).status == 0)
        #expect(try targetStore.storedValues() == values)

        let refused = try await Tool.run("export", suite, "-")
        #expect(refused.status == 1)
        #expect(refused.errors.contains("the date -0044-03-15 11:59:59.5 +0000 has no XML form"), "\(refused.errors)")
        #expect(refused.errors.contains("--format json"))
        // The years XML holds, in the proleptic Gregorian calendar that property-list parsers read.
        try store.editStoredValues { $0 = ["old": values["old"], "first": values["first"]].compactMapValues { $0 } }
        let xml = try await Tool.run("export", suite, "-")
        #expect(xml.status == 0, "\(xml.errors)")
        #expect(xml.output.contains("<date>1500-06-01T00:00:00Z</date>"), "\(xml.output)")
        #expect(xml.output.contains("<date>0001-01-01T00:00:00Z</date>"), "\(xml.output)")
        let (xmlTarget, xmlStore) = try Tool.suite()
        #expect(try await Tool.run("import", xmlTarget, "-", input: Data(xml.output.utf8)).status == 0)
        #expect(try xmlStore.storedValues() == ["old": .date(Self.before1582), "first": values["first"]])
        let yearZero = try await Tool.run("write", suite, "zero", "--date", "0000-06-01")
        #expect(yearZero.status == 0)
        #expect(try await Tool.run("export", suite, "-").errors.contains("zero: the date 0000-06-01"))
    }

    @Test func aDeclaredDateTakesNegativeYearsWithoutAFlag() async throws {
        let (suite, store) = try Tool.suite()
        let settings = ToolTestSettings(store: store)
        try DefaultsSchema.publish(settings)
        let written = try await Tool.run("write", suite, "lastOpened", "-0044-03-15T12:00:00Z")
        #expect(written.status == 0, "\(written.errors)")
        store.refresh()
        #expect(settings.lastOpened == Self.ides)
        #expect(try await Tool.run("read", suite, "lastOpened").output == "-0044-03-15 12:00:00 +0000\n")
        let refused = try await Tool.run("write", suite, "lastOpened", "-044-03-15")
        #expect(refused.status == 1)
        #expect(refused.errors.contains("is not a date"))
    }
}
