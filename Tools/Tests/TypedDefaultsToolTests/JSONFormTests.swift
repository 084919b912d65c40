import Foundation
import Testing
import TypedDefaults
import TypedDefaultsSchema

/// `read --json` is the exact JSON form: what it prints, for a suite, a key or every suite,
/// reads back through real processes as exactly the values stored.
@Suite struct JSONFormTests {
    /// Every kind of value, with the edges the JSON form must keep.
    static func everyKind() throws -> [DefaultsStoredKey: DefaultsStoredValue] {
        let archive = try NSKeyedArchiver.archivedData(
            withRootObject: ToolTestColor(hue: 0.5), requiringSecureCoding: true)
        let dates: [String: Double] = [
            "date": 817_120_800, "fraction": 123_456_789.123_456_789, "beforeEpoch": -1_234_567_890.5,
            "ides": -64_527_624_000, "idesFraction": -64_527_624_000 + 0.25, "yearZero": -63_145_526_400,
            "farFuture": 252_423_993_600.5, "beyondText": 1e15, "notFinite": .infinity,
        ]
        var values: [DefaultsStoredKey: DefaultsStoredValue] = [
            "jsonString": .string(#"{"a":1}"#),
            "jsonArrayString": .string("[1, 2]"),
            "jsonDateString": .string(#"{"$date":"2026-11-23T10:00:00Z"}"#),
            "quotedString": .string(#""quoted""#),
            "nullString": .string("null"),
            "text": .string("Ada & <Grace> \"quoted\" é 😀 \u{0}\u{7}\r\n"),
            "empty": .string(""),
            "min": .integer(.min), "max": .integer(.max), "unsignedMax": .unsignedInteger(.max), "zero": .integer(0),
            "real": .real(0.1), "whole": .real(1), "negativeZero": .real(-0.0), "nan": .real(.nan),
            "infinity": .real(.infinity), "negativeInfinity": .real(-.infinity),
            "tiny": .real(.leastNonzeroMagnitude), "huge": .real(.greatestFiniteMagnitude),
            "yes": .boolean(true), "no": .boolean(false),
            "data": .data(Data([0, 1, 254, 255])), "noData": .data(Data()), "archive": .data(archive),
            "nil": .dictionary(["__TypedDefaults.nil": .integer(0)]),
            "nilInNil": .dictionary(["__TypedDefaults.nil": .integer(1)]),
            "list": .array([.integer(1), .array([]), .dictionary(["k": .string("v")]), .real(-0.0)]),
            "dateNamed": .dictionary(["$date": .string("2026-11-23T10:00:00Z")]),
            "dataNamed": .dictionary(["$data": .string("AAEC")]),
            "realNamed": .dictionary(["$real": .string("nan")]),
            "dictionaryNamed": .dictionary(["$dictionary": .dictionary(["$date": .integer(1)])]),
            "twoNamed": .dictionary(["$date": .integer(1), "$data": .boolean(true)]),
            "emptyDictionary": .dictionary([:]),
            "nested": .dictionary([
                "deep": .array([.dictionary(["nil": .dictionary(["__TypedDefaults.nil": .integer(0)])])]),
                "when": .date(Date(timeIntervalSinceReferenceDate: -64_527_624_000)),
            ]),
        ]
        for (key, seconds) in dates {
            values[DefaultsStoredKey(key)] = .date(Date(timeIntervalSinceReferenceDate: seconds))
        }
        return values
    }

    @Test func aStringHoldingJSONIsNotADictionary() async throws {
        let (source, sourceStore) = try Tool.suite()
        let values: [DefaultsStoredKey: DefaultsStoredValue] = [
            "text": .string(#"{"a":1}"#), "dictionary": .dictionary(["a": .integer(1)]),
        ]
        try sourceStore.editStoredValues { $0 = values }
        let read = try await Tool.run("read", source, "--json")
        #expect(read.output == #"{"dictionary":{"a":1},"text":"{\"a\":1}"}"# + "\n")
        #expect(try await Tool.run("read", source, "text", "--json").output == #""{\"a\":1}""# + "\n")
        #expect(try await Tool.run("read", source, "dictionary", "--json").output == #"{"a":1}"# + "\n")
        let (target, targetStore) = try Tool.suite()
        let imported = try await Tool.run("import", target, "-", input: Data(read.output.utf8))
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(try targetStore.storedValues() == values)
    }

    @Test func aSuiteReadAsJSONImportsBackExactly() async throws {
        let values = try Self.everyKind()
        let (source, sourceStore) = try Tool.suite()
        try sourceStore.editStoredValues { $0 = values }
        #expect(Self.same(.dictionary(try sourceStore.storedValues()), .dictionary(values)))
        for command in [["read", source, "--json"], ["export", source, "-", "--format", "json"]] {
            let read = try await Tool.run(command)
            #expect(read.status == 0, "\(command): \(read.errors)")
            let (target, targetStore) = try Tool.suite()
            let imported = try await Tool.run("import", target, "-", input: Data(read.output.utf8))
            #expect(imported.status == 0, "\(command): \(imported.errors)")
            let back = try targetStore.storedValues()
            #expect(back.keys.sorted() == values.keys.sorted())
            for (key, value) in values {
                #expect(
                    back[key].map { Self.same($0, value) } == true,
                    "\(command) \(key): \(String(describing: back[key]))")
            }
        }
    }

    @Test func oneKeyReadAsJSONWritesBackExactly() async throws {
        let values = try Self.everyKind()
        let (source, sourceStore) = try Tool.suite()
        try sourceStore.editStoredValues { $0 = values }
        let (target, targetStore) = try Tool.suite()
        for key in values.keys.sorted().map(\.name) {
            let read = try await Tool.run("read", source, key, "--json")
            #expect(read.status == 0, "\(key): \(read.errors)")
            let written = try await Tool.run("write", target, key, "--json", String(read.output.dropLast()))
            #expect(written.status == 0, "\(key): \(written.errors)")
        }
        let back = try targetStore.storedValues()
        for (key, value) in values {
            #expect(back[key].map { Self.same($0, value) } == true, "\(key): \(String(describing: back[key]))")
        }
    }

    @Test func suitesWhoseOnlyKeyLooksLikeAFormMarkerImportBack() async throws {
        let suites: [[DefaultsStoredKey: DefaultsStoredValue]] = [
            ["__TypedDefaults.nil": .integer(0)], ["$date": .string("2026-11-23T10:00:00Z")], ["$data": .integer(1)],
            ["$dictionary": .dictionary([:])],
        ]
        for values in suites {
            let (source, sourceStore) = try Tool.suite()
            try sourceStore.editStoredValues { $0 = values }
            for command in [["read", source, "--json"], ["export", source, "-", "--format", "json"]] {
                let read = try await Tool.run(command)
                #expect(read.status == 0, "\(values) \(command): \(read.errors)")
                let (target, targetStore) = try Tool.suite()
                let imported = try await Tool.run("import", target, "-", input: Data(read.output.utf8))
                #expect(imported.status == 0, "\(values) \(command): \(imported.errors)")
                #expect(try targetStore.storedValues() == values, "\(command): \(read.output)")
            }
        }
    }

    /// The deepest text the form writes: a suite whose only key starts with `$`,
    /// holding 250 such dictionaries around a date whose interval is not finite, is 504 levels
    /// of JSON (each `{"$dictionary": {…}}`); it exports, imports, reads and writes back. One
    /// level more of the value is refused in one line.
    @Test func aValueAsDeepAsASuiteHoldsRoundTripsThroughEveryJSONCommand() async throws {
        var value = DefaultsStoredValue.date(Date(timeIntervalSinceReferenceDate: .infinity))
        for _ in 0..<250 { value = .dictionary(["$k": value]) }
        let (source, sourceStore) = try Tool.suite()
        try sourceStore.editStoredValues { $0 = ["$only": value] }
        let exported = try await Tool.run("export", source, "-", "--format", "json")
        #expect(exported.status == 0, "\(exported.errors)")
        let (target, targetStore) = try Tool.suite()
        let imported = try await Tool.run("import", target, "-", input: Data(exported.output.utf8))
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(try targetStore.storedValues() == ["$only": value])
        let read = try await Tool.run("read", source, "$only", "--json")
        #expect(read.status == 0, "\(read.errors)")
        let written = try await Tool.run("write", target, "copy", "--json", String(read.output.dropLast()))
        #expect(written.status == 0, "\(written.errors)")
        #expect(try targetStore.storedValues()["copy"] == value)

        let tooDeep = DefaultsStoredValue.dictionary(["deep": .array([value])]).json()
        let refused = try await Tool.run("import", target, "-", input: Data(tooDeep.utf8))
        #expect(refused.status == 1)
        #expect(
            refused.errors == "typed-defaults: the file does not parse as JSON: it nests deeper than the 250 levels "
                + "a suite may hold\n")
        #expect(try targetStore.storedValues()["deep"] == nil)
    }

    @Test func everySuiteReadAsJSONIsEachSuitesForm() async throws {
        // A folder of its own: the output holds every suite in it.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tool-json-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let values = try Self.everyKind()
        let suites: [String: [DefaultsStoredKey: DefaultsStoredValue]] = [
            "a.suite": values, "b.suite": ["__TypedDefaults.nil": .integer(0)], "c.suite": ["$date": .integer(1)],
        ]
        for (name, contents) in suites {
            // A binary property list, which keeps every value exactly, as the suite's file.
            let object = DefaultsStoredValue.dictionary(contents).propertyListObject
            try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
                .write(to: folder.appendingPathComponent("\(name).plist"))
        }
        let read = try await Tool.run(["read", "--json"], folder: folder)
        #expect(read.status == 0, "\(read.errors)")
        // The whole output is the JSON form of a dictionary of suites …
        let expected = DefaultsStoredValue.dictionary(
            Dictionary(
                uniqueKeysWithValues: suites.map {
                    (DefaultsStoredKey($0.key), DefaultsStoredValue.dictionary($0.value))
                }))
        #expect(Self.same(try DefaultsStoredValue(json: read.output), expected))
        // … so it imports as one, each suite a dictionary.
        let imported = try await Tool.run(["import", "all", "-"], input: Data(read.output.utf8), folder: folder)
        #expect(imported.status == 0, "\(imported.errors)")
        let back = try await Tool.run(["read", "all", "--json"], folder: folder)
        #expect(Self.same(try DefaultsStoredValue(json: back.output), expected))
        // Each suite's member is its own form: the text `read suite --json` prints.
        for name in suites.keys {
            let one = try await Tool.run(["read", name, "--json"], folder: folder)
            #expect(read.output.contains("\"\(name)\":" + String(one.output.dropLast())), "\(name)")
        }
    }

    @Test func aDeclaredKeyReadsAsStoredAndWritesBackThroughItsSchema() async throws {
        let (source, sourceStore) = try Tool.suite()
        let settings = ToolTestSettings(store: sourceStore)
        try DefaultsSchema.publish(settings)
        settings.profile = ToolTestProfile(name: "Grace")
        settings.lastOpened = Date(timeIntervalSinceReferenceDate: -64_527_624_000.5)
        settings.tags = ["a", "b"]
        try sourceStore.flush()
        try sourceStore.editStoredValues { $0["nickname"] = .dictionary(["__TypedDefaults.nil": .integer(0)]) }
        let stored = try sourceStore.storedValues()
        // Only what is stored, as stored: a Date as seconds since 2001 on Linux, no defaults.
        let whole = try await Tool.run("read", source, "--json")
        #expect(Self.same(try DefaultsStoredValue(json: whole.output), .dictionary(stored)), "\(whole.output)")
        #expect(!whole.output.contains("fontSize"))
        #expect(try await Tool.run("read", source, "profile", "--json").output == #""{\"name\":\"Grace\"}""# + "\n")
        #expect(try await Tool.run("read", source, "lastOpened", "--json").output == "-64527624000.5\n")
        #expect(try await Tool.run("read", source, "nickname", "--json").output == "null\n")
        // A key not stored: its default, as the program stores it.
        #expect(try await Tool.run("read", source, "fontSize", "--json").output == "12\n")

        let (target, targetStore) = try Tool.suite()
        try DefaultsSchema.publish(ToolTestSettings(store: targetStore))
        for key in ["profile", "lastOpened", "nickname", "tags", "fontSize"] {
            let read = try await Tool.run("read", source, key, "--json")
            let written = try await Tool.run("write", target, key, "--json", String(read.output.dropLast()))
            #expect(written.status == 0, "\(key): \(written.errors)")
        }
        var expected = stored
        expected["fontSize"] = .integer(12)
        #expect(try targetStore.storedValues() == expected)
        // The Codable value's own JSON is still taken as it is.
        #expect(try await Tool.run("write", target, "profile", "--json", #"{"name":"Ada"}"#).status == 0)
        #expect(try targetStore.storedValues()["profile"] == .string(#"{"name":"Ada"}"#))
        let notJSON = try await Tool.run("write", target, "profile", "--json", #""{name}""#)
        #expect(notJSON.status == 1)
        #expect(notJSON.errors.contains("is not JSON"), "\(notJSON.errors)")
    }

    /// Values compared exactly: floats and dates by their bits, so NaN is NaN and -0.0 not 0.0.
    static func same(_ first: DefaultsStoredValue, _ second: DefaultsStoredValue) -> Bool {
        switch (first, second) {
        case (.real(let a), .real(let b)): a.bitPattern == b.bitPattern
        case (.date(let a), .date(let b)):
            a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
        case (.array(let a), .array(let b)): a.count == b.count && zip(a, b).allSatisfy(same)
        case (.dictionary(let a), .dictionary(let b)):
            a.count == b.count && a.allSatisfy { key, value in b[key].map { same(value, $0) } ?? false }
        default: first == second
        }
    }
}
