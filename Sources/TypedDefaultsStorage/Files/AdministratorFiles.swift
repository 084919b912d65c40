import Foundation

/// What an administrator's files give one suite, folder by folder, the most important first.
///
/// Only files the folder's listing names are opened (see ``FolderListings``), so a suite with
/// none costs one `stat` a folder. A file is read as it is at that moment: one replaced or cut
/// short mid-read is a problem of this read, and the next read (after its watcher fires) sees
/// the new file.
package struct AdministratorFiles: Sendable {
    /// The values `<suite>.plist` gives, for the engine's `SuiteFileValues` to take.
    // @unchecked Sendable is sound: `entries` is a private `let`, and only `read` makes one, from
    // what PropertyListReader returns: `String`, `Bool`, `Int`, `UInt64`, `Double`, `Date`,
    // `Data`, and arrays, dictionaries and `ExactDictionary`s of them, immutable values all.
    package struct Defaults: @unchecked Sendable {
        package let path: String
        private let entries: [PropertyListKey: Any]

        init(path: String, entries: [PropertyListKey: Any]) {
            self.path = path
            self.entries = entries
        }

        /// The root dictionary's entries, as a suite file's are read.
        package var fileEntries: [PropertyListKey: Any] { entries }
    }

    /// What `<suite>.locks` locks: these keys, and every key that begins with a prefix.
    package struct Locks: Sendable {
        package let path: String
        package let keys: Set<String>
        package let prefixes: [String]
    }

    /// The values an `allowed` bound lists, as a suite file's values are read.
    // @unchecked Sendable is sound: `objects` is a `let`, and only `read` makes one, from what
    // PropertyListReader returns, immutable values all (see ``Defaults``).
    package struct AllowedValues: @unchecked Sendable {
        package let objects: [Any]

        init(objects: [Any]) {
            self.objects = objects
        }
    }

    /// What one key of `<suite>.bounds` may hold. A range's integers are `Double`s: beyond 2^53
    /// one may be a neighbour of what the file says.
    package enum Bound: Sendable {
        case range(minimum: Double?, maximum: Double?)
        case allowed(AllowedValues)
    }

    package struct Bounds: Sendable {
        package let path: String
        package let bounds: [String: Bound]
    }

    /// A file (or folder) that gave nothing, or less than it says.
    package struct Problem: Error, Sendable, CustomStringConvertible {
        package let path: String
        /// One line: what happened.
        package let reason: String
        /// The file restricts the suite and could not be read: the engine locks every key.
        package let failsClosed: Bool

        package var description: String {
            "\(path): \(reason)" + (failsClosed ? "; every key of the suite is locked until it can be read" : "")
        }
    }

    package var defaults: [Defaults] = []
    package var locks: [Locks] = []
    package var bounds: [Bounds] = []
    /// Restriction files (locks or bounds) that exist but could not be read or parsed: the engine
    /// locks every key of the suite then (fail-closed), naming the file.
    package var unreadableRestrictions: [String] = []
    package var problems: [Problem] = []

    /// No defaults, locks, bounds or unreadable restrictions (problems alone may remain).
    package var isEmpty: Bool {
        defaults.isEmpty && locks.isEmpty && bounds.isEmpty && unreadableRestrictions.isEmpty
    }

    /// The files read for a suite, by how their names end.
    static let fileExtensions = ["plist", "locks", "bounds"]

    /// Reads `<suite>.plist`, `<suite>.locks`, `<suite>.bounds` in each folder.
    package static func read(suite: String, in folders: AdministratorFolders) -> AdministratorFiles {
        var files = AdministratorFiles()
        guard isFileName(suite) else { return files }
        for folder in folders.folders {
            let listing = FolderListings.listing(of: folder.path)
            if case .unknown(let code) = listing {
                files.problems.append(Self.hiddenFolder(folder.path, code))
                continue
            }
            let plist = "\(suite).plist"
            let locks = "\(suite).locks"
            let bounds = "\(suite).bounds"
            if files.holds(plist, in: folder, listing) {
                files.readDefaults(at: folder.appendingPathComponent(plist).path)
            }
            if files.holds(locks, in: folder, listing) {
                files.readLocks(at: folder.appendingPathComponent(locks).path)
            }
            if files.holds(bounds, in: folder, listing) {
                files.readBounds(at: folder.appendingPathComponent(bounds).path)
            }
        }
        return files
    }

    /// Whether the folder has an entry `name`. One that cannot be listed but may be searched
    /// (mode 0711) tells by the name; one that may not be searched either tells nothing, and is
    /// reported, once: it fails nothing closed, as it would lock the keys of every suite.
    private mutating func holds(_ name: String, in folder: URL, _ listing: FolderListings.Listing) -> Bool {
        switch listing {
        case .missing, .unknown: return false
        case .names(let names): return names.contains(name)
        case .unlistable: break
        }
        var status = stat()
        if lstat(folder.appendingPathComponent(name).path, &status) == 0 { return true }
        let code = errno
        guard code != ENOENT, code != ENOTDIR else { return false }
        if !problems.contains(where: { $0.path == folder.path }) {
            problems.append(Self.hiddenFolder(folder.path, code))
        }
        return false
    }

    /// A folder that may hold files no read can see.
    private static func hiddenFolder(_ path: String, _ code: Int32) -> Problem {
        Problem(
            path: path, reason: "whether it holds files cannot be told: \(SystemError(code: code))", failsClosed: false)
    }

    /// Every path whose change may change what `read` returns (for a file watcher), in folder
    /// order: each folder's three files.
    package static func paths(suite: String, in folders: AdministratorFolders) -> [URL] {
        guard isFileName(suite) else { return [] }
        return folders.folders.flatMap { folder in
            fileExtensions.map { folder.appendingPathComponent("\(suite).\($0)") }
        }
    }

    /// A suite name that names a file in a folder: one with a `/` would name one elsewhere.
    private static func isFileName(_ suite: String) -> Bool {
        !suite.isEmpty && !suite.utf8.contains(UInt8(ascii: "/")) && !suite.utf8.contains(0)
    }

    private mutating func readDefaults(at path: String) {
        switch Self.bytes(at: path) {
        case .success(nil):
            return
        case .success(let data?):
            do throws(PropertyListFormatError) {
                defaults.append(Defaults(path: path, entries: try Self.rootEntries(of: data)))
            } catch {
                problems.append(
                    Problem(path: path, reason: "does not parse: \(ParseFailure(error))", failsClosed: false))
            }
        case .failure(let error):
            problems.append(Problem(path: path, reason: "cannot be read: \(error)", failsClosed: false))
        }
    }

    private mutating func readLocks(at path: String) {
        switch Self.bytes(at: path) {
        case .success(nil):
            return
        case .success(let data?):
            switch Self.locks(in: data) {
            case .success(let (keys, prefixes)):
                locks.append(Locks(path: path, keys: keys, prefixes: prefixes))
            case .failure(let why):
                failClosed(path, reason: why.description)
            }
        case .failure(let error):
            failClosed(path, reason: "cannot be read: \(error)")
        }
    }

    private mutating func readBounds(at path: String) {
        let root: [PropertyListKey: Any]
        switch Self.bytes(at: path) {
        case .success(nil):
            return
        case .success(let data?):
            do throws(PropertyListFormatError) {
                root = try Self.rootEntries(of: data)
            } catch {
                failClosed(path, reason: "does not parse: \(ParseFailure(error))")
                return
            }
        case .failure(let error):
            failClosed(path, reason: "cannot be read: \(error)")
            return
        }
        var found: [String: Bound] = [:]
        for (key, value) in root.sorted(by: { $0.key < $1.key }) {
            let name = String(reflecting: key.name)
            guard found[key.name] == nil else {
                let reason = "the entry for \(name) is left out: another key equal to it as text comes first"
                problems.append(Problem(path: path, reason: reason, failsClosed: false))
                continue
            }
            switch Self.bound(from: value) {
            case .success(let bound):
                found[key.name] = bound
            case .failure(let why):
                let reason = "the entry for \(name) is left out: \(why)"
                problems.append(Problem(path: path, reason: reason, failsClosed: false))
            }
        }
        bounds.append(Bounds(path: path, bounds: found))
    }

    private mutating func failClosed(_ path: String, reason: String) {
        unreadableRestrictions.append(path)
        problems.append(Problem(path: path, reason: reason, failsClosed: true))
    }

    /// The file's bytes, `nil` when there is none. A symlink to nothing is an error, not a
    /// missing file: the administrator's file is meant to be there (on a share not mounted).
    private static func bytes(at path: String) -> Result<Data?, any Error> {
        let result = FileBytes.contents(of: path)
        guard case .success(nil) = result else { return result }
        var status = stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK else { return result }
        return .failure(DanglingLink())
    }

    /// A property list's root entries; empty (or only whitespace) is no entries, as a suite
    /// file an administrator only made is.
    private static func rootEntries(of data: Data) throws(PropertyListFormatError) -> [PropertyListKey: Any] {
        if data.allSatisfy(PropertyListReader.isWhitespace) { return [:] }
        return try PropertyListReader.suiteEntries(from: data)
    }
}

/// A symlink whose target is missing.
private struct DanglingLink: Error, CustomStringConvertible {
    var description: String { "it is a symlink to nothing" }
}
