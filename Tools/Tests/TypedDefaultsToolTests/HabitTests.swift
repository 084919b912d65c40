import Foundation
import Testing
import TypedDefaults
import TypedDefaultsSchema

/// A window's layout, as an app stores it: a `Codable` setting whose JSON shape the schema
/// publishes.
struct ToolTestLayout: Codable, DefaultsValueConvertible, Sendable {
    struct Point: Codable, Sendable {
        var x = 0.0, y = 0.0
    }
    var width = 800
    var height = 600
    var origin = Point()
    var title: String? = "Main"
    var panels: [String: Bool] = ["sidebar": true]
}

/// The tool behaves as `defaults` and `gsettings` users expect, run as a process
/// against real suites.
@Suite struct HabitTests {
    /// `defaults read DOMAIN KEY` prints a string as it is: scripts take it with `$(…)`.
    @Test func readPrintsOneStringAsItIsAndQuotesOnlyInsideCollections() async throws {
        let (suite, store) = try Tool.suite()
        UserDefault(wrappedValue: "", "name", store: store).wrappedValue = "Ada Lovelace"
        UserDefault(wrappedValue: [String](), "names", store: store).wrappedValue = ["Ada Lovelace", "Grace"]
        let name = try await Tool.run("read", suite, "name")
        #expect(name.output == "Ada Lovelace\n", "\(name.errors)")
        let names = try await Tool.run("read", suite, "names")
        #expect(names.output == "(\n    \"Ada Lovelace\",\n    Grace\n)\n")
        let suiteText = try await Tool.run("read", suite)
        #expect(suiteText.output.contains("name = \"Ada Lovelace\";"), "\(suiteText.output)")
    }

    /// Without a type flag or a schema, a key keeps the type stored there; a value that does not
    /// parse as it is refused, naming the type, and nothing is written.
    @Test func writeWithoutAFlagKeepsTheStoredType() async throws {
        let (suite, store) = try Tool.suite()
        let count = UserDefault(wrappedValue: 0, "count", store: store)
        let ratio = UserDefault(wrappedValue: 0.0, "ratio", store: store)
        let flag = UserDefault(wrappedValue: false, "flag", store: store)
        count.wrappedValue = 3
        ratio.wrappedValue = 0.5
        flag.wrappedValue = true

        #expect(try await Tool.run("write", suite, "count", "7").status == 0)
        #expect(try await Tool.run("write", suite, "ratio", "2").status == 0)
        #expect(try await Tool.run("write", suite, "flag", "no").status == 0)
        store.refresh()
        #expect(try Self.stored(suite, "count") == .integer(7))
        #expect(try Self.stored(suite, "ratio") == .real(2))
        #expect(try Self.stored(suite, "flag") == .boolean(false))

        let refused = try await Tool.run("write", suite, "count", "seven")
        #expect(refused.status == 1)
        #expect(
            refused.errors
                == "typed-defaults: count holds an integer and \"seven\" is not an integer; nothing was written "
                + "(--string, or another type flag, writes a value of another type)\n")
        #expect(try Self.stored(suite, "count") == .integer(7))

        // On purpose: a string replaces the integer.
        #expect(try await Tool.run("write", suite, "count", "--string", "seven").status == 0)
        #expect(try Self.stored(suite, "count") == .string("seven"))
        // A new key, with nothing stored, is a string as before.
        #expect(try await Tool.run("write", suite, "fresh", "42").status == 0)
        #expect(try Self.stored(suite, "fresh") == .string("42"))
    }

    /// `gsettings get`, `set` and `monitor` are spellings of `read`, `write` and `watch`; an
    /// unknown command names the nearest real one.
    @Test func gsettingsSpellingsAndTheNearestCommand() async throws {
        let (suite, _) = try Tool.suite()
        #expect(try await Tool.run("set", suite, "greeting", "hello").status == 0)
        let got = try await Tool.run("get", suite, "greeting")
        #expect(got.output == "hello\n", "\(got.errors)")

        let monitor = try Tool.Running(["monitor", suite])
        #expect(await monitor.waitFor("Watching \(suite)", partly: true), "\(monitor.text)")
        #expect(try await Tool.run("set", suite, "greeting", "again").status == 0)
        #expect(await monitor.waitFor("greeting: again", partly: true), "\(monitor.text)")
        monitor.stop()

        for (typed, nearest) in [
            ("raed", "read"), ("wirte", "write"), ("lst-keys", "list-keys"), ("monitr", "monitor"),
        ] {
            let wrong = try await Tool.run(typed, suite)
            #expect(wrong.status == 64)
            #expect(
                wrong.errors == "typed-defaults: unknown command '\(typed)'; did you mean '\(nearest)'? "
                    + "(see 'typed-defaults --help')\n")
        }
        let unknown = try await Tool.run("frobnicate")
        #expect(unknown.status == 64)
        #expect(unknown.errors == "typed-defaults: unknown command 'frobnicate' (see 'typed-defaults --help')\n")
    }

    /// The schema publishes a `Codable` setting's members; a write that lacks one, or gives one
    /// the wrong JSON type, is refused naming the member; `describe` shows the shape.
    @Test func aCodableSettingsShapeIsPublishedAndChecked() async throws {
        let (suite, store) = try Tool.suite()
        let layout = DefaultsKey<ToolTestLayout>("layout", default: ToolTestLayout(), store: store)
        _ = try DefaultsSchema.publish(keys: [layout])

        let described = try await Tool.run("describe", suite, "layout")
        #expect(
            described.output.contains(
                "shape: object {height: number, origin: object {x: number, y: number}, panels: object of boolean, "
                    + "title?: string, width: number}"), "\(described.output)")

        let cases: [(json: String, problem: String?)] = [
            (#"{"width": 1}"#, "member height (number) is missing"),
            (
                #"{"width": 1, "height": "tall", "origin": {"x": 0, "y": 0}, "panels": {}}"#,
                "member height should be a number, not the string \"tall\""
            ),
            (#"{"width": 1, "height": 2, "origin": {"x": 0}, "panels": {}}"#, "member origin.y (number) is missing"),
            (
                #"{"width": 1, "height": 2, "origin": {"x": 0, "y": 0}, "panels": {"a": 1}}"#,
                "member panels.a should be a boolean, not the number 1"
            ),
            (#"{"width": 1, "height": 2, "origin": {"x": 0, "y": 0}, "panels": {"inspector": false}}"#, nil),
            (#"{"width": 1, "height": 2, "origin": {"x": 0, "y": 0}, "panels": {}, "title": null}"#, nil),
        ]
        for (json, problem) in cases {
            let written = try await Tool.run("write", suite, "layout", json)
            if let problem {
                #expect(written.status == 1, "\(json)")
                #expect(written.errors == "typed-defaults: cannot write layout: \(problem); nothing was written\n")
            } else {
                #expect(written.status == 0, "\(json): \(written.errors)")
            }
        }
        // What was accepted decodes.
        store.refresh()
        #expect(UserDefault(layout, store: store).wrappedValue.width == 1)
    }

    /// `help write`'s examples fit 80 columns (nothing wraps mid-line) and put the type flag
    /// after the key, in the order macOS `defaults write DOMAIN KEY -int 3` takes.
    @Test func helpWriteFitsAndShowsTheMacOSOrder() async throws {
        let help = try await Tool.run("help", "write")
        let lines = help.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines.filter { $0.count > 80 })")
        #expect(help.output.contains("  typed-defaults write com.example.app fontSize -int 14\n"))
        let (suite, _) = try Tool.suite()
        #expect(try await Tool.run("write", suite, "count", "-int", "3").status == 0)
        #expect(try Self.stored(suite, "count") == .integer(3))
    }

    /// What the suite's file holds for `key`, read by a fresh store of the tool's own kind.
    static func stored(_ suite: String, _ key: String) throws -> DefaultsStoredValue? {
        let data = try Data(contentsOf: Tool.file(of: suite))
        let root = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        return root?[key].flatMap { DefaultsStoredValue(propertyListObject: $0) }
    }
}
