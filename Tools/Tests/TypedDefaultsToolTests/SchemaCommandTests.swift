import Foundation
import Testing
import TypedDefaults
import TypedDefaultsSchema

enum ToolTestTheme: String, CaseIterable, DefaultsValueConvertible, Sendable {
    case system, light, dark
}

struct ToolTestProfile: Codable, DefaultsValueConvertible, Sendable {
    var name = "Ada"
}

/// A program's settings, published as its schema.
struct ToolTestSettings: SettingsCatalog {
    @Setting var fontSize: Int
    @Setting var volume: Double
    @Setting var theme: ToolTestTheme
    @Setting var profile: ToolTestProfile
    @Setting var nickname: String?
    @Setting var small: UInt8
    @Setting var lastOpened: Date
    @Setting var tags: [String]
    @Setting var quality: Int

    init(store: DefaultsStore) {
        _fontSize = Setting(
            wrappedValue: 12, "fontSize", title: "Font size", info: "Text size in points.", range: 8...72, step: 2,
            store: store)
        _volume = Setting(wrappedValue: 0.5, "volume", title: "Volume", range: 0...1, step: 0.1, store: store)
        _theme = Setting(wrappedValue: .system, "theme", title: "Theme", store: store)
        _profile = Setting(wrappedValue: ToolTestProfile(), "profile", title: "Profile", store: store)
        _nickname = Setting(wrappedValue: nil, "nickname", title: "Nickname", store: store)
        _small = Setting(wrappedValue: 7, "small", title: "Small", store: store)
        _lastOpened = Setting(
            wrappedValue: Date(timeIntervalSince1970: 1_795_428_000), "lastOpened", title: "Last opened", store: store)
        _tags = Setting(wrappedValue: [], "tags", title: "Tags", store: store)
        _quality = Setting(
            wrappedValue: 720, "quality", title: "Quality", options: [240, 480, 720, 1080], format: { "\($0)p" },
            store: store)
    }
}

/// The commands over a published schema, and the checks it makes of `write` and `import`.
@Suite struct SchemaCommandTests {
    /// A suite whose program published its schema, with `fontSize` stored as 14.
    func publishedSuite(_ label: String = #function) throws -> (name: String, store: DefaultsStore) {
        let (suite, store) = try Tool.suite(label)
        let launchCount = DefaultsKey<Int>("launchCount", default: 0, store: store)
        try DefaultsSchema.publish(ToolTestSettings(store: store), keys: [launchCount])
        ToolTestSettings(store: store).fontSize = 14
        try store.flush()
        return (suite, store)
    }

    @Test func listKeysDescribeAndRangeShowTheSchema() async throws {
        let (suite, _) = try publishedSuite()
        let keys = try await Tool.run("list-keys", suite)
        #expect(
            keys.output.split(separator: "\n") == [
                "fontSize", "volume", "theme", "profile", "nickname", "small", "lastOpened", "tags", "quality",
                "launchCount",
            ])
        let described = try await Tool.run("describe", suite, "fontSize")
        #expect(
            described.output == """
                Font size
                Text size in points.
                key: fontSize
                type: Int, stored as integer (-9223372036854775808 to 9223372036854775807)
                default: 12
                range: 8 to 72, step 2
                value: 14
                source: the user's

                """)
        let volume = try await Tool.run("describe", suite, "volume")
        #expect(volume.output.contains("value: the default (nothing stored)"))
        #expect(try await Tool.run("range", suite, "fontSize").output == "range integer 8 72\nstep 2\n")
        #expect(try await Tool.run("range", suite, "volume").output == "range float 0.0 1.0\nstep 0.1\n")
        #expect(
            try await Tool.run("range", suite, "theme").output
                == "options string\nsystem\tsystem\nlight\tlight\ndark\tdark\n")
        #expect(
            try await Tool.run("range", suite, "quality").output
                == "options integer\n240\t240p\n480\t480p\n720\t720p\n1080\t1080p\n")
        #expect(try await Tool.run("range", suite, "profile").output == "type string\n")
        let quality = try await Tool.run("describe", suite, "quality")
        #expect(
            quality.output.contains(
                "default: 720 (shown as 720p)\noptions: 240 (240p), 480 (480p), 720 (720p), 1080 (1080p)\n"))
        #expect(try await Tool.run("range", suite, "small").output == "type integer\nbounds 0 255\n")
        let unknown = try await Tool.run("describe", suite, "nope")
        #expect(unknown.status == 1)
        #expect(unknown.errors.contains("declares no key nope"))
    }

    @Test func readAndListRecursivelyShowDefaultsForKeysNotStored() async throws {
        let (suite, _) = try publishedSuite()
        let read = try await Tool.run("read", suite)
        #expect(read.output.contains("fontSize = 14;\n"))
        #expect(read.output.contains("volume = 0.5; /* default */"))
        #expect(read.output.contains(#"profile = {"name":"Ada"}; /* default */"#))
        #expect(read.output.contains(#"lastOpened = "2026-11-23 10:00:00 +0000"; /* default */"#))
        #expect(try await Tool.run("read", suite, "theme").output == "system\n")
        #expect(
            try await Tool.run("read-type", suite, "volume").output
                == "Type is float\nDeclared as Double; not stored, the default\n")
        let listed = try await Tool.run("list-recursively", suite)
        #expect(listed.output.contains("\(suite) fontSize 14\n"))
        #expect(listed.output.contains("\(suite) volume 0.5\n"))
        #expect(listed.output.contains("\(suite) launchCount 0\n"))
    }

    @Test func writeParsesByTheSchemaAndRefusesWhatItDoesNotAllow() async throws {
        let (suite, store) = try publishedSuite()
        let accepted: [[String]] = [
            ["fontSize", "16"], ["volume", "0.7"], ["volume", "1"], ["theme", "dark"],
            ["profile", #"{"name":"Grace"}"#],
            ["nickname", "Bobbie"], ["small", "255"], ["lastOpened", "2026-12-01T08:30:00.5Z"], ["tags", "a", "b"],
            ["launchCount", "--int", "3"], ["quality", "1080"],
        ]
        for arguments in accepted {
            let result = try await Tool.run(["write", suite] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.errors)")
        }
        // The file watcher brings the tool's writes in soon; a refresh, now.
        store.refresh()
        let settings = ToolTestSettings(store: store)
        #expect(settings.fontSize == 16)
        #expect(settings.volume == 1)
        #expect(settings.theme == .dark)
        #expect(settings.profile.name == "Grace")
        #expect(settings.nickname == "Bobbie")
        #expect(settings.small == 255)
        #expect(settings.lastOpened == Date(timeIntervalSince1970: 1_796_113_800.5))
        #expect(settings.tags == ["a", "b"])
        #expect(settings.quality == 1080)
        #expect(try await Tool.run("write", suite, "nickname", "--json", "null").status == 0)
        store.refresh()
        #expect(settings.nickname == nil)

        let before = try Data(contentsOf: Tool.file(of: suite))
        let refused: [([String], String)] = [
            (["fontSize", "100"], "cannot write fontSize: 100 is above the range 8 to 72; nothing was written"),
            (["fontSize", "4"], "4 is below the range 8 to 72"),
            (["fontSize", "big"], #""big" is not an integer"#),
            (["fontSize", "--string", "14"], "expected integer"),
            (["volume", "1.5"], "above the range"),
            (["volume", "nan"], "outside the range"),
            (["small", "256"], "outside the bounds of the type, 0 to 255"),
            (["small", "-1"], "outside the bounds"),
            (["profile", "{name: Grace}"], "is not JSON"),
            (["lastOpened", "soon"], "is not a date"),
            (["tags", "--array", "--int", "1"], "element 0: expected string, found integer"),
            (["undeclared", "1"], "declares no key undeclared"),
            (
                ["theme", "purple"],
                #""purple" is not one of the options: "system", "light", "dark"; nothing was written"#
            ),
            (["quality", "1000"], "1000 is not one of the options: 240, 480, 720, 1080"),
        ]
        for (arguments, message) in refused {
            let result = try await Tool.run(["write", suite] + arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.errors.contains(message), "\(arguments): \(result.errors)")
        }
        #expect(try Data(contentsOf: Tool.file(of: suite)) == before)
        #expect(try await Tool.run("write", suite, "undeclared", "1", "--force").status == 0)
        #expect(try store.storedValues()["undeclared"] == .string("1"))

        let reset = try await Tool.run("reset", suite, "fontSize")
        #expect(reset.output == "fontSize = 12 (default)\n")
        store.refresh()
        #expect(settings.fontSize == 12)
    }
}
