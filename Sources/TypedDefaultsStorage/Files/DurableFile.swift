import Foundation

/// Replaces, renames and removes files so that a power cut at any instant leaves the old file
/// or the new one, never an empty or torn one, and so that the change is on the device when
/// the call returns (GLib's "durable" `g_file_set_contents_full`, which dconf uses):
///
/// 1. the new bytes go to a temporary file beside the target, which is synced to the device;
/// 2. it is renamed over the target;
/// 3. the folder is synced, so the rename itself is on the device.
///
/// Without step 1, a file system may commit the rename before the data (measured on ext4 and
/// XFS: the new name pointed at an empty file for 5 to 40 s). A sync that fails is a failed
/// write: before the rename, the temporary file is removed and the target is left as it was.
package enum DurableFile {
    /// Writes `data` to a new temporary file beside `target`, syncs it, and renames it over
    /// `target` (over a symlink there, not through it), then syncs the folder.
    /// - Parameters:
    ///   - target: the path the new file takes.
    ///   - data: its bytes.
    ///   - newFileMode: the mode a new file gets; an existing regular file's mode is kept.
    package static func replace(_ target: URL, with data: Data, newFileMode: mode_t) throws {
        let temporary = try writeTemporary(data, beside: target, newFileMode: newFileMode)
        guard rename(temporary.path, target.path) == 0 else {
            let error = SystemError.current
            unlink(temporary.path)
            throw error
        }
        do {
            try syncFolder(of: target)
        } catch {
            throw UnconfirmedRename(underlying: error)
        }
    }

    /// Syncs the file at `url` as it is, and its folder: for a commit that found the contents
    /// it was asked to write already there, written perhaps by a program that does not sync.
    package static func syncInPlace(_ url: URL) throws(SystemError) {
        let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            // No file (an empty suite) is synced by syncing the folder.
            if errno == ENOENT { return try syncFolder(of: url) }
            throw .current
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return }
        try sync(descriptor, for: url, step: .newContents)
        try syncFolder(of: url)
    }

    /// Removes the file at `url` (nothing there is no error) and syncs its folder.
    static func remove(_ url: URL) throws(SystemError) {
        // Gone already (a removal retried after its folder's sync failed): the folder is synced.
        if unlink(url.path) != 0, errno != ENOENT { throw .current }
        try syncFolder(of: url)
    }

    /// Makes the folder `folder` (and those above it) and syncs each new one into its parent,
    /// so that a suite's first file does not vanish with the folder that holds it.
    package static func makeFolder(_ folder: URL, mode: mode_t) {
        var missing: [URL] = []
        var current = folder.standardizedFileURL
        while current.path != "/", !FileManager.default.fileExists(atPath: current.path) {
            missing.append(current)
            current = current.deletingLastPathComponent()
        }
        for made in missing.reversed() {
            guard mkdir(made.path, mode) == 0 || errno == EEXIST else { return }
            try? syncFolder(of: made)
        }
    }

    /// Renames `source` to `destination` and syncs the folder; `false` when the rename failed.
    static func move(_ source: URL, to destination: URL) -> Bool {
        guard rename(source.path, destination.path) == 0 else { return false }
        // Moved, whether or not the device has the new name yet: a failed sync changes nothing.
        try? syncFolder(of: destination)
        return true
    }

    /// Syncs the folder holding `url`, so that a rename or removal in it survives a power cut.
    /// A folder this process may write in but not read (mode 0300) cannot be opened to be
    /// synced: there the file's contents are on the device and its rename follows with the file
    /// system's next commit, as for any program that writes there.
    static func syncFolder(of url: URL) throws(SystemError) {
        let folder = url.deletingLastPathComponent()
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == EACCES || errno == EPERM { return }
            throw .current
        }
        defer { close(descriptor) }
        try sync(descriptor, for: url, step: .folder)
    }

    /// Creates `.<name>.<pid>.<random>.tmp` beside `target` exclusively (never through a link
    /// planted at that name), with its mode from its first byte, writes `data` and syncs it.
    private static func writeTemporary(
        _ data: Data, beside target: URL, newFileMode: mode_t
    ) throws(SystemError) -> URL {
        let name = ".\(target.lastPathComponent).\(getpid()).\(String(UInt32.random(in: .min ... .max), radix: 16)).tmp"
        let folder = target.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(name)
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, newFileMode)
        guard descriptor >= 0 else { throw .current }
        var succeeded = false
        defer {
            close(descriptor)
            if !succeeded { unlink(temporary.path) }
        }
        // Keep the mode the owner gave an existing file.
        var status = stat()
        if stat(target.path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
            guard fchmod(descriptor, status.st_mode & 0o777) == 0 else { throw .current }
        }
        try writeAll(data, to: descriptor)
        try sync(descriptor, for: target, step: .newContents)
        succeeded = true
        return temporary
    }

    private static func writeAll(_ data: Data, to descriptor: Int32) throws(SystemError) {
        let failure: Int32? = data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return nil }
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, base + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure { throw SystemError(code: failure) }
    }

    /// Pushes what `descriptor` holds to the device. On Apple's platforms `fsync` leaves it in
    /// the drive's cache; `F_FULLFSYNC` flushes that too (SQLite's `fullfsync`), and where the
    /// file system has no such call, `fsync` is what there is. `target` is the file the sync
    /// is for: its new contents, or the folder entry that names it.
    private static func sync(_ descriptor: Int32, for target: URL, step: Step) throws(SystemError) {
        #if DEBUG
            let injected = InjectedFailure(path: target.standardizedFileURL.path, step: step)
            if let code = injectedFailures.withLock({ $0[injected] }) {
                throw SystemError(code: code)
            }
        #endif
        if FileSync.flushDriveCache(descriptor) { return }
        while fsync(descriptor) != 0 {
            guard errno == EINTR else { throw .current }
        }
    }

    /// What a sync is for: a file's new contents, or the folder entry that names the file.
    enum Step: Hashable, Sendable {
        case newContents
        case folder
    }

    #if DEBUG
        /// A sync that tests make fail: the step, for the file at `path` (standardized).
        struct InjectedFailure: Hashable, Sendable {
            var path: String
            var step: Step
        }

        /// Tests: each sync named here fails with the `errno` given, as a device that reports
        /// `EIO` would.
        static let injectedFailures = Locked<[InjectedFailure: Int32]>([:])
    #endif
}
