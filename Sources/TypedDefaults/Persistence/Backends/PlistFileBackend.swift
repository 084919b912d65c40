import Foundation

/// Stores a suite in its property-list file, the one corelibs Foundation reads and writes, so
/// plain `UserDefaults` readers see the same data. It is written in the binary format (see
/// `BinaryPropertyList`), which corelibs reads as well as its own XML.
///
/// corelibs' `synchronize()` rewrites the file in place with no lock, losing concurrent
/// writers' keys and leaving torn files. Each commit here instead takes an exclusive lock on
/// a sidecar `<suite>.plist.lock`, re-reads the file, merges only this process's changes, and
/// replaces the file atomically through a temporary file and `rename`. A file that cannot be
/// read is never written over.
struct PlistFileBackend: StoreBackend {
    let file: PlistFile
    /// The suite's name, to refresh plain `UserDefaults` readers in this process after a commit.
    let suiteName: String

    init(file: PlistFile, suiteName: String) {
        self.file = file
        self.suiteName = suiteName
    }

    var location: String { file.url.path }

    /// Other processes' writes, heard through the file watcher, whose thread calls `heard`
    /// itself: no queue between a change and its reload. A suite file that is a symlink is
    /// watched at its target too, as the link leads when the watch starts: every writer
    /// replaces the target, under the target's own name.
    func observeChanges(_ heard: @escaping @Sendable () -> Bool) {
        for path in Self.watchedPaths(of: file.url) {
            FileWatcher.watch(path) { _ = heard() }
        }
    }

    /// The suite's path, and its symlink's target when it is one whose folder exists (a watch
    /// makes a missing folder, which a dangling link's must not be).
    private static func watchedPaths(of file: URL) -> [URL] {
        let target = PlistFile.resolvingSymlinks(file)
        var isFolder: ObjCBool = false
        guard target != file,
            FileManager.default.fileExists(atPath: target.deletingLastPathComponent().path, isDirectory: &isFolder),
            isFolder.boolValue
        else { return [file] }
        return [file, target]
    }

    func reload(onlyIfChanged: Bool) -> Reloaded {
        if onlyIfChanged, file.isUnchangedSinceOwnWrite() {
            return .unchanged
        }
        // A file that does not parse or cannot be read is left for the next change or read; a
        // commit is what moves a corrupt file aside.
        guard case .values(let values) = file.settledRead() else { return .unchanged }
        return .whole(values)
    }

    /// Hands this process's plain `UserDefaults` writes to the suite's file, which corelibs
    /// keeps in memory until `synchronize()`; under the file's lock, as a commit does, so that
    /// corelibs' rewrite in place cannot race another process's commit.
    func writePlainWrites() throws(DefaultsError) {
        _ = try file.withExclusiveLock(waitingAtMost: CommitWait.lock) {
            UserDefaults(suiteName: suiteName)?.synchronize()
        }
    }

    func loadContents() -> SuiteContents {
        file.load(waitingAtMost: CommitWait.lock)
    }

    /// The file is only ever replaced by a rename (a plain `UserDefaults` writer's truncation is
    /// waited out), so a read needs no lock: a stopped writer holding it delays nothing.
    func readWholeWithoutLock() throws(DefaultsError) -> [DefaultsStoredKey: StoredObject]? {
        try file.readLeavingCorrupt().values
    }

    /// corelibs keeps one registration domain for the process: every suite's readers see it.
    func register(_ defaults: [DefaultsStoredKey: StoredObject]) {
        UserDefaults(suiteName: suiteName)?.register(defaults: UserDefaultsBackend.foundationDictionary(defaults))
    }

    func commit(
        _ changes: [DefaultsStoredKey: StoredObject?], waitingAtMost limit: TimeInterval, repairing: Bool,
        edit: SuiteEdit.Body?
    ) throws(DefaultsError) -> SuiteContents {
        try file.withExclusiveLock(waitingAtMost: limit) { () throws(DefaultsError) in
            var contents: SuiteContents
            let isOwnWrite: Bool
            if let unchanged = file.unchangedSinceSeen() {
                contents = SuiteContents(values: unchanged.values)
                isOwnWrite = unchanged.isOwnWrite
            } else {
                isOwnWrite = false
                contents = repairing ? file.readMovingCorruptAside() : try file.readLeavingCorrupt()
            }
            // A file that cannot be read is never written over: its keys would be lost.
            guard var values = contents.values else {
                throw contents.problem ?? .readFailed(path: file.url.path, underlying: SystemError(code: EIO))
            }
            values.apply(changes)
            let edited = try values.edit(with: edit) { current throws(DefaultsError) in
                try file.replace(with: current)
            }
            // An edit that only read (a migration already run, a dry run, a value written again)
            // leaves the file as it is, but on the device: another program may have written it
            // without a sync, and a durable commit returns with what it found there.
            if !changes.isEmpty || edited {
                try file.replace(with: values)
            } else if edit != nil, !isOwnWrite {
                do {
                    try DurableFile.syncInPlace(PlistFile.resolvingSymlinks(file.url))
                } catch {
                    throw .writeFailed(path: file.url.path, underlying: error)
                }
            }
            contents.values = values
            // So plain reads in this process see the new file: with nothing of its own to write,
            // synchronize() only drops corelibs' cached copy. If plain writes are pending there,
            // corelibs rewrites the file in place, and doing that under the lock keeps it from
            // racing another process's commit.
            UserDefaults(suiteName: suiteName)?.synchronize()
            return contents
        }
    }
}
