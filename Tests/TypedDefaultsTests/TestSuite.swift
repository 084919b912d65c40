import Foundation
import TypedDefaults

/// A suite of its own for one test, removed with its plist when the test ends.
final class TestSuite {
    let name: String
    let defaults: UserDefaults

    init(_ label: String = #function) throws {
        let sanitized = label.filter { $0.isLetter || $0.isNumber || $0 == "." }
        name = "typeddefaults-tests.\(sanitized).\(UUID().uuidString)"
        defaults = try UserDefaults.suite(named: name)
    }

    /// Where corelibs Foundation keeps the suite.
    var plistURL: URL {
        let config =
            ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
        return config.appendingPathComponent("\(name).plist")
    }

    /// The stored object under `key`, serialized, to check that stored data was left untouched.
    func storedBytes(_ key: String) throws -> Data? {
        guard let object = defaults.object(forKey: key) else { return nil }
        return try PropertyListSerialization.data(fromPropertyList: [key: object], format: .binary, options: 0)
    }

    deinit {
        defaults.removePersistentDomain(forName: name)
        try? FileManager.default.removeItem(at: plistURL)
    }
}
