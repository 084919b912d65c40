import Foundation

/// Where corelibs Foundation keeps suites on Linux, and what it calls the standard one.
enum PreferencesFolder {
    /// `$XDG_CONFIG_HOME` when it is an absolute path, else `~/.config`, as corelibs decides.
    static var url: URL {
        if let configured = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"], configured.hasPrefix("/") {
            return URL(fileURLWithPath: configured, isDirectory: true)
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config", isDirectory: true)
    }

    /// The file of the suite named `suiteName`.
    static func file(forSuite suiteName: String) -> URL {
        url.appendingPathComponent("\(suiteName).plist")
    }

    /// The name `UserDefaults.standard` stores under: the bundle identifier, or the process name.
    static var standardSuiteName: String {
        Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    }

    /// The suite a corelibs `UserDefaults` object reads, from its private `suite` property
    /// (`nil` there means the standard suite). `nil` when it cannot be found out.
    static func suiteName(of defaults: UserDefaults) -> String? {
        guard let suite = Mirror(reflecting: defaults).children.first(where: { $0.label == "suite" }) else {
            return nil
        }
        guard let name = suite.value as? String? else { return nil }
        return name ?? standardSuiteName
    }
}
