import Foundation
import Testing
import TypedDefaults

final class ToolTestColor: NSObject, NSSecureCoding, DefaultsValueConvertible, @unchecked Sendable {
    static let supportsSecureCoding = true
    let hue: Double

    init(hue: Double) {
        self.hue = hue
    }

    init?(coder: NSCoder) {
        hue = coder.decodeDouble(forKey: "hue")
    }

    func encode(with coder: NSCoder) {
        coder.encode(hue, forKey: "hue")
    }
}

/// Every command, run as the built tool against real suites.
@Suite struct CommandTests {
    @Test func everyTypeFlagWritesItsTypeAndTypedReadsSeeIt() async throws {
        let (suite, store) = try Tool.suite()
        let writes: [([String], DefaultsStoredValue)] = [
            (["count", "--int", "3"], .integer(3)),
            (["integer", "--integer", "-9223372036854775808"], .integer(.min)),
            (["big", "-int", "18446744073709551615"], .unsignedInteger(.max)),
            (["negative", "-integer", "-5"], .integer(-5)),
            (["ratio", "--float", "0.25"], .real(0.25)),
            (["whole", "-float", "1"], .real(1)),
            (["real", "--real", "nan"], .real(.nan)),
            (["flag", "--bool", "YES"], .boolean(true)),
            (["off", "-boolean", "false"], .boolean(false)),
            (["name", "--string", "Ada Lovelace"], .string("Ada Lovelace")),
            (["plain", "-5"], .string("-5")),
            (["dash", "--string", "--"], .string("--")),
            (["option", "--string", "-x"], .string("-x")),
            (["ended", "--", "-y"], .string("-y")),
            (["when", "--date", "2026-11-23T10:00:00.25Z"], .date(Date(timeIntervalSince1970: 1_795_428_000.25))),
            (["macos", "-date", "2026-11-23 10:00:00 +0000"], .date(Date(timeIntervalSince1970: 1_795_428_000))),
            (["blob", "--data", "cafe00"], .data(Data([0xCA, 0xFE, 0]))),
            (["home", "--url", "https://example.com/a?b=c"], .string("https://example.com/a?b=c")),
            (["tags", "--array", "red", "green"], .array([.string("red"), .string("green")])),
            (["sizes", "-array", "--int", "1", "2"], .array([.integer(1), .integer(2)])),
            (["empty", "--array"], .array([])),
            (
                ["limits", "--dict", "--int", "low", "1", "high", "9"],
                .dictionary(["low": .integer(1), "high": .integer(9)])
            ),
            (["names", "-dict", "a", "x"], .dictionary(["a": .string("x")])),
            (
                ["doc", "--json", #"{"a": [1, 2.5, true], "d": {"$date": "2026-11-23T10:00:00Z"}}"#],
                .dictionary([
                    "a": .array([.integer(1), .real(2.5), .boolean(true)]),
                    "d": .date(Date(timeIntervalSince1970: 1_795_428_000)),
                ])
            ),
            (["cleared", "--json", "null"], .dictionary(["__TypedDefaults.nil": .integer(0)])),
        ]
        for (arguments, _) in writes {
            let result = try await Tool.run(["write", suite] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.errors)")
        }
        let stored = try store.storedValues()
        for (arguments, expected) in writes {
            let value = try #require(stored[DefaultsStoredKey(arguments[0])], "\(arguments)")
            #expect(Self.same(value, expected), "\(arguments): \(value)")
        }
        // Typed reads in this process see them.
        @UserDefault("count", store: store) var count = 0
        @UserDefault("big", store: store) var big: UInt64 = 0
        @UserDefault("tags", store: store) var tags: [String] = []
        @UserDefault("cleared", store: store) var cleared: String? = "default"
        #expect(count == 3)
        #expect(big == .max)
        #expect(tags == ["red", "green"])
        #expect(cleared == nil)
    }

    @Test func readShowsValuesAsTheyWereWritten() async throws {
        let (suite, store) = try Tool.suite()
        struct Profile: Codable, DefaultsValueConvertible, Sendable {
            var name = "Ada"
        }
        @UserDefault("profile", store: store) var profile = Profile()
        @UserDefault("team", store: store) var team: String? = "Lions"
        @UserDefault("count", store: store) var count = 0
        @UserDefault("when", store: store) var when = Date.distantPast
        @UserDefault("stamp", store: store) var stamp = ToolTestColor(hue: 0)
        profile = Profile(name: "Grace")
        team = nil
        count = 7
        when = Date(timeIntervalSince1970: 1_795_428_000.5)
        stamp = ToolTestColor(hue: 0.5)
        try store.flush()

        let whole = try await Tool.run("read", suite)
        #expect(whole.status == 0, "\(whole.errors)")
        #expect(whole.output.contains(#"profile = {"name":"Grace"};"#))
        #expect(whole.output.contains("team = nil;"))
        #expect(whole.output.contains("count = 7;"))
        // A Date is stored as seconds since 2001 on Linux: exact. Without a schema it shows as such.
        #expect(whole.output.contains("when = 817120800.5;"))
        #expect(whole.output.contains("stamp = <keyed archive of TypedDefaultsToolTests.ToolTestColor, "))
        #expect(try await Tool.run("read", suite, "count").output == "7\n")
        #expect(try await Tool.run("read", suite, "team").output == "nil\n")

        let json = try await Tool.run("read", suite, "--json")
        let parsed = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        // JSON prints what is stored: the Codable value's JSON as the string it is, the archive as data.
        #expect(parsed?["profile"] as? String == #"{"name":"Grace"}"#)
        #expect(parsed?["team"] is NSNull)
        #expect(parsed?["count"] as? Int == 7)
        #expect(parsed?["when"] as? Double == 817_120_800.5)
        let archive = try #require(parsed?["stamp"] as? [String: Any])
        #expect(archive.keys.sorted() == ["$data"])
        #expect((archive["$data"] as? String).flatMap { Data(base64Encoded: $0) } != nil)

        #expect(try await Tool.run("read-type", suite, "count").output == "Type is integer\n")
        #expect(try await Tool.run("read-type", suite, "profile").output == "Type is string (Codable JSON)\n")
        #expect(try await Tool.run("read-type", suite, "team").output == "Type is dictionary (explicit nil)\n")
        let type = try await Tool.run("read-type", suite, "stamp", "--json")
        #expect(
            type.output
                == #"{"type":"data","encoding":"keyed archive of TypedDefaultsToolTests.ToolTestColor","stored":true}"#
                + "\n")

    }

    @Test func commandsOverEverySuiteListEachAndReportTheOnesTheyCannotRead() async throws {
        // A folder of its own: what these commands print depends on every suite in it.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tool-all-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try await Tool.run(["write", "b.suite", "k", "--int", "1"], folder: folder).status == 0)
        #expect(try await Tool.run(["write", "a.suite", "name", "Ada"], folder: folder).status == 0)
        #expect(try await Tool.run(["domains"], folder: folder).output == "a.suite, b.suite\n")
        #expect(try await Tool.run(["domains", "--json"], folder: folder).output == #"["a.suite","b.suite"]"# + "\n")
        #expect(
            try await Tool.run(["read"], folder: folder).output
                == "a.suite = {\n    name = Ada;\n};\nb.suite = {\n    k = 1;\n};\n")
        #expect(
            try await Tool.run(["read", "--json"], folder: folder).output
                == #"{"a.suite":{"name":"Ada"},"b.suite":{"k":1}}"# + "\n")
        #expect(try await Tool.run(["list-recursively"], folder: folder).output == "a.suite name Ada\nb.suite k 1\n")

        try Tool.writeAtRest(Data("garbage".utf8), to: folder.appendingPathComponent("c.suite.plist"))
        for arguments in [["read"], ["list-recursively"], ["read", "--json"]] {
            let result = try await Tool.run(arguments, folder: folder)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.output.contains("a.suite"), "\(arguments)")
            #expect(result.output.contains("b.suite"), "\(arguments)")
            #expect(result.errors.contains("c.suite.plist does not parse"), "\(arguments): \(result.errors)")
        }
        #expect(try await Tool.run(["domains"], folder: folder).output == "a.suite, b.suite, c.suite\n")
    }

    @Test func deleteRenameAndResetChangeOnlyWhatTheyName() async throws {
        let (suite, store) = try Tool.suite()
        for (key, value) in [("a", "1"), ("b", "2"), ("c", "3")] {
            #expect(try await Tool.run("write", suite, key, "--int", value).status == 0)
        }
        #expect(try await Tool.run("rename", suite, "a", "renamed").status == 0)
        #expect(try await Tool.run("delete", suite, "b").status == 0)
        #expect(try await Tool.run("reset", suite, "c").status == 0)
        #expect(try await Tool.run("reset", suite, "never-stored").status == 0)
        #expect(try store.storedValues() == ["renamed": .integer(1)])

        let missing = try await Tool.run("delete", suite, "b")
        #expect(missing.status == 1)
        #expect(
            missing.errors == "typed-defaults: the key b does not exist in the suite \(suite); nothing was deleted\n")
        #expect(try await Tool.run("write", suite, "other", "x").status == 0)
        let taken = try await Tool.run("rename", suite, "renamed", "other")
        #expect(taken.status == 1)
        #expect(taken.errors.contains("already holds a value"))
        #expect(try await Tool.run("rename", suite, "absent", "new").status == 1)
        #expect(try store.storedValues() == ["renamed": .integer(1), "other": .string("x")])

        #expect(try await Tool.run("delete", suite).status == 0)
        #expect(!FileManager.default.fileExists(atPath: Tool.file(of: suite).path))
    }

    @Test func badInputIsRefusedWithAMessageAndWritesNothing() async throws {
        let (suite, store) = try Tool.suite()
        #expect(try await Tool.run("write", suite, "kept", "--int", "1").status == 0)
        let before = try Data(contentsOf: Tool.file(of: suite))
        let refused: [([String], String)] = [
            (["read", "no-such-suite-\(UUID())"], "does not exist"),
            (["read", suite, "missing"], "the key missing does not exist"),
            (["read", "../escape"], "is not a suite name"),
            (["write", "a/b", "k", "v"], "is not a suite name"),
            (["write", String(repeating: "x", count: 300), "k", "v"], "is not a suite name"),
            (["write", suite, "n", "--int", "1.5"], #""1.5" is not an integer"#),
            (["write", suite, "n", "--int", "99999999999999999999"], "outside the integers"),
            (["write", suite, "n", "--float", "fast"], "is not a number"),
            (["write", suite, "n", "--bool", "maybe"], "is not a boolean"),
            (["write", suite, "n", "--date", "yesterday"], "is not a date"),
            (["write", suite, "n", "--data", "xyz"], "is not hexadecimal"),
            (["write", suite, "n", "--url", "not a url"], "is not a URL"),
            (["write", suite, "n", "--json", "{bad"], "not JSON"),
            (["write", suite, "n", "--dict", "a"], "key value pairs"),
            (["write", suite, "n", "one", "two"], "write takes one value"),
            (["write", suite, "n"], "write needs a value"),
            (["read-type", suite, "missing"], "does not exist"),
            (["rename", suite, "missing", "x"], "does not exist"),
            (["list-keys", suite], "no schema is published"),
        ]
        for (arguments, message) in refused {
            let result = try await Tool.run(arguments)
            #expect(result.status != 0, "\(arguments)")
            #expect(result.errors.contains(message), "\(arguments): \(result.errors)")
        }
        let badFlag = try await Tool.run("write", suite, "n", "--integer32", "1")
        #expect(badFlag.status != 0)
        let twoTypes = try await Tool.run("write", suite, "n", "--int", "--float", "1")
        #expect(twoTypes.status != 0)
        #expect(try Data(contentsOf: Tool.file(of: suite)) == before)
        #expect(try store.storedValues() == ["kept": .integer(1)])
    }

    @Test func everyCommandHasHelpWithAnExample() async throws {
        let commands = [
            "domains", "read", "read-type", "write", "delete", "rename", "reset", "export", "import", "watch",
            "list-keys", "describe", "range", "list-recursively",
        ]
        for command in commands {
            let help = try await Tool.run(command, "--help")
            #expect(help.status == 0, "\(command)")
            #expect(help.output.contains("typed-defaults \(command)"), "\(command): \(help.output)")
        }
        let root = try await Tool.run("--help")
        #expect(root.output.contains("SUBCOMMANDS"))
        for shell in ["bash", "zsh", "fish"] {
            let script = try await Tool.run("--generate-completion-script", shell)
            #expect(script.status == 0)
            #expect(script.output.contains("list-recursively"), "\(shell)")
        }
    }

    /// Values compared as stored: NaN equal to NaN.
    static func same(_ first: DefaultsStoredValue, _ second: DefaultsStoredValue) -> Bool {
        switch (first, second) {
        case (.real(let a), .real(let b)): a == b || (a.isNaN && b.isNaN)
        default: first == second
        }
    }
}
