import Foundation

/// The names of administrator files each folder holds, remembered for the whole process, so
/// that opening a suite an administrator left no file for costs one `stat` a folder: its
/// listing is read again only when the folder may have changed.
///
/// A folder's modification time changes whenever an entry is added, removed or renamed, but a
/// file system keeps it to a granule (a second on some): a change made in the granule the
/// listing was made in may leave it as it was. So a listing is trusted only when it was made
/// more than a second after the folder last changed; a younger one is made again at each look.
enum FolderListings {
    /// What a look at a folder found.
    enum Listing: Equatable {
        /// No folder at the path: nothing to read.
        case missing
        /// The folder holds these names, of those ``AdministratorFiles`` reads.
        case names(Set<String>)
        /// It exists, but its entries cannot be listed (searchable, not readable: mode 0711):
        /// each file is tried by its name.
        case unlistable
        /// Whether the folder is there cannot be told (a folder above it that may not be
        /// searched, a symlink loop): this `errno`.
        case unknown(Int32)
    }

    /// Which version of a folder a listing is of. The status change time, which no program can
    /// set, tells a folder whose modification time was set back to the listed one.
    private struct Stamp: Equatable {
        let device: UInt64
        let inode: UInt64
        let modifiedSeconds: Int
        let modifiedNanoseconds: Int
        let changedSeconds: Int
        let changedNanoseconds: Int
    }

    private struct Remembered {
        var stamp: Stamp?
        var names: Set<String>?
        /// Times the folder was listed, for tests.
        var listings = 0
    }

    private static let remembered = Locked<[String: Remembered]>([:])

    /// The names of interest in the folder at `path` (links followed), from one `stat` when the
    /// folder has not changed since it was last listed.
    static func listing(of path: String) -> Listing {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            return code == ENOENT || code == ENOTDIR ? .missing : .unknown(code)
        }
        guard (status.st_mode & S_IFMT) == S_IFDIR else { return .missing }
        let modified = status.modificationTime
        let changed = status.statusChangeTime
        let stamp = Stamp(
            device: UInt64(truncatingIfNeeded: status.st_dev), inode: UInt64(truncatingIfNeeded: status.st_ino),
            modifiedSeconds: Int(modified.tv_sec), modifiedNanoseconds: Int(modified.tv_nsec),
            changedSeconds: Int(changed.tv_sec), changedNanoseconds: Int(changed.tv_nsec))
        let cached = remembered.withLock { folders -> Set<String>? in
            guard let folder = folders[path], folder.stamp == stamp else { return nil }
            return folder.names
        }
        if let cached { return .names(cached) }
        // Listed after the `stat`, its age taken before: an entry made while it is listed
        // changes the folder's time again, so the next look lists it anew.
        let age = Date().timeIntervalSince1970 - (Double(modified.tv_sec) + Double(modified.tv_nsec) / 1e9)
        let names = namesOfInterest(in: path)
        remembered.withLock { folders in
            var folder = folders[path] ?? Remembered()
            folder.listings += 1
            folder.stamp = age > 1 && names != nil ? stamp : nil
            folder.names = names
            folders[path] = folder
        }
        return names.map { .names($0) } ?? .unlistable
    }

    /// How many times the folder at `path` was listed in this process.
    static func listingCount(of path: String) -> Int {
        remembered.withLock { $0[path]?.listings ?? 0 }
    }

    /// The folder's entries whose names end as the files read do, `nil` when it cannot be
    /// listed.
    private static func namesOfInterest(in path: String) -> Set<String>? {
        guard let folder = opendir(path) else { return nil }
        defer { closedir(folder) }
        var names: Set<String> = []
        while true {
            errno = 0
            guard let entry = readdir(folder) else { return errno == 0 ? names : nil }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if AdministratorFiles.fileExtensions.contains(where: { name.hasSuffix(".\($0)") }) {
                names.insert(name)
            }
        }
    }
}
