import Foundation

/// Reads the bytes of a file the program did not necessarily write (a suite, a schema), so
/// that nothing planted at its path can hang the read or take the machine's memory: a FIFO
/// (whose plain `open` waits for a writer for ever), a device (`/dev/zero` never ends) and a
/// file larger than ``limit`` are refused before any of their bytes are read.
package enum FileBytes {
    /// The largest file read: 64 MiB, sixteen times the 4 MiB Apple's platforms warn about for
    /// one suite, so no suite a program really keeps comes near it, while reading and decoding a
    /// file this large stays well under a gigabyte.
    static let limit = 64 << 20

    /// Why a file's bytes were not read, in one line.
    enum Refusal: Error, CustomStringConvertible {
        case notARegularFile(kind: String)
        case tooLarge(size: Int)

        var description: String {
            switch self {
            case .notARegularFile(let kind): "it is \(kind), not a regular file"
            case .tooLarge(let size): "it is \(size) bytes, more than the \(FileBytes.limit >> 20) MiB a file may hold"
            }
        }
    }

    /// The bytes of the file at `path` (through symlinks), `nil` when there is none. Anything
    /// else that stops the read is the error: a ``SystemError`` or a ``Refusal``.
    package static func contents(of path: String) -> Result<Data?, any Error> {
        // Non-blocking, so a FIFO opens at once and is refused below; a regular file's reads
        // are unaffected.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return .success(nil) }
            return .failure(SystemError.current)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(SystemError.current) }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            return .failure(Refusal.notARegularFile(kind: kind(of: status.st_mode)))
        }
        guard status.st_size <= limit else { return .failure(Refusal.tooLarge(size: Int(status.st_size))) }
        var data = Data()
        // One byte past the limit tells a file that grows while it is read (or one whose size
        // the system does not tell, as /proc's) from one that fits.
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
                guard data.count <= limit else { return .failure(Refusal.tooLarge(size: data.count)) }
            } else if count == 0 {
                return .success(data)
            } else if errno != EINTR {
                return .failure(SystemError.current)
            }
        }
    }

    private static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "no regular file"
        }
    }
}
