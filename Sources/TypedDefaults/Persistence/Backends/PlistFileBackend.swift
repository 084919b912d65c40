import Foundation
import TypedDefaultsStorage

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
    /// A suite's file, holding the engine's keys and boxed objects.
    typealias File = PlistFile<[DefaultsStoredKey: StoredObject]>

    let file: File
    /// The suite's name, to refresh plain `UserDefaults` readers in this process after a commit.
    let suiteName: String

    init(file: File, suiteName: String) {
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
        let target = File.resolvingSymlinks(file)
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
        _ = try file.withExclusiveLock(waitingAtMost: CommitWait.lock, failing: DefaultsError.init) {
            () throws(DefaultsError) in
            UserDefaults(suiteName: suiteName)?.synchronize()
        }
    }

    func loadContents() -> SuiteContents {
        SuiteContents(file.load(waitingAtMost: CommitWait.lock))
    }

    /// The file is only ever replaced by a rename (a plain `UserDefaults` writer's truncation is
    /// waited out), so a read needs no lock: a stopped writer holding it delays nothing.
    func readWholeWithoutLock() throws(DefaultsError) -> [DefaultsStoredKey: StoredObject]? {
        do throws(SuiteFileError) {
            return try file.readLeavingCorrupt().values
        } catch {
            throw DefaultsError(error)
        }
    }

    /// corelibs keeps one registration domain for the process: every suite's readers see it.
    func register(_ defaults: [DefaultsStoredKey: StoredObject]) {
        UserDefaults(suiteName: suiteName)?.register(defaults: UserDefaultsBackend.foundationDictionary(defaults))
    }

    func commit(
        _ changes: [DefaultsStoredKey: StoredObject?], waitingAtMost limit: TimeInterval, repairing: Bool,
        edit: SuiteEdit.Body?
    ) throws(DefaultsError) -> SuiteContents {
        try file.withExclusiveLock(waitingAtMost: limit, failing: DefaultsError.init) { () throws(DefaultsError) in
            var contents: SuiteContents
            let isOwnWrite: Bool
            if let unchanged = file.unchangedSinceSeen() {
                contents = SuiteContents(values: unchanged.values)
                isOwnWrite = unchanged.isOwnWrite
            } else {
                isOwnWrite = false
                do throws(SuiteFileError) {
                    contents = SuiteContents(repairing ? file.readMovingCorruptAside() : try file.readLeavingCorrupt())
                } catch {
                    throw DefaultsError(error)
                }
            }
            // A file that cannot be read is never written over: its keys would be lost.
            guard var values = contents.values else {
                throw contents.problem ?? .readFailed(path: file.url.path, underlying: SystemError(code: EIO))
            }
            values.apply(changes)
            let edited = try values.edit(with: edit) { current throws(DefaultsError) in
                try replace(with: current)
            }
            // An edit that only read (a migration already run, a dry run, a value written again)
            // leaves the file as it is, but on the device: another program may have written it
            // without a sync, and a durable commit returns with what it found there.
            if !changes.isEmpty || edited {
                try replace(with: values)
            } else if edit != nil, !isOwnWrite {
                do {
                    try DurableFile.syncInPlace(File.resolvingSymlinks(file.url))
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

    /// Replaces the file's contents, reporting a failure as the engine does.
    private func replace(with values: [DefaultsStoredKey: StoredObject]) throws(DefaultsError) {
        do throws(SuiteFileError) {
            try file.replace(with: values)
        } catch {
            throw DefaultsError(error)
        }
    }
}

extension SuiteContents {
    /// What a suite file's load found, its problem reported as the engine reports it.
    init(_ loaded: PlistFileBackend.File.Loaded) {
        self.init(
            values: loaded.values, problem: loaded.problem.map(DefaultsError.init), isUnreadable: loaded.isUnreadable)
    }
}

extension DefaultsError {
    /// A suite file's failure as the case of the same name; a replacement whose folder the
    /// device did not confirm it synced is a ``DefaultsUnconfirmedWrite``.
    init(_ error: SuiteFileError) {
        switch error {
        case .corruptFile(let path, let preservedAt, let underlying):
            self = .corruptFile(path: path, preservedAt: preservedAt, underlying: underlying)
        case .unparsableFile(let path, let underlying):
            self = .unparsableFile(path: path, underlying: underlying)
        case .readFailed(let path, let underlying):
            self = .readFailed(path: path, underlying: underlying)
        case .writeFailed(let path, let underlying):
            self = .writeFailed(path: path, underlying: DefaultsUnconfirmedWrite.reported(underlying))
        }
    }
}

extension DefaultsUnconfirmedWrite {
    /// `error` as the store reports it: a replacement whose folder sync failed is a
    /// ``DefaultsUnconfirmedWrite``, anything else itself.
    package static func reported(_ error: any Error) -> any Error {
        guard let unconfirmed = error as? UnconfirmedRename else { return error }
        return DefaultsUnconfirmedWrite(underlying: unconfirmed.underlying)
    }
}

extension Dictionary: SuiteFileValues where Key == DefaultsStoredKey, Value == StoredObject {
    package init(fileEntries: [PropertyListKey: Any]) {
        self.init(minimumCapacity: fileEntries.count)
        for (key, value) in fileEntries { self[DefaultsStoredKey(key.name)] = StoredObject(value) }
    }

    package var fileEntries: [(key: PropertyListKey, value: Any)] {
        map { (key: PropertyListKey($0.key.name), value: $0.value.object) }
    }
}

extension PropertyListReader {
    /// A suite's contents, keyed and boxed as the engine keeps them: the root must be a
    /// dictionary.
    static func suiteContents(from data: Data) throws(PropertyListFormatError) -> [DefaultsStoredKey: StoredObject] {
        [DefaultsStoredKey: StoredObject](fileEntries: try suiteEntries(from: data))
    }
}

extension BinaryPropertyList {
    /// The file of a suite's contents.
    static func data(_ contents: [DefaultsStoredKey: StoredObject]) throws -> Data {
        try data(entries: contents.fileEntries)
    }
}
