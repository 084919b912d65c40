import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A suite's property-list file: read, replaced atomically, locked across processes, and
/// preserved aside when it does not parse.
struct PlistFile: Sendable {
    let url: URL

    var lockURL: URL { url.appendingPathExtension("lock") }

    /// The contents, or empty when there is no file. A file that does not parse is moved aside
    /// (under the lock, after a fresh look, so a good file written meanwhile is never moved).
    func load() -> SuiteContents {
        if let values = try? read() { return SuiteContents(values: values) }
        do {
            return try withExclusiveLock { () throws(DefaultsError) in readMovingCorruptAside() }
        } catch {
            return SuiteContents(values: [:], problem: error)
        }
    }

    /// Reads the file; a file that still does not parse after a short wait (a plain
    /// `UserDefaults` writer may be halfway through rewriting it) is renamed to
    /// `<suite>.plist.corrupt-<timestamp>` and read as empty, with the problem to report.
    /// Call with the lock held.
    func readMovingCorruptAside() -> SuiteContents {
        var lastError: (any Error)?
        for attempt in 0..<3 {
            if attempt > 0 { usleep(50_000) }
            do {
                return SuiteContents(values: try read())
            } catch {
                lastError = error
            }
        }
        let aside = preserveAside()
        let problem = DefaultsError.corruptFile(
            path: url.path, preservedAt: aside?.path, underlying: lastError ?? CocoaError(.fileReadCorruptFile))
        return SuiteContents(values: [:], problem: problem)
    }

    /// What tells one version of the file from another: a rename gives a new inode, a rewrite in
    /// place a new modification time or size.
    struct Identity: Equatable, Sendable {
        var inode: UInt64
        var modified: timespec
        var size: Int64

        static func == (first: Identity, second: Identity) -> Bool {
            first.inode == second.inode && first.size == second.size
                && first.modified.tv_sec == second.modified.tv_sec && first.modified.tv_nsec == second.modified.tv_nsec
        }
    }

    /// The file's identity now, or `nil` when there is no file.
    func identity() -> Identity? {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return nil }
        #if canImport(Darwin)
            return Identity(inode: UInt64(status.st_ino), modified: status.st_mtimespec, size: Int64(status.st_size))
        #else
            return Identity(inode: UInt64(status.st_ino), modified: status.st_mtim, size: Int64(status.st_size))
        #endif
    }

    /// The parsed contents; empty when the file does not exist or is empty, as corelibs reads it.
    func read() throws -> [String: PropertyList] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [:] }
        let data = try Data(contentsOf: url)
        guard !data.isEmpty else { return [:] }
        let root = try PropertyListSerialization.propertyList(from: data, format: nil)
        guard let entries = StoredObject.dictionary(root) else {
            throw DefaultsTypeMismatch(expected: "a dictionary at the root", found: StoredObject.describe(root))
        }
        return entries.mapValues(PropertyList.init)
    }

    /// Writes `contents` to a temporary file beside the suite and renames it over the suite, so
    /// readers see the old file or the new one, never a mix. No contents removes the file, as
    /// corelibs does.
    func replace(with contents: [String: PropertyList]) throws(DefaultsError) {
        do {
            if contents.isEmpty {
                if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
                return
            }
            let data = try PropertyListXML.data(contents)
            let temporary = url.deletingLastPathComponent()
                .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
            try data.write(to: temporary)
            guard chmod(temporary.path, 0o600) == 0, rename(temporary.path, url.path) == 0 else {
                let error = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                unlink(temporary.path)
                throw error
            }
        } catch {
            throw .writeFailed(path: url.path, underlying: error)
        }
    }

    /// Runs `body` holding an exclusive `flock` on the sidecar lock file, which no writer
    /// replaces, so every process that locks it agrees on one lock.
    func withExclusiveLock<Result>(_ body: () throws(DefaultsError) -> Result) throws(DefaultsError) -> Result {
        let folder = url.deletingLastPathComponent()
        try? FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let descriptor = open(lockURL.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .writeFailed(path: lockURL.path, underlying: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw .writeFailed(path: lockURL.path, underlying: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
            }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// Renames the file to `<name>.corrupt-<UTC timestamp>`; returns where it went.
    private func preserveAside() -> URL? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss.SSS'Z'"
        let stamp = formatter.string(from: Date())
        for suffix in ["", "-1", "-2", "-3"] {
            let aside = URL(fileURLWithPath: "\(url.path).corrupt-\(stamp)\(suffix)")
            guard !FileManager.default.fileExists(atPath: aside.path) else { continue }
            return rename(url.path, aside.path) == 0 ? aside : nil
        }
        return nil
    }
}
