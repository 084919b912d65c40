import Foundation

/// A file the user names for the tool to write (`export suite FILE`), written without ever
/// putting something else in place of what is at its path (`Data.write(options: .atomic)`
/// renames a new file over a link, a FIFO, even `/dev/full`):
///
/// - a regular file, or nothing, is replaced in one step: a file written beside it, flushed to
///   the disk, with its permissions (and, when allowed, owner), then renamed over it;
/// - a symbolic link is followed: its target is written as above, and the link stays; a link
///   to what has no path (`/dev/stdout` to a pipe) is written through, as `>` writes it;
/// - a FIFO, a device or anything else that is no folder is written into as it is (opened for
///   writing, as the shell's `>` does; a FIFO waits for its reader);
/// - a folder, or a path in a folder that does not exist, is refused.
///
/// Any failure is a ``ToolError`` of one line that says how much was written: "nothing was
/// written" only when that is true.
enum OutputFile {
    /// Writes `bytes` to the file at `path`; see the type's description.
    static func write(_ bytes: [UInt8], to path: String) throws(ToolError) {
        // A FIFO whose reader has gone is a failure to report (EPIPE), not a signal that ends the
        // process; and a file beyond `ulimit -f` is EFBIG, not SIGXFSZ.
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        guard !path.isEmpty else { throw ToolError("cannot write a file with no name; nothing was written") }
        let target = try followingLinks(path)
        let named = target == path ? path : "\(path) (a link to \(target))"
        var status = stat()
        guard lstat(target, &status) == 0 else {
            let code = errno
            guard code == ENOENT else { throw failure(named, code) }
            // A link that names nothing to `readlink` and something to the kernel, which follows
            // it (`/dev/stdout`, `/proc/self/fd/1` to a pipe, "pipe:[…]"): written through.
            if target != path, stat(path, &status) == 0 {
                let kind = status.st_mode & S_IFMT
                guard kind != S_IFDIR else {
                    throw ToolError("cannot write \(path): it is a folder; nothing was written")
                }
                try writeInPlace(path, bytes, path, truncating: kind == S_IFREG)
                return
            }
            try checkFolder(of: target, named)
            try replace(target, with: bytes, like: nil, named)
            return
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: try replace(target, with: bytes, like: status, named)
        case S_IFDIR: throw ToolError("cannot write \(named): it is a folder; nothing was written")
        default: try writeInPlace(target, bytes, named, truncating: false)
        }
    }

    /// Writes `bytes` to standard output (`-`). A write that fails (a full disk) is one line; a
    /// pipe whose reader has gone (`| head`) ends the process quietly, as it ends `cat`.
    static func writeToStandardOutput(_ bytes: [UInt8]) throws(ToolError) {
        signal(SIGXFSZ, SIG_IGN)
        let (written, code) = writeAll(bytes, to: STDOUT_FILENO)
        if let code { throw failure("standard output", code, written: written, of: bytes.count) }
    }

    /// `path`, its last component followed through symbolic links to what they name (which may
    /// not exist: a new file is made there, as `>` makes one).
    private static func followingLinks(_ path: String) throws(ToolError) -> String {
        var current = path
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count)
            guard length >= 0 else { throw failure(path, errno) }
            guard length < buffer.count else { throw failure(path, ENAMETOOLONG) }
            let destination = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let folder = split(current).folder
            current =
                destination.hasPrefix("/")
                ? destination : folder == "/" ? "/" + destination : folder + "/" + destination
        }
        throw failure(path, ELOOP)
    }

    /// The folder a new file at `path` goes in must exist: the tool makes no folders.
    private static func checkFolder(of path: String, _ named: String) throws(ToolError) {
        let (folder, name) = split(path)
        guard !name.isEmpty else {
            throw ToolError("cannot write \(named): the folder does not exist; nothing was written")
        }
        var status = stat()
        guard stat(folder, &status) == 0 else {
            let code = errno
            guard code == ENOENT else { throw failure(named, code) }
            throw ToolError("cannot write \(named): the folder \(folder) does not exist; nothing was written")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw ToolError("cannot write \(named): \(folder) is not a folder; nothing was written")
        }
    }

    /// Replaces the regular file at `path` (or makes it) in one step; `existing`, its status,
    /// gives the new file its permissions and owner.
    private static func replace(
        _ path: String, with bytes: [UInt8], like existing: stat?, _ named: String
    ) throws(ToolError) {
        let folder = split(path).folder
        let temporary = "\(folder)/.typed-defaults-export-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
        // 0666 less the umask, as any new file; an existing file's own permissions below.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw failure(named, errno) }
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        if let existing {
            // Best effort: only root may give a file away, and a file system may keep no modes.
            if existing.st_uid != geteuid() || existing.st_gid != getegid() {
                _ = fchown(descriptor, existing.st_uid, existing.st_gid)
            }
            _ = fchmod(descriptor, existing.st_mode & 0o7777)
        }
        var (_, code) = writeAll(bytes, to: descriptor)
        if code == nil, fsync(descriptor) != 0 { code = errno }
        if close(descriptor) != 0, code == nil { code = errno }
        if let code { throw failure(named, code) }
        guard rename(temporary, path) == 0 else { throw failure(named, errno) }
        renamed = true
        // The rename itself to the disk too. A folder that may be written but not read cannot
        // be opened to be synced; one whose sync fails holds the file, not known to be on the device.
        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        var folderCode: Int32? = folderDescriptor >= 0 || errno == EACCES || errno == EPERM ? nil : errno
        if folderDescriptor >= 0 {
            if fsync(folderDescriptor) != 0 { folderCode = errno }
            _ = close(folderDescriptor)
        }
        if let code = folderCode {
            throw ToolError(
                "wrote \(named), but the device did not confirm it is on it (\(String(cString: strerror(code)))); "
                    + "export again to be sure it is kept")
        }
    }

    /// Writes into what is at `path` as it is: a FIFO, a device; a regular file only through a
    /// link to a descriptor, `truncating` it.
    private static func writeInPlace(
        _ path: String, _ bytes: [UInt8], _ named: String, truncating: Bool
    ) throws(ToolError) {
        let descriptor = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | (truncating ? O_TRUNC : 0))
        guard descriptor >= 0 else { throw failure(named, errno) }
        var (written, code) = writeAll(bytes, to: descriptor)
        if close(descriptor) != 0, code == nil { code = errno }
        if let code { throw failure(named, code, written: written, of: bytes.count) }
    }

    /// Writes all of `bytes`, through interruptions and short writes; how many were written, and
    /// the error that stopped it.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> (written: Int, error: Int32?) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return Foundation.write(descriptor, base + written, buffer.count - written)
            }
            if count > 0 {
                written += count
                continue
            }
            let code = errno
            if count < 0, code == EINTR { continue }
            if count < 0, code == EAGAIN || code == EWOULDBLOCK {
                // A descriptor another process left non-blocking: wait until it takes more.
                var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, -1)
                continue
            }
            return (written, count < 0 ? code : EIO)
        }
        return (written, nil)
    }

    /// One line for a failure: what, why, and how much was written.
    private static func failure(_ named: String, _ code: Int32, written: Int = 0, of total: Int = 0) -> ToolError {
        let reason = String(cString: strerror(code))
        let outcome = written == 0 ? "nothing was written" : "\(written) of \(total) bytes were written"
        return ToolError("cannot write \(named): \(reason); \(outcome)")
    }

    /// The folder `path` is in and its last component.
    private static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }
}
