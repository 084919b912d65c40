import Configuration
import Foundation
import Testing
import TypedDefaults
import TypedDefaultsConfiguration

/// A managed suite through the provider: it gives the value in force (a lock's, the user's inside
/// the bounds, the administrator's default), says a key is locked and by which file, and its
/// description says where each value an administrator set came from.
@Suite struct ManagedProviderTests {
    static let port = DefaultsKey<Int>("http.port", default: 80)
    static let channel = DefaultsKey<String>("updates.channel", default: "stable")
    static let uploads = DefaultsKey<Int>("uploads.maxMB", default: 10)
    static let file = "/etc/xdg/server.locks"

    static func managedStore() throws -> DefaultsStore {
        var administration = DefaultsAdministration(source: file)
        administration.lock(port, to: 8443)
        administration.setDefault("beta", for: channel)
        administration.limit(uploads, to: 1...50)
        let store = DefaultsStore.inMemory(administration: administration)
        try store.editStoredValues { $0["uploads.maxMB"] = 40 }
        return store
    }

    @Test func theValueInForceAndWhetherItIsLocked() throws {
        let provider = try DefaultsProvider(store: try Self.managedStore())
        // A snapshot taken before any key was asked for has the administrator's values too.
        let snapshot = provider.snapshot()
        #expect(
            try snapshot.value(forKey: AbsoluteConfigKey(["http", "port"]), type: .int).value?.content == .int(8443))
        let channel = try snapshot.value(forKey: AbsoluteConfigKey(["updates", "channel"]), type: .string)
        #expect(channel.value?.content == .string("beta"))
        let config = ConfigReader(provider: provider)
        #expect(config.int(forKey: "http.port", default: 80) == 8443, "the lock's value")
        #expect(config.string(forKey: "updates.channel", default: "stable") == "beta", "the administrator's default")
        #expect(config.int(forKey: "uploads.maxMB", default: 10) == 40, "the user's, inside the bounds")
        #expect(provider.isLocked("http.port"))
        #expect(!provider.isLocked("updates.channel") && !provider.isLocked("uploads.maxMB"))
        let port = provider.administration(of: "http.port")
        #expect(port.lockedBy == Self.file && port.source == .locked(by: Self.file))
        #expect(provider.administration(of: "uploads.maxMB").bounds == "1 to 50")
        #expect(provider.administration(of: "uploads.maxMB").source == .user)
    }

    @Test func theDescriptionSaysWhereEachValueCameFrom() throws {
        let provider = try DefaultsProvider(store: try Self.managedStore(), name: "server")
        let config = ConfigReader(provider: provider)
        _ = config.int(forKey: "http.port", default: 80)
        _ = config.string(forKey: "updates.channel", default: "stable")
        #expect(provider.description == "DefaultsProvider[server][3 values, 1 locked]")
        #expect(
            provider.debugDescription
                == "DefaultsProvider[server][3 values: http.port=8443 (locked by \(Self.file)), "
                + "updates.channel=\"beta\" (the administrator's default, from \(Self.file)), uploads.maxMB=40]")
        #expect(String(reflecting: provider.snapshot()) == provider.debugDescription)
    }

    /// With the administrator's files: the user's value under a lock is kept but not given, a
    /// value outside the bounds is given as the range's nearest end, and a lock that goes gives
    /// the user's value again, told to a watcher.
    @Test func theAdministratorsFilesAndALockThatGoes() async throws {
        _ = Suites.folder
        let name = "configuration-tests.managed.\(UUID().uuidString.prefix(8))"
        let user: [String: Any] = ["http.port": 8080, "uploads.maxMB": 500]
        try PropertyListSerialization.data(fromPropertyList: user, format: .xml, options: 0)
            .write(to: Suites.folder.appendingPathComponent("\(name).plist"))
        let locks = Suites.administrator.appendingPathComponent("\(name).locks")
        try "http.port\n".write(to: locks, atomically: true, encoding: .utf8)
        let bounds: [String: Any] = ["uploads.maxMB": ["minimum": 1, "maximum": 50]]
        try PropertyListSerialization.data(fromPropertyList: bounds, format: .xml, options: 0)
            .write(to: Suites.administrator.appendingPathComponent("\(name).bounds"))
        defer {
            for suffix in ["locks", "bounds"] {
                try? FileManager.default.removeItem(
                    at: Suites.administrator.appendingPathComponent("\(name).\(suffix)"))
            }
        }
        let provider = try DefaultsProvider(store: try DefaultsStore(suiteName: name))
        let config = ConfigReader(provider: provider)
        #expect(config.int(forKey: "http.port") == nil, "locked without a value: the reader's default, not 8080")
        #expect(config.int(forKey: "http.port", default: 80) == 80)
        #expect(provider.isLocked("http.port"))
        #expect(provider.administration(of: "http.port").lockedBy == locks.path)
        #expect(config.int(forKey: "uploads.maxMB") == 50, "500 reads as the range's nearest end")

        try FileManager.default.removeItem(at: locks)
        #expect(await eventually { config.int(forKey: "http.port") == 8080 }, "the user's value once the lock goes")
        #expect(!provider.isLocked("http.port"))
    }
}
