import Foundation
import Testing
import TypedDefaults

/// A suite an administrator manages, in a folder of the test's own: the tool runs with
/// `XDG_CONFIG_DIRS` at `admin`, `XDG_CONFIG_HOME` at `user` and `HOME` at the folder, since the
/// library reads the administrator's folders once per process. The user stores `fontSize` 14
/// (locked, no administrator's value), `net.proxy` (locked by `net.*`, with an administrator's
/// value), `channel` "beta" (over the administrator's default "stable"), `volume` 3 (bounded 1
/// to 50) and `free`; `limit` has the administrator's default 5 only.
struct ManagedSuite {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("typed-defaults-managed-\(UUID())")
    let suite = "tool-tests.managed"
    var admin: URL { root.appendingPathComponent("admin") }
    var user: URL { root.appendingPathComponent("user") }
    var userFile: URL { user.appendingPathComponent("\(suite).plist") }
    var defaults: URL { admin.appendingPathComponent("\(suite).plist") }
    var locks: URL { admin.appendingPathComponent("\(suite).locks") }
    var bounds: URL { admin.appendingPathComponent("\(suite).bounds") }

    init() throws {
        for folder in [admin, user] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let values: [String: Any] = [
            "fontSize": 14, "net.proxy": "http://mine", "channel": "beta", "volume": 3, "free": "x",
        ]
        try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0).write(to: userFile)
        let administratorDefaults: [String: Any] = ["channel": "stable", "limit": 5, "net.proxy": "http://proxy"]
        try PropertyListSerialization.data(fromPropertyList: administratorDefaults, format: .xml, options: 0)
            .write(to: defaults)
        try Data("# locked by the administrator\nfontSize\nnet.*\n".utf8).write(to: locks)
        let ranges: [String: Any] = ["volume": ["minimum": 1, "maximum": 50]]
        try PropertyListSerialization.data(fromPropertyList: ranges, format: .xml, options: 0).write(to: bounds)
        try Data(schema.utf8).write(to: user.appendingPathComponent("\(suite).schema.json"))
    }

    /// The program's schema, as DefaultsSchema.publish writes it: every key of the suite.
    private var schema: String {
        func integer(_ name: String, _ value: Int) -> String {
            #"{"name": "\#(name)", "swiftType": "Int", "title": "", "info": "", "#
                + #""valueType": {"kind": "integer", "lowest": -9223372036854775808, "#
                + #""highest": 9223372036854775807}, "default": \#(value), "formattedDefault": "\#(value)"}"#
        }
        func string(_ name: String, _ value: String) -> String {
            #"{"name": "\#(name)", "swiftType": "String", "title": "", "info": "", "#
                + #""valueType": {"kind": "string"}, "default": "\#(value)", "formattedDefault": "\#(value)"}"#
        }
        let keys = [
            integer("fontSize", 12), integer("limit", 1), integer("volume", 10), string("channel", "release"),
            string("net.proxy", ""), string("free", ""),
        ]
        return #"{"format": "typed-defaults schema", "version": 1, "suite": "\#(suite)", "keys": ["#
            + keys.joined(separator: ", ") + "]}"
    }

    func run(_ arguments: [String], input: Data? = nil) async throws -> Tool.Result {
        try await Tool.run(
            arguments, input: input, folder: user,
            environment: ["XDG_CONFIG_DIRS": admin.path, "HOME": root.path])
    }

    func run(_ arguments: String...) async throws -> Tool.Result {
        try await run(arguments)
    }

    /// The JSON object a command printed.
    func object(_ result: Tool.Result) throws -> [String: Any] {
        let parsed = try JSONSerialization.jsonObject(with: Data(result.output.utf8))
        return try #require(parsed as? [String: Any], "\(result.output)")
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }
}

/// The tool in a suite an administrator manages: where each value comes from, and every
/// command that would change a locked key, or leave a bound, refused with the user's file
/// left byte for byte as it was.
@Suite struct ManagedSuiteTests {
    @Test func describeShowsTheSourceOfTheValueAndTheFiles() async throws {
        let managed = try ManagedSuite()
        defer { managed.remove() }
        let fontSize = try await managed.run("describe", managed.suite, "fontSize")
        #expect(fontSize.status == 0, "\(fontSize.errors)")
        #expect(
            fontSize.output.hasSuffix(
                """
                value: the default
                source: locked by \(managed.locks.path)
                your value: 14, kept for when the lock goes

                """), "\(fontSize.output)")
        let limit = try await managed.run("describe", managed.suite, "limit")
        #expect(
            limit.output.hasSuffix(
                """
                value: 5
                source: the administrator's default, from \(managed.defaults.path)
                administrator's default: 5, from \(managed.defaults.path)

                """), "\(limit.output)")
        let channel = try await managed.run("describe", managed.suite, "channel")
        #expect(channel.output.contains("value: beta\nsource: the user's\n"), "\(channel.output)")
        #expect(channel.output.contains("administrator's default: stable, from \(managed.defaults.path)\n"))
        let volume = try await managed.run("describe", managed.suite, "volume")
        #expect(volume.output.hasSuffix("bounds: 1 to 50, from \(managed.bounds.path)\n"), "\(volume.output)")
    }

    @Test func readJSONWithSourceGivesEachKeysSourceAndFiles() async throws {
        let managed = try ManagedSuite()
        defer { managed.remove() }
        let fontSize = try managed.object(await managed.run("read", managed.suite, "fontSize", "--json", "--source"))
        #expect(fontSize["source"] as? String == "locked")
        #expect(fontSize["lockedBy"] as? String == managed.locks.path)
        #expect(fontSize["value"] as? Int == 12)
        #expect(fontSize["userValue"] as? Int == 14)
        let suite = try managed.object(await managed.run("read", managed.suite, "--json", "--source"))
        let proxy = try #require(suite["net.proxy"] as? [String: Any])
        #expect(proxy["source"] as? String == "locked")
        #expect(proxy["lockedBy"] as? String == managed.locks.path)
        #expect(proxy["value"] as? String == "http://proxy")
        #expect(proxy["administratorDefaultSource"] as? String == managed.defaults.path)
        let limit = try #require(suite["limit"] as? [String: Any])
        #expect(limit["source"] as? String == "administratorDefault")
        #expect(limit["administratorDefault"] as? Int == 5)
        #expect(limit["userValue"] == nil)
        let volume = try #require(suite["volume"] as? [String: Any])
        #expect(volume["source"] as? String == "user")
        #expect(volume["bounds"] as? String == "1 to 50")
        #expect(volume["boundsSource"] as? String == managed.bounds.path)
        let free = try #require(suite["free"] as? [String: Any])
        #expect(free["source"] as? String == "user")
        #expect(free["lockedBy"] == nil)
        // Without --source, what is stored, as import reads it back: the user's own values.
        let stored = try managed.object(await managed.run("read", managed.suite, "--json"))
        #expect(stored.keys.sorted() == ["channel", "fontSize", "free", "net.proxy", "volume"])
        #expect(stored["fontSize"] as? Int == 14)
        let one = try await managed.run("read", managed.suite, "fontSize", "--json")
        #expect(one.output == "14\n")
    }

    @Test func readShowsTheValueInForceWithWhereItCameFrom() async throws {
        let managed = try ManagedSuite()
        defer { managed.remove() }
        let read = try await managed.run("read", managed.suite)
        #expect(read.status == 0, "\(read.errors)")
        #expect(
            read.output.contains(
                "fontSize = 12; /* locked by \(managed.locks.path), the default; your value is kept */\n"),
            "\(read.output)")
        #expect(read.output.contains("limit = 5; /* the administrator's default, from \(managed.defaults.path) */\n"))
        #expect(read.output.contains("volume = 3; /* must be 1 to 50, as \(managed.bounds.path) sets */\n"))
        #expect(read.output.contains("free = x;\n"))
        let proxy = try await managed.run("read", managed.suite, "net.proxy", "--source")
        #expect(
            proxy.output == """
                http://proxy
                source: locked by \(managed.locks.path)
                your value: http://mine, kept for when the lock goes
                administrator's default: http://proxy, from \(managed.defaults.path)

                """)
    }

    /// A command the administrator's files refuse: its arguments (`SUITE` for the suite's
    /// name), what it reads on standard input, the key and the file its error names.
    struct Refused: Sendable, CustomTestStringConvertible {
        enum File: Sendable { case locks, bounds }
        let arguments: [String]
        var input: String?
        let key: String
        var file = File.locks

        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let refused: [Refused] = [
        Refused(arguments: ["write", "SUITE", "fontSize", "20"], key: "fontSize"),
        Refused(arguments: ["write", "SUITE", "net.proxy", "http://other"], key: "net.proxy"),
        Refused(arguments: ["write", "SUITE", "volume", "99"], key: "volume", file: .bounds),
        Refused(arguments: ["delete", "SUITE", "fontSize"], key: "fontSize"),
        Refused(arguments: ["delete", "SUITE"], key: "fontSize"),
        Refused(arguments: ["reset", "SUITE", "fontSize"], key: "fontSize"),
        // Nothing stored: the store would change nothing, and the key is still not the user's.
        Refused(arguments: ["reset", "SUITE", "net.other"], key: "net.other"),
        Refused(arguments: ["rename", "SUITE", "fontSize", "size"], key: "fontSize"),
        Refused(arguments: ["rename", "SUITE", "free", "net.free"], key: "net.free"),
        Refused(
            arguments: ["import", "SUITE", "-", "--merge"], input: #"{"free": "y", "fontSize": 1, "channel": "z"}"#,
            key: "fontSize"),
        Refused(arguments: ["import", "SUITE", "-"], input: #"{"free": "y"}"#, key: "fontSize"),
        Refused(
            arguments: ["import", "SUITE", "-", "--merge"], input: #"{"free": "y", "volume": 99}"#, key: "volume",
            file: .bounds),
    ]

    @Test(arguments: refused) func aCommandChangingALockedKeyFailsAndWritesNothing(_ command: Refused) async throws {
        let managed = try ManagedSuite()
        defer { managed.remove() }
        let before = try Data(contentsOf: managed.userFile)
        let arguments = command.arguments.map { $0 == "SUITE" ? managed.suite : $0 }
        let result = try await managed.run(arguments, input: command.input.map { Data($0.utf8) })
        let file = command.file == .locks ? managed.locks : managed.bounds
        #expect(result.status == 1, "\(result.output)")
        #expect(result.errors.hasPrefix("typed-defaults: \"\(command.key)\" "), "\(result.errors)")
        #expect(result.errors.hasSuffix(" \(file.path); nothing was written\n"), "\(result.errors)")
        #expect(result.errors.split(separator: "\n").count == 1, "\(result.errors)")
        #expect(try Data(contentsOf: managed.userFile) == before)
    }

    @Test func aWriteTheAdministratorAllowsIsStored() async throws {
        let managed = try ManagedSuite()
        defer { managed.remove() }
        let free = try await managed.run("write", managed.suite, "free", "y")
        #expect(free.status == 0, "\(free.errors)")
        #expect(try await managed.run("read", managed.suite, "free").output == "y\n")
        let volume = try await managed.run("write", managed.suite, "volume", "50")
        #expect(volume.status == 0, "\(volume.errors)")
        // The user's value goes over the administrator's default.
        let limit = try await managed.run("write", managed.suite, "limit", "7")
        #expect(limit.status == 0, "\(limit.errors)")
        let sourced = try managed.object(await managed.run("read", managed.suite, "limit", "--json", "--source"))
        #expect(sourced["source"] as? String == "user")
        #expect(sourced["value"] as? Int == 7)
        let file = try PropertyListSerialization.propertyList(from: Data(contentsOf: managed.userFile), format: nil)
        let stored = try #require(file as? [String: Any])
        #expect(stored["volume"] as? Int == 50)
        #expect(stored["fontSize"] as? Int == 14)
    }

    /// A locks file that exists and cannot be read locks every key of the suite: a FIFO (which
    /// must not hang the tool) or a folder at its path, even for root, who may read anything.
    @Test(arguments: ["fifo", "folder"]) func anUnreadableLocksFileRefusesEveryWrite(_ kind: String) async throws {
        let managed = try ManagedSuite()
        defer { managed.remove() }
        try FileManager.default.removeItem(at: managed.locks)
        if kind == "fifo" {
            #expect(mkfifo(managed.locks.path, 0o600) == 0)
        } else {
            try FileManager.default.createDirectory(at: managed.locks, withIntermediateDirectories: false)
        }
        let before = try Data(contentsOf: managed.userFile)
        let write = try await managed.run("write", managed.suite, "free", "y")
        #expect(write.status == 1)
        #expect(
            write.errors.contains(
                "typed-defaults: \"free\" is locked by your administrator in \(managed.locks.path); nothing was written\n"
            ), "\(write.errors)")
        let importing = try await managed.run(
            ["import", managed.suite, "-", "--merge"], input: Data(#"{"a": 1}"#.utf8))
        #expect(importing.status == 1)
        #expect(importing.errors.contains(managed.locks.path), "\(importing.errors)")
        #expect(try Data(contentsOf: managed.userFile) == before)
        let described = try await managed.run("describe", managed.suite, "free")
        #expect(described.output.contains("source: locked by \(managed.locks.path)\n"), "\(described.output)")
    }
}
