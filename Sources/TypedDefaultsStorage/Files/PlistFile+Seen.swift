import Foundation

/// What this process last read from the file or wrote to it, so that a commit does not parse a
/// file no one has changed since this process parsed or wrote it, and the file watcher does not
/// read again a file this process wrote last. (A read alone does not spare the watcher's
/// reload: what a read found may never have reached the suite's state, such as a read of
/// the store's `storedValues()`.)
///
/// Only the bytes prove it is unchanged: another program can write a file of the same size over
/// the same inode (a file system hands a freed inode back at once) and set its modification time
/// to the old one. The bytes are compared by their length and a hash keyed with a seed random to
/// this process (Swift's `Hasher`), which no other program can know to make a file that
/// collides; the bytes themselves are not kept, which would add a large suite's file to what the
/// process holds.
extension PlistFile {
    struct Seen {
        var fingerprint: Fingerprint
        var values: Values
        /// The file this process renamed into place, while it is that very file, untouched: the
        /// same device, inode and status-change time (which no program can set back). Bytes
        /// alone cannot say it: another program can put the same bytes back, unsynced.
        var ownWrite: FileStamp?
    }

    struct Fingerprint: Equatable {
        let count: Int
        let hash: Int

        init(_ bytes: Data) {
            var hasher = Hasher()
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
            count = bytes.count
            hash = hasher.finalize()
        }
    }

    /// A file's device, inode and status-change time.
    struct FileStamp: Equatable {
        var device: UInt64
        var inode: UInt64
        var changed: timespec

        init?(path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
            changed = status.statusChangeTime
        }

        static func == (first: FileStamp, second: FileStamp) -> Bool {
            first.device == second.device && first.inode == second.inode
                && first.changed.tv_sec == second.changed.tv_sec && first.changed.tv_nsec == second.changed.tv_nsec
        }
    }

    /// What this process last read or wrote, if the file still holds exactly those bytes; its
    /// own write only while the file is the one it renamed into place.
    package func unchangedSinceSeen() -> (values: Values, isOwnWrite: Bool)? {
        guard let seen = seen.withLock({ $0 }), case .success(let bytes?) = FileBytes.contents(of: url.path),
            Fingerprint(bytes) == seen.fingerprint
        else { return nil }
        let isOwnWrite = seen.ownWrite.map { $0 == FileStamp(path: url.path) } ?? false
        return (seen.values, isOwnWrite)
    }

    /// Whether the file is still exactly this process's last write. The file's stamp is looked at
    /// first (one `stat`), so that a watcher's look at a file this process only read, or that
    /// another program replaced, reads no bytes before the read that takes it in.
    package func isUnchangedSinceOwnWrite() -> Bool {
        guard let written = seen.withLock({ $0?.ownWrite }), written == FileStamp(path: url.path) else { return false }
        return unchangedSinceSeen()?.isOwnWrite == true
    }

    /// Remembers what a read found: `bytes` holding `values`. A read of the bytes this process
    /// wrote last keeps them known as its own.
    func rememberRead(_ bytes: Data, holding values: Values) {
        let fingerprint = Fingerprint(bytes)
        seen.withLock { seen in
            if let known = seen, known.fingerprint == fingerprint { return }
            seen = Seen(fingerprint: fingerprint, values: values, ownWrite: nil)
        }
    }

    /// Remembers this process's write of `bytes` holding `values`, just renamed into place.
    func rememberWrite(_ bytes: Data, holding values: Values) {
        let seen = Seen(fingerprint: Fingerprint(bytes), values: values, ownWrite: FileStamp(path: url.path))
        self.seen.withLock { $0 = seen }
    }

    /// Forgets what the file held: it is gone, empty or unparsable, whoever made it so.
    func forgetSeen() {
        seen.withLock { $0 = nil }
    }
}
