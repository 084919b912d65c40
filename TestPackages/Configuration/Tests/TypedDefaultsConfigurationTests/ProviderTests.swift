import Configuration
import ConfigurationTesting
import Foundation
import Testing
import TypedDefaults
import TypedDefaultsConfiguration

/// A swift-configuration provider over a real suite.
@Suite struct ProviderTests {
    static let magic: [UInt8] = Array("magic".utf8)
    static let magic2: [UInt8] = Array("magic2".utf8)

    /// swift-configuration's own compatibility test, over its 30-key data set written into a suite.
    @Test func passesSwiftConfigurationsCompatibilityTest() async throws {
        let (_, store) = try Suites.make()
        try store.editStoredValues { values in
            values["string"] = "Hello"
            values["other.string"] = "Other Hello"
            values["int"] = 42
            values["other.int"] = 24
            values["double"] = 3.14
            values["other.double"] = 2.72
            values["bool"] = true
            values["other.bool"] = false
            values["bytes"] = .data(Data(Self.magic))
            values["other.bytes"] = .data(Data(Self.magic2))
            values["stringy.array"] = ["Hello", "World"]
            values["other.stringy.array"] = ["Hello", "Swift"]
            values["inty.array"] = [42, 24]
            values["other.inty.array"] = [16, 32]
            values["doubly.array"] = [3.14, 2.72]
            values["other.doubly.array"] = [0.9, 1.8]
            values["booly.array"] = [true, false]
            values["other.booly.array"] = [false, true, true]
            values["byteChunky.array"] = [.data(Data(Self.magic)), .data(Data(Self.magic2))]
            values["other.byteChunky.array"] = [
                .data(Data(Self.magic)), .data(Data(Self.magic2)), .data(Data(Self.magic)),
            ]
        }
        try await ProviderCompatTest(provider: try DefaultsProvider(store: store)).runTest()
    }

    /// Environment variables and command-line arguments above the suite: the first provider
    /// that has a key answers, and the suite answers the rest.
    @Test func layersUnderEnvironmentVariablesAndArguments() throws {
        let (_, store) = try Suites.make()
        try store.editStoredValues { values in
            values["http.timeout"] = 30
            values["http.maxConnections"] = 100
            values["http.host"] = "0.0.0.0"
            values["features.beta"] = false
        }
        let config = ConfigReader(providers: [
            CommandLineArgumentsProvider(arguments: ["server", "--http-max-connections", "500"]),
            EnvironmentVariablesProvider(environmentVariables: ["HTTP_TIMEOUT": "5"]),
            try DefaultsProvider(store: store),
        ])
        #expect(config.int(forKey: "http.timeout") == 5, "the environment's")
        #expect(config.int(forKey: "http.maxConnections") == 500, "the argument's")
        #expect(config.string(forKey: "http.host") == "0.0.0.0", "the suite's")
        #expect(config.bool(forKey: "features.beta", default: true) == false)
        #expect(config.int(forKey: "http.missing", default: 7) == 7)
        // Scoped: the same keys, read from a reader for `http`.
        let http = config.scoped(to: "http")
        #expect(http.string(forKey: "host") == "0.0.0.0")
        #expect(http.int(forKey: "timeout") == 5)
    }

    /// How stored values of other types read: an integer as a double, a date as ISO 8601 text, a
    /// dictionary's members under its key; anything else is an error naming the key and both types.
    @Test func storedValuesReadAsTheDocsSay() throws {
        let (_, store) = try Suites.make()
        try store.editStoredValues { values in
            values["timeout"] = 3
            values["ratio"] = 0.5
            values["name"] = "seven"
            values["since"] = .date(Date(timeIntervalSince1970: 1_795_428_000.25))
            values["http"] = ["port": 8080, "tls": ["enabled": true]]
            values["mixed"] = [1, "two"]
            values["huge"] = .unsignedInteger(.max)
        }
        let provider = try DefaultsProvider(store: store)
        func content(_ key: AbsoluteConfigKey, _ type: ConfigType) throws -> ConfigContent? {
            try provider.value(forKey: key, type: type).value?.content
        }
        #expect(try content("timeout", .double) == .double(3))
        #expect(try content("since", .string) == .string("2026-11-23T10:00:00.250Z"))
        #expect(try content("http.port", .int) == .int(8080))
        #expect(try content("http.tls.enabled", .bool) == .bool(true))
        #expect(try content("http.missing", .int) == nil)
        for (key, type, message) in [
            ("ratio", ConfigType.int, "ratio holds a float, which is not int"),
            ("name", .int, "name holds a string, which is not int"),
            ("http", .string, "http holds a dictionary, which is not string"),
            ("mixed", .intArray, "mixed holds an array of mixed values, which is not intArray"),
            ("huge", .int, "huge holds an integer, which is not int"),
            ("timeout", .bool, "timeout holds an integer, which is not bool"),
        ] {
            #expect(throws: DefaultsProviderTypeMismatch.self) {
                try content(AbsoluteConfigKey(key.split(separator: ".").map(String.init)), type)
            }
            do {
                _ = try content(AbsoluteConfigKey([key]), type)
            } catch {
                #expect("\(error)" == message)
            }
        }
        // Through a reader: a default, never a crash or a converted value.
        let config = ConfigReader(provider: provider)
        #expect(config.int(forKey: "name", default: 1) == 1)
        #expect(throws: (any Error).self) { try config.requiredInt(forKey: "name") }
    }

    /// Secrets are marked, so access logs redact them.
    @Test func secretKeysAreMarkedSecret() throws {
        let (_, store) = try Suites.make()
        try store.editStoredValues { values in
            values["database.password"] = "hunter2"
            values["database.host"] = "db"
        }
        let provider = try DefaultsProvider(store: store, secrets: .specific(["database.password"]))
        #expect(try provider.value(forKey: "database.password", type: .string).value?.isSecret == true)
        #expect(try provider.value(forKey: "database.host", type: .string).value?.isSecret == false)
        #expect(
            try provider.value(forKey: "database.password", type: .string).value?.description == "[string: <REDACTED>]")
    }
}
