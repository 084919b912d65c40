import Foundation
import Testing
import TypedDefaults
import TypedDefaultsSchema

/// `export` and `import`: exact round trips, what XML cannot hold, and files that do not parse.
@Suite struct ExportImportTests {
    /// Every kind of value, with the edges each format must keep.
    static let everyKind: [DefaultsStoredKey: DefaultsStoredValue] = [
        "string": .string("Ada & <Grace> \"quoted\" é 😀"),
        "lines": .string("one\r\ntwo\rthree\n"),
        "empty": .string(""),
        "min": .integer(.min),
        "max": .unsignedInteger(.max),
        "zero": .integer(0),
        "real": .real(0.1),
        "whole": .real(1),
        "tiny": .real(.leastNonzeroMagnitude),
        "infinite": .real(-.infinity),
        "yes": .boolean(true),
        "no": .boolean(false),
        "date": .date(Date(timeIntervalSince1970: 1_795_428_000)),
        "data": .data(Data([0, 1, 254, 255])),
        "nothing": .data(Data()),
        "list": .array([.integer(1), .array([]), .dictionary(["k": .string("v")])]),
        "map": .dictionary(["nested": .dictionary(["deep": .array([.boolean(true)])]), "$date": .string("a key")]),
        "nil": .dictionary(["__TypedDefaults.nil": .integer(0)]),
        "json": .string(#"{"name":"Ada","tags":[1,2]}"#),
    ]

    @Test func jsonExportImportsBackExactly() async throws {
        let (source, sourceStore) = try Tool.suite()
        var values = Self.everyKind
        values["fraction"] = .date(Date(timeIntervalSinceReferenceDate: 123_456_789.123_456_789))
        values["nan"] = .real(.nan)
        values["control"] = .string("bell\u{7} null\u{0}")
        try sourceStore.editStoredValues { $0 = values }
        let exported = try await Tool.run("export", source, "-", "--format", "json")
        #expect(exported.status == 0, "\(exported.errors)")
        let (target, targetStore) = try Tool.suite()
        let imported = try await Tool.run("import", target, "-", input: Data(exported.output.utf8))
        #expect(imported.status == 0, "\(imported.errors)")
        let back = try targetStore.storedValues()
        #expect(back.count == values.count)
        for (key, value) in values {
            let copy = try #require(back[key], "\(key)")
            if case .real(let number) = value, number.isNaN {
                #expect(copy.json() == value.json())
            } else {
                #expect(copy == value, "\(key): \(copy)")
            }
        }
        // To a file and back, too; both files are what other parsers read.
        let file = Tool.folder.appendingPathComponent("\(source).export.json")
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try await Tool.run("export", source, file.path, "--format", "json").status == 0)
        #expect(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) is [String: Any])
    }

    @Test func xmlExportImportsBackWhatXMLHoldsAndSaysWhatItRounds() async throws {
        let (source, sourceStore) = try Tool.suite()
        try sourceStore.editStoredValues { $0 = Self.everyKind }
        let file = Tool.folder.appendingPathComponent("\(source).export.plist")
        defer { try? FileManager.default.removeItem(at: file) }
        let exported = try await Tool.run("export", source, file.path)
        #expect(exported.status == 0, "\(exported.errors)")
        #expect(exported.errors.isEmpty)
        // Foundation's parser reads the file as it is.
        let parsed = try PropertyListSerialization.propertyList(from: Data(contentsOf: file), format: nil)
        #expect(DefaultsStoredValue(propertyListObject: parsed) == .dictionary(Self.everyKind))
        let (target, targetStore) = try Tool.suite()
        #expect(try await Tool.run("import", target, file.path).status == 0)
        #expect(try targetStore.storedValues() == Self.everyKind)

        // A fraction of a second: rounded down in XML, with a warning naming the key.
        try sourceStore.editStoredValues { $0["stamp"] = .date(Date(timeIntervalSince1970: 1_795_428_000.75)) }
        let rounded = try await Tool.run("export", source)
        #expect(rounded.status == 0)
        #expect(rounded.errors.contains("warning: stamp: the date 2026-11-23 10:00:00.75 +0000 loses its fraction"))
        #expect(rounded.output.contains("<date>2026-11-23T10:00:00Z</date>"))
        // A control character XML cannot hold: refused, nothing written.
        try sourceStore.editStoredValues { $0["bell"] = .string("ding\u{7}") }
        let refused = try await Tool.run("export", source, file.path)
        #expect(refused.status == 1)
        #expect(refused.errors.contains("bell: U+0007 cannot be written in XML"))
    }

    @Test func importReplacesOrMergesAndRefusesBadFilesWritingNothing() async throws {
        let (suite, store) = try Tool.suite()
        try store.editStoredValues { $0 = ["kept": .integer(1), "replaced": .integer(2)] }
        let merge = Data(#"{"replaced": 3, "added": true}"#.utf8)
        #expect(try await Tool.run("import", suite, "-", "--merge", input: merge).status == 0)
        #expect(try store.storedValues() == ["kept": .integer(1), "replaced": .integer(3), "added": .boolean(true)])
        #expect(try await Tool.run("import", suite, "-", input: Data(#"{"only": "this"}"#.utf8)).status == 0)
        #expect(try store.storedValues() == ["only": .string("this")])

        let before = try Data(contentsOf: Tool.file(of: suite))
        let bad: [(String, String)] = [
            ("", "does not parse"), ("{", "does not parse as JSON"), (#"{"a": 1e999}"#, "beyond the range"),
            ("[1, 2]", "does not parse"), ("<plist><dict><key>a</key></dict></plist>", "does not parse"),
            ("not anything", "does not parse"), ("null", "not a dictionary"),
            (#"{"a": {"$data": "!!"}}"#, "not Base64"),
        ]
        for (text, message) in bad {
            let result = try await Tool.run("import", suite, "-", input: Data(text.utf8))
            #expect(result.status == 1, "\(text)")
            #expect(result.errors.contains(message), "\(text): \(result.errors)")
        }
        let arrayPlist = try PropertyListSerialization.data(fromPropertyList: [1, 2], format: .xml, options: 0)
        let notDictionary = try await Tool.run("import", suite, "-", input: arrayPlist)
        #expect(notDictionary.errors.contains("the file holds an array, not a dictionary of keys"))
        let missing = try await Tool.run("import", suite, "/nonexistent/file.plist")
        #expect(missing.status == 1)
        #expect(missing.errors.contains("cannot read /nonexistent/file.plist"))
        // A binary property list, as other tools write them, imports too.
        let binary = try PropertyListSerialization.data(fromPropertyList: ["b": 2], format: .binary, options: 0)
        #expect(try Data(contentsOf: Tool.file(of: suite)) == before)
        #expect(try await Tool.run("import", suite, "-", input: binary).status == 0)
        #expect(try store.storedValues() == ["b": .integer(2)])
    }

    @Test func importIsCheckedAgainstThePublishedSchema() async throws {
        let (suite, store) = try Tool.suite()
        try DefaultsSchema.publish(ToolTestSettings(store: store))
        #expect(try await Tool.run("write", suite, "fontSize", "20").status == 0)
        let outOfRange = try await Tool.run("import", suite, "-", input: Data(#"{"fontSize": 500}"#.utf8))
        #expect(outOfRange.status == 1)
        #expect(outOfRange.errors.contains("cannot import fontSize: 500 is above the range 8 to 72"))
        #expect(try store.storedValues() == ["fontSize": .integer(20)])
        let notAnOption = try await Tool.run("import", suite, "-", input: Data(#"{"theme": "purple"}"#.utf8))
        #expect(notAnOption.status == 1)
        #expect(notAnOption.errors.contains(#"cannot import theme: "purple" is not one of the options"#))
        #expect(try store.storedValues() == ["fontSize": .integer(20)])
        #expect(
            try await Tool.run("import", suite, "-", "--force", input: Data(#"{"fontSize": 500}"#.utf8)).status == 0)
        #expect(try store.storedValues() == ["fontSize": .integer(500)])
    }
}
