import Foundation

/// Where corelibs Foundation keeps suites on Linux, and what it calls the standard one.
package enum PreferencesFolder {
    /// `$XDG_CONFIG_HOME` when it is an absolute path, else `$HOME/.config`, as corelibs decides:
    /// the `HOME` variable, not the account's home folder, which differs in containers, CI and
    /// under `sudo -E`. The account's home only when `HOME` is unset or empty.
    package static var url: URL {
        let environment = ProcessInfo.processInfo.environment
        if let configured = environment["XDG_CONFIG_HOME"], configured.hasPrefix("/") {
            return URL(fileURLWithPath: configured, isDirectory: true)
        }
        let home =
            environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".config", isDirectory: true)
    }

    /// The file of the suite named `suiteName`.
    package static func file(forSuite suiteName: String) -> URL {
        url.appendingPathComponent("\(suiteName).plist")
    }

    /// The name `UserDefaults.standard` stores under: the bundle identifier, or the process name.
    package static var standardSuiteName: String {
        Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    }

    /// The suite a corelibs `UserDefaults` object reads, whatever its name; `nil` when it cannot
    /// be found out (on Apple platforms).
    package static func anySuiteName(of defaults: UserDefaults) -> String? {
        guard let suite = Mirror(reflecting: defaults).children.first(where: { $0.label == "suite" }),
            let name = suite.value as? String?
        else { return nil }
        return name ?? standardSuiteName
    }
}
