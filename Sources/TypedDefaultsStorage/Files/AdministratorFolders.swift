import Foundation

/// The folders an administrator's files for suites live in: `$XDG_CONFIG_DIRS` by the XDG
/// base-directory rule.
package struct AdministratorFolders: Sendable, Equatable {
    /// In order, the most important first.
    package let folders: [URL]

    /// XDG rule: `XDG_CONFIG_DIRS` is a ':'-separated list; unset or empty (or only empty
    /// entries) means `/etc/xdg`; empty entries and relative paths (not starting with "/") are
    /// ignored; duplicates after the first dropped (compare standardized paths); an entry that is
    /// the user's own folder `userFolder` (compare standardized paths, and also after resolving
    /// symlinks) is ignored: a layer the user can write is no administrator's.
    ///
    /// A list of relative paths alone names no folder: it is not empty, so `/etc/xdg` is not
    /// meant.
    package init(environment: [String: String], userFolder: URL) {
        let entries = (environment["XDG_CONFIG_DIRS"] ?? "").split(separator: ":").map(String.init)
        let user = Self.standardPath(userFolder.path)
        let resolvedUser = Self.resolvedPath(user)
        var seen: Set<String> = []
        var folders: [URL] = []
        for entry in entries.isEmpty ? ["/etc/xdg"] : entries where entry.hasPrefix("/") {
            let path = Self.standardPath(entry)
            guard path != user, Self.resolvedPath(path) != resolvedUser, seen.insert(path).inserted else { continue }
            folders.append(URL(fileURLWithPath: path, isDirectory: true))
        }
        self.folders = folders
    }

    /// From this process's environment, the user folder being PreferencesFolder.url.
    package static var current: AdministratorFolders {
        AdministratorFolders(environment: ProcessInfo.processInfo.environment, userFolder: PreferencesFolder.url)
    }

    /// `path` with `.` and `..` resolved and no trailing slash, so that `/etc/xdg/` and
    /// `/etc/./xdg` are one folder.
    static func standardPath(_ path: String) -> String {
        let standard = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL.path
        guard standard.count > 1, standard.hasSuffix("/") else { return standard }
        return String(standard.dropLast())
    }

    /// `path` with every symlink on it resolved, or `path` itself when it does not exist: a
    /// link to the user's folder in the list is the user's folder.
    private static func resolvedPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
