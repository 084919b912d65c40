import Foundation
import Testing

@testable import TypedDefaultsStorage

/// An administrator's files for a suite: which folders count, what each file gives, and that a
/// bad or hostile file is a problem of its own (a restriction's failing closed), never a hang.
@Suite struct AdministratorFilesTests {
    // MARK: - Folders

    @Test func unsetEmptyOrOnlyColonsMeansEtcXDG() {
        let user = URL(fileURLWithPath: "/nonexistent/user/.config")
        for environment in [[:], ["XDG_CONFIG_DIRS": ""], ["XDG_CONFIG_DIRS": "::"]] {
            let folders = AdministratorFolders(environment: environment, userFolder: user)
            #expect(folders.folders.map(\.path) == ["/etc/xdg"], "\(environment)")
        }
    }

    @Test func relativeEntriesAreIgnored() {
        let user = URL(fileURLWithPath: "/nonexistent/user/.config")
        let mixed = AdministratorFolders(
            environment: ["XDG_CONFIG_DIRS": "relative:/first::./here:/second:~/x"], userFolder: user)
        #expect(mixed.folders.map(\.path) == ["/first", "/second"])
        // Not empty, so no /etc/xdg either.
        let onlyRelative = AdministratorFolders(environment: ["XDG_CONFIG_DIRS": "a:b/c"], userFolder: user)
        #expect(onlyRelative.folders.isEmpty)
    }

    @Test func duplicatesAfterTheFirstAreDropped() {
        let user = URL(fileURLWithPath: "/nonexistent/user/.config")
        let folders = AdministratorFolders(
            environment: ["XDG_CONFIG_DIRS": "/a:/b:/a:/a/:/a/./:/c/../a:/b"], userFolder: user)
        #expect(folders.folders.map(\.path) == ["/a", "/b"])
    }

    @Test func theUsersOwnFolderIsIgnored() throws {
        try inTemporaryFolder { root in
            let user = root.appendingPathComponent("config", isDirectory: true)
            try FileManager.default.createDirectory(at: user, withIntermediateDirectories: true)
            let link = root.appendingPathComponent("link").path
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: user.path)
            let dirs = ["/admin", user.path, user.path + "/", "\(user.path)/../config", link, "/other"]
            let folders = AdministratorFolders(
                environment: ["XDG_CONFIG_DIRS": dirs.joined(separator: ":")], userFolder: user)
            #expect(folders.folders.map(\.path) == ["/admin", "/other"])
        }
    }

    /// The user's folder named through a link is the user's folder too.
    @Test func theUsersFolderGivenAsALinkIsIgnored() throws {
        try inTemporaryFolder { root in
            let user = root.appendingPathComponent("config", isDirectory: true)
            try FileManager.default.createDirectory(at: user, withIntermediateDirectories: true)
            let link = root.appendingPathComponent("link", isDirectory: true)
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: user.path)
            let folders = AdministratorFolders(
                environment: ["XDG_CONFIG_DIRS": "\(user.path):/admin"], userFolder: link)
            #expect(folders.folders.map(\.path) == ["/admin"])
        }
    }

    /// The first folder's files come first, as the list names them.
    @Test func filesComeInTheListsOrder() throws {
        try inTemporaryFolder { root in
            let first = try makeFolder("first", in: root)
            let second = try makeFolder("second", in: root)
            try plist(["volume": 1], .binary).write(to: second.appendingPathComponent("app.plist"))
            try plist(["volume": 2], .xml).write(to: first.appendingPathComponent("app.plist"))
            try Data("b\n".utf8).write(to: second.appendingPathComponent("app.locks"))
            try Data("a\n".utf8).write(to: first.appendingPathComponent("app.locks"))
            let files = AdministratorFiles.read(suite: "app", in: administratorFolders(first, second))
            #expect(files.defaults.map(\.path) == [first.path + "/app.plist", second.path + "/app.plist"])
            #expect(files.defaults.map { $0.fileEntries[PropertyListKey("volume")] as? Int } == [2, 1])
            #expect(files.locks.map(\.keys) == [["a"], ["b"]])
            #expect(files.problems.isEmpty)
            let reversed = AdministratorFiles.read(suite: "app", in: administratorFolders(second, first))
            #expect(reversed.locks.map(\.keys) == [["b"], ["a"]])
        }
    }

    @Test func pathsAreEachFoldersThreeFiles() {
        let folders = AdministratorFolders(
            environment: ["XDG_CONFIG_DIRS": "/one:/two"], userFolder: URL(fileURLWithPath: "/nonexistent"))
        #expect(
            AdministratorFiles.paths(suite: "app", in: folders).map(\.path) == [
                "/one/app.plist", "/one/app.locks", "/one/app.bounds",
                "/two/app.plist", "/two/app.locks", "/two/app.bounds",
            ])
        #expect(AdministratorFiles.paths(suite: "../app", in: folders).isEmpty)
    }

    /// A suite name with a `/` names no file in the folder, whatever is beside it.
    @Test func aSuiteNameWithASlashReadsNothing() throws {
        try inTemporaryFolder { root in
            let folder = try makeFolder("admin", in: root)
            let below = try makeFolder("admin/sub", in: root)
            try Data("a\n".utf8).write(to: below.appendingPathComponent("app.locks"))
            #expect(AdministratorFiles.read(suite: "sub/app", in: administratorFolders(folder)).isEmpty)
        }
    }

    // MARK: - Defaults

    @Test func noFilesGiveNothing() throws {
        try inTemporaryFolder { root in
            let folder = try makeFolder("admin", in: root)
            try Data("a\n".utf8).write(to: folder.appendingPathComponent("other.locks"))
            let missing = root.appendingPathComponent("missing", isDirectory: true)
            let files = AdministratorFiles.read(suite: "app", in: administratorFolders(folder, missing))
            #expect(files.isEmpty)
            #expect(files.problems.isEmpty)
        }
    }

    @Test func anEmptyPlistIsNoValues() throws {
        let files = try readingOne("app.plist", Data())
        #expect(files.defaults.count == 1)
        #expect(files.defaults.first?.fileEntries.isEmpty == true)
        #expect(files.problems.isEmpty)
        #expect(files.unreadableRestrictions.isEmpty)
    }

    @Test(arguments: ["binary", "xml", "openstep"])
    func plistsInEachFormatAreRead(format: String) throws {
        let data: Data
        switch format {
        case "binary": data = try plist(["name": "x", "volume": 3], .binary)
        case "xml": data = try plist(["name": "x", "volume": 3], .xml)
        default: data = Data(#"{ name = "x"; volume = 3; }"#.utf8)
        }
        let files = try readingOne("app.plist", data)
        #expect(files.problems.isEmpty)
        let entries = try #require(files.defaults.first?.fileEntries)
        #expect(entries[PropertyListKey("name")] as? String == "x")
        // OpenStep has no numbers: its 3 is the string "3".
        if format == "openstep" {
            #expect(entries[PropertyListKey("volume")] as? String == "3")
        } else {
            #expect(entries[PropertyListKey("volume")] as? Int == 3)
        }
    }

    @Test func aTruncatedPlistIsAProblem() throws {
        let whole = try plist(["name": "x", "volume": 3], .binary)
        try expectDefaultsProblem("app.plist", whole.prefix(whole.count / 2), saying: "does not parse")
    }

    @Test func aPlistWhoseRootIsAnArrayIsAProblem() throws {
        try expectDefaultsProblem("app.plist", plist([1, 2], .xml), saying: "not a dictionary")
    }

    /// A sparse 100 MB file is refused by its size, before any of it is read.
    @Test(.hangGuard) func aHugePlistIsRefused() throws {
        try inTemporaryFolder { root in
            let folder = try makeFolder("admin", in: root)
            let path = folder.appendingPathComponent("app.plist").path
            let descriptor = open(path, O_WRONLY | O_CREAT, 0o600)
            try #require(descriptor >= 0)
            #expect(ftruncate(descriptor, 100 << 20) == 0)
            close(descriptor)
            let files = AdministratorFiles.read(suite: "app", in: administratorFolders(folder))
            expectOneProblem(files, path: path, failsClosed: false, saying: "MiB")
            #expect(files.defaults.isEmpty)
        }
    }

    @Test(.hangGuard, arguments: HostileFile.allCases)
    func aHostilePlistIsAProblem(hostile: HostileFile) throws {
        try inTemporaryFolder { root in
            let folder = try makeFolder("admin", in: root)
            let path = folder.appendingPathComponent("app.plist").path
            guard try hostile.make(at: path) else { return }
            let files = AdministratorFiles.read(suite: "app", in: administratorFolders(folder))
            expectOneProblem(files, path: path, failsClosed: false, saying: hostile.reason)
            #expect(files.defaults.isEmpty)
            #expect(files.unreadableRestrictions.isEmpty)
        }
    }

    // MARK: - Locks

    @Test func locksAreOneKeyALine() throws {
        let text = "\u{FEFF}  first\t\r\n\r\n   \n# a comment\n  # another\nsecond # not a comment\r\nthird#\n\tlast"
        let files = try readingOne("app.locks", Data(text.utf8))
        #expect(files.problems.isEmpty)
        let locks = try #require(files.locks.first)
        #expect(locks.path.hasSuffix("/admin/app.locks"))
        #expect(locks.keys == ["first", "second # not a comment", "third#", "last"])
        #expect(locks.prefixes.isEmpty)
    }

    @Test func aLineEndingInAStarLocksAPrefix() throws {
        let files = try readingOne("app.locks", Data("net.*\nnet.*\nexact\nnet.proxy\nca*t*\n".utf8))
        let locks = try #require(files.locks.first)
        #expect(locks.keys == ["exact", "net.proxy"])
        #expect(locks.prefixes == ["net.", "ca*t"])
        let every = try readingOne("app.locks", Data("  *  \n".utf8))
        #expect(every.locks.first?.prefixes == [""])
        #expect(every.locks.first?.keys == [])
    }

    /// Any key is locked, whether the app knows it or not; only comments is no locks.
    @Test func unknownKeysAndEmptyFilesAreFine() throws {
        let unknown = try readingOne("app.locks", Data("no.such.key\nkey with spaces\ncafé\n".utf8))
        #expect(unknown.locks.first?.keys == ["no.such.key", "key with spaces", "café"])
        #expect(unknown.problems.isEmpty)
        let comments = try readingOne("app.locks", Data("# nothing yet\n".utf8))
        #expect(comments.locks.first?.keys == [])
        #expect(comments.problems.isEmpty)
        #expect(comments.unreadableRestrictions.isEmpty)
    }

    /// UTF-16 text has a NUL byte after each ASCII one: its other lines are no keys it names.
    @Test func aNulByteFailsTheLocksClosed() throws {
        try expectFailsClosed("app.locks", Data("first\nsec\u{0}ond\nthird\n".utf8), saying: "NUL")
        try expectFailsClosed("app.locks", Data("key\n".utf16.flatMap { [UInt8($0 & 0xFF), 0] }), saying: "NUL")
    }

    @Test func invalidUTF8FailsTheLocksClosed() throws {
        try expectFailsClosed("app.locks", Data([0x6B, 0x65, 0x79, 0x0A, 0xC3, 0x28, 0x0A]), saying: "UTF-8")
    }

    @Test(.hangGuard, arguments: HostileFile.allCases)
    func aLocksFileThatCannotBeReadFailsClosed(hostile: HostileFile) throws {
        try inTemporaryFolder { root in
            let folder = try makeFolder("admin", in: root)
            let path = folder.appendingPathComponent("app.locks").path
            guard try hostile.make(at: path) else { return }
            let files = AdministratorFiles.read(suite: "app", in: administratorFolders(folder))
            expectOneProblem(files, path: path, failsClosed: true, saying: hostile.reason)
            #expect(files.unreadableRestrictions == [path])
            #expect(files.locks.isEmpty)
            #expect(!files.isEmpty)
        }
    }

    /// A link to a file that is gone (on a share not mounted) is not a file never made.
    @Test func aLocksLinkToNothingFailsClosed() throws {
        try inTemporaryFolder { root in
            let folder = try makeFolder("admin", in: root)
            let path = folder.appendingPathComponent("app.locks").path
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: root.path + "/gone")
            let files = AdministratorFiles.read(suite: "app", in: administratorFolders(folder))
            expectOneProblem(files, path: path, failsClosed: true, saying: "symlink to nothing")
            #expect(files.unreadableRestrictions == [path])
        }
    }

    // MARK: - Bounds

    @Test func boundsAreRangesAndAllowedValues() throws {
        let bounds: [String: Any] = [
            "volume": ["minimum": 0, "maximum": 11],
            "ratio": ["minimum": 0.5],
            "count": ["maximum": UInt64.max],
            "mode": ["allowed": ["fast", "slow", 3]],
        ]
        let files = try readingOne("app.bounds", plist(bounds, .binary))
        #expect(files.problems.isEmpty)
        let read = try #require(files.bounds.first)
        #expect(read.path.hasSuffix("/admin/app.bounds"))
        #expect(read.bounds.count == 4)
        guard case .range(let minimum, let maximum)? = read.bounds["volume"] else {
            Issue.record("volume: \(String(describing: read.bounds["volume"]))")
            return
        }
        #expect(minimum == 0 && maximum == 11)
        guard case .range(0.5, nil)? = read.bounds["ratio"] else {
            Issue.record("ratio: \(String(describing: read.bounds["ratio"]))")
            return
        }
        guard case .range(nil, let countMaximum)? = read.bounds["count"] else {
            Issue.record("count: \(String(describing: read.bounds["count"]))")
            return
        }
        #expect(countMaximum == Double(UInt64.max))
        guard case .allowed(let allowed)? = read.bounds["mode"] else {
            Issue.record("mode: \(String(describing: read.bounds["mode"]))")
            return
        }
        #expect(allowed.objects.count == 3)
        #expect(allowed.objects.first as? String == "fast")
        #expect(allowed.objects.last as? Int == 3)
    }

    /// Each entry of another shape is left out, named, and the rest kept.
    @Test func entriesOfOtherShapesAreLeftOutAndNamed() throws {
        let bounds: [String: Any] = [
            "kept": ["maximum": 1],
            "number": 3,
            "text": ["minimum": "x"],
            "flag": ["minimum": true],
            "notArray": ["allowed": 3],
            "both": ["minimum": 1, "allowed": [1]],
            "empty": [String: Any](),
            "typo": ["maximun": 3],
            "upsideDown": ["minimum": 5, "maximum": 1],
            "nan": ["maximum": Double.nan],
        ]
        try inTemporaryFolder { root in
            let folder = try makeFolder("admin", in: root)
            let path = folder.appendingPathComponent("app.bounds").path
            try plist(bounds, .binary).write(to: URL(fileURLWithPath: path))
            let files = AdministratorFiles.read(suite: "app", in: administratorFolders(folder))
            #expect(files.bounds.map { Array($0.bounds.keys) } == [["kept"]])
            #expect(files.unreadableRestrictions.isEmpty)
            #expect(files.problems.count == bounds.count - 1)
            for problem in files.problems {
                #expect(problem.path == path)
                #expect(!problem.failsClosed)
            }
            for key in bounds.keys where key != "kept" {
                #expect(files.problems.contains { $0.reason.contains("\"\(key)\"") }, "\(key)")
            }
            #expect(files.problems.contains { $0.reason.contains("\"typo\"") && $0.reason.contains("maximun") })
        }
    }

    @Test func anEmptyBoundsFileIsNoBounds() throws {
        let files = try readingOne("app.bounds", Data())
        #expect(files.bounds.map(\.bounds.count) == [0])
        #expect(files.problems.isEmpty)
    }

    @Test func boundsThatDoNotParseFailClosed() throws {
        try expectFailsClosed("app.bounds", Data("{ volume = { minimum = ".utf8), saying: "does not parse")
        try expectFailsClosed("app.bounds", plist(["a", "b"], .binary), saying: "not a dictionary")
    }

    @Test(.hangGuard, arguments: HostileFile.allCases)
    func aBoundsFileThatCannotBeReadFailsClosed(hostile: HostileFile) throws {
        try inTemporaryFolder { root in
            let folder = try makeFolder("admin", in: root)
            let path = folder.appendingPathComponent("app.bounds").path
            guard try hostile.make(at: path) else { return }
            let files = AdministratorFiles.read(suite: "app", in: administratorFolders(folder))
            expectOneProblem(files, path: path, failsClosed: true, saying: hostile.reason)
            #expect(files.unreadableRestrictions == [path])
            #expect(files.bounds.isEmpty)
        }
    }

    // MARK: - The folders' listings

    /// A folder that changed long ago is listed once; a file added to it changes its time,
    /// and the next read lists it again and reads the file.
    @Test func anUnchangedFolderIsListedOnceAndAnAddedFileIsSeen() throws {
        try inTemporaryFolder { root in
            let folder = try makeFolder("admin", in: root)
            try setModificationTime(of: folder, secondsFromNow: -60)
            let folders = administratorFolders(folder)
            #expect(AdministratorFiles.read(suite: "app", in: folders).isEmpty)
            #expect(FolderListings.listingCount(of: folder.path) == 1)
            #expect(AdministratorFiles.read(suite: "app", in: folders).isEmpty)
            #expect(FolderListings.listingCount(of: folder.path) == 1)

            try Data("volume\n".utf8).write(to: folder.appendingPathComponent("app.locks"))
            let files = AdministratorFiles.read(suite: "app", in: folders)
            #expect(files.locks.map(\.keys) == [["volume"]])
            #expect(FolderListings.listingCount(of: folder.path) == 2)
        }
    }

    /// A folder whose time is not yet a second past (here, ahead of the clock) may still
    /// change unseen within it: it is listed at every read.
    @Test func aFolderChangedTooRecentlyIsListedEachTime() throws {
        try inTemporaryFolder { root in
            let folder = try makeFolder("admin", in: root)
            try setModificationTime(of: folder, secondsFromNow: 3_600)
            let folders = administratorFolders(folder)
            _ = AdministratorFiles.read(suite: "app", in: folders)
            _ = AdministratorFiles.read(suite: "app", in: folders)
            #expect(FolderListings.listingCount(of: folder.path) == 2)
        }
    }

    /// A missing folder costs its `stat` alone, and is seen once it is made.
    @Test func aMissingFolderIsNeverListedUntilItIsMade() throws {
        try inTemporaryFolder { root in
            let folder = root.appendingPathComponent("admin", isDirectory: true)
            let folders = administratorFolders(folder)
            #expect(AdministratorFiles.read(suite: "app", in: folders).isEmpty)
            #expect(FolderListings.listingCount(of: folder.path) == 0)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("a\n".utf8).write(to: folder.appendingPathComponent("app.locks"))
            #expect(AdministratorFiles.read(suite: "app", in: folders).locks.map(\.keys) == [["a"]])
        }
    }

    /// A file at the folder's path is no folder: nothing to read, no problem.
    @Test func aFileWhereTheFolderWouldBeIsNoFolder() throws {
        try inTemporaryFolder { root in
            let folder = root.appendingPathComponent("admin", isDirectory: true)
            try Data("x".utf8).write(to: folder)
            let files = AdministratorFiles.read(suite: "app", in: administratorFolders(folder))
            #expect(files.isEmpty)
            #expect(files.problems.isEmpty)
        }
    }
}

// MARK: - Helpers

extension AdministratorFilesTests {
    /// A file at an administrator file's path that no read may hang on or take for a file.
    enum HostileFile: String, CaseIterable, CustomTestStringConvertible {
        case symlinkLoop, fifo, folder, unreadable

        var testDescription: String { rawValue }

        /// What the problem says.
        var reason: String {
            switch self {
            case .symlinkLoop: "symbolic links"
            case .fifo: "a FIFO"
            case .folder: "a folder"
            case .unreadable: "Permission denied"
            }
        }

        /// Makes it at `path`; `false` when it cannot be made to fail here (mode 000 as root).
        func make(at path: String) throws -> Bool {
            switch self {
            case .symlinkLoop:
                let other = path + ".other"
                try FileManager.default.createSymbolicLink(atPath: other, withDestinationPath: path)
                try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: other)
            case .fifo:
                #expect(mkfifo(path, 0o600) == 0)
            case .folder:
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            case .unreadable:
                // Root reads any file whatever its mode.
                guard geteuid() != 0 else { return false }
                try Data("a\n".utf8).write(to: URL(fileURLWithPath: path))
                #expect(chmod(path, 0) == 0)
            }
            return true
        }
    }
}

/// Runs `body` with a new empty folder, removed after.
private func inTemporaryFolder<Result>(_ body: (URL) throws -> Result) throws -> Result {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
        "administrator-files-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    return try body(root)
}

private func makeFolder(_ name: String, in root: URL) throws -> URL {
    let folder = root.appendingPathComponent(name, isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// These folders, in this order, for a user whose own folder is none of them.
private func administratorFolders(_ folders: URL...) -> AdministratorFolders {
    AdministratorFolders(
        environment: ["XDG_CONFIG_DIRS": folders.map(\.path).joined(separator: ":")],
        userFolder: URL(fileURLWithPath: "/nonexistent/user/.config"))
}

private func plist(_ object: Any, _ format: PropertyListSerialization.PropertyListFormat) throws -> Data {
    try PropertyListSerialization.data(fromPropertyList: object, format: format, options: 0)
}

/// What reading the suite `app` gives when one folder holds one file, `name`, of `data`.
private func readingOne(_ name: String, _ data: Data) throws -> AdministratorFiles {
    try inTemporaryFolder { root in
        let folder = try makeFolder("admin", in: root)
        try data.write(to: folder.appendingPathComponent(name))
        return AdministratorFiles.read(suite: "app", in: administratorFolders(folder))
    }
}

private func expectOneProblem(
    _ files: AdministratorFiles, path: String, failsClosed: Bool, saying words: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(files.problems.count == 1, "\(files.problems)", sourceLocation: sourceLocation)
    guard let problem = files.problems.first else { return }
    #expect(problem.path == path, sourceLocation: sourceLocation)
    #expect(problem.failsClosed == failsClosed, sourceLocation: sourceLocation)
    #expect(problem.reason.contains(words), "\(problem.reason)", sourceLocation: sourceLocation)
    #expect(!problem.reason.contains("\n"), sourceLocation: sourceLocation)
    #expect(problem.description.contains(path), sourceLocation: sourceLocation)
}

/// A plist of `data` is a problem of its own, and gives no values.
private func expectDefaultsProblem(
    _ name: String, _ data: Data, saying words: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    try inTemporaryFolder { root in
        let folder = try makeFolder("admin", in: root)
        let path = folder.appendingPathComponent(name).path
        try data.write(to: URL(fileURLWithPath: path))
        let files = AdministratorFiles.read(suite: "app", in: administratorFolders(folder))
        expectOneProblem(files, path: path, failsClosed: false, saying: words, sourceLocation: sourceLocation)
        #expect(files.defaults.isEmpty, sourceLocation: sourceLocation)
        #expect(files.unreadableRestrictions.isEmpty, sourceLocation: sourceLocation)
    }
}

/// A restriction file of `data` fails closed, named.
private func expectFailsClosed(
    _ name: String, _ data: Data, saying words: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    try inTemporaryFolder { root in
        let folder = try makeFolder("admin", in: root)
        let path = folder.appendingPathComponent(name).path
        try data.write(to: URL(fileURLWithPath: path))
        let files = AdministratorFiles.read(suite: "app", in: administratorFolders(folder))
        expectOneProblem(files, path: path, failsClosed: true, saying: words, sourceLocation: sourceLocation)
        #expect(files.unreadableRestrictions == [path], sourceLocation: sourceLocation)
        #expect(files.locks.isEmpty && files.bounds.isEmpty, sourceLocation: sourceLocation)
    }
}

/// Sets the folder's modification (and access) time `seconds` from now.
private func setModificationTime(of folder: URL, secondsFromNow seconds: Int) throws {
    let time = timespec(tv_sec: time(nil) + seconds, tv_nsec: 0)
    var times = [time, time]
    try #require(utimensat(AT_FDCWD, folder.path, &times, 0) == 0)
}
