import Foundation

/// What this process last read from the file or wrote to it, so that a commit does not parse a
/// file no one has changed since this process parsed or wrote it, and the file watcher does not
/// read again a file this process wrote last. (A read alone does not spare the watcher's
/// reload: what a read found may never have reached the suite's state, such as a read of
/// ``DefaultsStore/storedValues()``.)
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
        var values: [DefaultsStoredKey: StoredObject]
        /// This process wrote the bytes, and synced them to the device.
        var isOwnWrite: Bool
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

    /// What this process last read or wrote, if the file still holds exactly those bytes.
    func unchangedSinceSeen() -> Seen? {
        guard let seen = seen.withLock({ $0 }), case .success(let bytes?) = FileBytes.contents(of: url.path),
            Fingerprint(bytes) == seen.fingerprint
        else { return nil }
        return seen
    }

    /// Remembers `bytes` as what the file holds, and `values` as what they hold. A read of the
    /// bytes this process wrote last keeps them known as its own write.
    func remember(_ bytes: Data?, holding values: [DefaultsStoredKey: StoredObject], isOwnWrite: Bool) {
        let fingerprint = bytes.map(Fingerprint.init)
        seen.withLock { seen in
            guard let fingerprint else {
                seen = nil
                return
            }
            if !isOwnWrite, let known = seen, known.fingerprint == fingerprint { return }
            seen = Seen(fingerprint: fingerprint, values: values, isOwnWrite: isOwnWrite)
        }
    }
}
