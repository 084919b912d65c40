import Foundation

/// A throwaway file system on a loop device, and copies of what its device holds at an
/// instant: a copy of the backing image is exactly what the disk held then, as after a power
/// cut. Needs root and loop devices (`losetup`), `mkfs.ext4`/`e2fsck` (e2fsprogs) and
/// `mkfs.xfs` (xfsprogs).
final class LoopDisk {
    let fileSystem: String
    /// Where the file system is mounted.
    let mountPoint: URL
    private let scratch: URL
    private let image: URL
    private let device: String

    /// Why no loop disk can be made here, or `nil` when one can.
    static let whyUnavailable: String? = {
        guard getuid() == 0 else { return "it needs root, for losetup and mount" }
        guard FileManager.default.fileExists(atPath: "/dev/loop-control") else { return "there are no loop devices" }
        let tools = ["losetup", "mount", "umount", "truncate", "cp", "mkfs.ext4", "e2fsck", "mkfs.xfs"]
        let folders = ["/usr/sbin", "/sbin", "/usr/bin", "/bin"]
        for tool in tools
        where !folders.contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }) {
            return "\(tool) is not installed (e2fsprogs, xfsprogs)"
        }
        return nil
    }()

    /// Makes and mounts a file system of `fileSystem` ("ext4" or "xfs") on a new loop device.
    init(fileSystem: String) async throws {
        self.fileSystem = fileSystem
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("loop-disk-\(UUID().uuidString)")
        image = scratch.appendingPathComponent("image")
        mountPoint = scratch.appendingPathComponent("mounted")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        // XFS needs 300 MB at least; the file is sparse, so it takes what is written.
        try await Self.run("truncate", "-s", "320M", image.path)
        if fileSystem == "xfs" {
            try await Self.run("mkfs.xfs", "-q", "-f", image.path)
        } else {
            try await Self.run("mkfs.ext4", "-q", "-F", image.path)
        }
        device = try await Self.run("losetup", "--find", "--show", image.path).trimmingCharacters(
            in: .whitespacesAndNewlines)
        try await Self.run("mount", device, mountPoint.path)
    }

    /// Runs `body` on a copy of what the device holds now, mounted at a place of its own, after
    /// the checks a boot would make (`e2fsck`; XFS replays its log when mounted).
    func whatTheDeviceHolds<Result>(_ body: (URL) throws -> Result) async throws -> Result {
        let copy = scratch.appendingPathComponent("copy")
        let copyMount = scratch.appendingPathComponent("copy-mounted")
        try FileManager.default.createDirectory(at: copyMount, withIntermediateDirectories: true)
        try await Self.run("cp", "--sparse=always", image.path, copy.path)
        defer { try? FileManager.default.removeItem(at: copy) }
        if fileSystem == "ext4" {
            // 0: clean; 1: errors corrected (the journal replayed). Anything more is a damaged disk.
            let status = try await Self.status("e2fsck", "-fy", copy.path)
            guard status <= 1 else { throw Failed(description: "e2fsck found errors it could not correct (\(status))") }
        }
        // XFS refuses a second file system with the same UUID unless told.
        let options = fileSystem == "xfs" ? "loop,nouuid" : "loop"
        try await Self.run("mount", "-o", options, copy.path, copyMount.path)
        defer { _ = try? Self.runBlocking(["umount", copyMount.path]) }
        return try body(copyMount)
    }

    /// Unmounts the file system and frees the device.
    func remove() async {
        _ = try? await Self.run("umount", mountPoint.path)
        _ = try? await Self.run("losetup", "--detach", device)
        try? FileManager.default.removeItem(at: scratch)
    }

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs a command to the end; throws unless it exits 0. Returns its standard output.
    @discardableResult
    static func run(_ arguments: String...) async throws -> String {
        let (status, output, errors) = try await launch(arguments)
        guard status == 0 else {
            throw Failed(description: "\(arguments.joined(separator: " ")): \(status): \(errors)")
        }
        return output
    }

    static func status(_ arguments: String...) async throws -> Int32 {
        try await launch(arguments).status
    }

    private static func runBlocking(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
    }

    private static func launch(_ arguments: [String]) async throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = "/usr/sbin:/sbin:/usr/bin:/bin"
        process.environment = environment
        let (output, errors) = (Pipe(), Pipe())
        process.standardOutput = output
        process.standardError = errors
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        // The commands print a line or two: the pipes never fill before they end.
        return (
            status, String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        )
    }
}
