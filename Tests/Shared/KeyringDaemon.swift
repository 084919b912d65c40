import Foundation

@testable import TypedDefaultsSecrets

/// A session bus of its own with a GNOME Keyring daemon on it, its keyring unlocked, in a
/// temporary home: a test's keyring, which no other test and not the user's keyring shares.
/// Both programs are this process's children, ended when it is released.
final class KeyringDaemon {
    /// Whether the machine has the programs (Debian's `gnome-keyring` and `dbus-daemon`).
    static let isInstalled = ["/usr/bin/gnome-keyring-daemon", "/usr/bin/dbus-daemon"].allSatisfy {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    let home: URL
    /// The bus's address, for this process's keyring and for child processes.
    let address: String
    private let bus = Process()
    /// The keyring daemon running now: another after ``restartLocked()``.
    private var daemon = Process()

    /// A bus that starts no service when a call names one (the standard session bus would start
    /// the installed keyring daemon), and lets everyone on it talk to everyone: the file beside
    /// this one's, which .ci/web-page.py reads too.
    private static let busConfiguration = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("keyring-bus.conf")

    /// Starts the bus and, unless `withDaemon` is false, the keyring daemon on it, and waits
    /// until the daemon answers. Not `unlocking`, the daemon finds no keyring in the new home
    /// and makes none.
    init(withDaemon: Bool = true, unlocking: Bool = true) throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("keyring-\(UUID().uuidString)")
        let runtime = home.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime.path)
        let configuration = Self.busConfiguration

        bus.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        bus.arguments = ["--nofork", "--print-address=1", "--config-file=\(configuration.path)"]
        let printed = Pipe()
        bus.standardOutput = printed
        bus.standardError = FileHandle.nullDevice
        try bus.run()
        var text = ""
        while !text.contains("\n") {
            let data = printed.fileHandleForReading.availableData
            guard !data.isEmpty else { throw Failed(description: "dbus-daemon ended before it gave its address") }
            text += String(decoding: data, as: UTF8.self)
        }
        address = String(text.prefix { $0 != "\n" })
        guard withDaemon else { return }
        try startDaemon(unlocking: unlocking)
    }

    /// Starts the keyring daemon on the bus, in the home, and waits until it answers. Unlocking,
    /// it reads the login keyring's password (made with it on the first start); otherwise the
    /// login keyring stays locked, as after a reboot before the desktop's login unlocks it.
    private func startDaemon(unlocking: Bool) throws {
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/gnome-keyring-daemon")
        daemon.arguments = ["--foreground", "--components=secrets"] + (unlocking ? ["--unlock"] : [])
        daemon.environment = [
            "PATH": "/usr/bin:/bin", "HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_RUNTIME_DIR": home.appendingPathComponent("run").path, "DBUS_SESSION_BUS_ADDRESS": address,
        ]
        let password = Pipe()
        daemon.standardInput = password
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        // It reads the login keyring's password to the end of its input.
        if unlocking { try password.fileHandleForWriting.write(contentsOf: Data("test password".utf8)) }
        try password.fileHandleForWriting.close()
        try waitUntil(answered: true)
    }

    /// Ends the keyring daemon and starts another on the same keyring files; not `unlocking`
    /// them, a keyring that starts locked.
    func restart(unlocking: Bool) throws {
        Self.end(daemon)
        // Its name released first, so that the next daemon is the one that answers.
        try waitUntil(answered: false)
        daemon = Process()
        try startDaemon(unlocking: unlocking)
    }

    /// Waits at most 20 s until the daemon answers on the bus (a locked keyring answers too), or
    /// until none does.
    private func waitUntil(answered: Bool) throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while true {
            do {
                _ = try keyring.containsSecret(for: KeyringItem(service: "ready", account: "ready"))
                if answered { return }
            } catch .locked {
                if answered { return }
            } catch {
                guard case .serviceUnavailable = error else { throw error }
                if !answered { return }
            }
            guard ContinuousClock.now < deadline else {
                throw Failed(description: "the keyring daemon did not \(answered ? "answer" : "end") in 20 s")
            }
            usleep(20_000)
        }
    }

    deinit {
        for process in [daemon, bus] where process.processIdentifier > 0 {
            Self.end(process)
        }
        try? FileManager.default.removeItem(at: home)
    }

    /// Ends `process` with SIGKILL: a child started from a dispatch thread inherits its blocked
    /// SIGTERM, and the daemon writes its keyring file at each change, so nothing is lost. Reaped
    /// here or by Foundation, whichever comes first (then `waitpid` finds no such child); waits
    /// at most 10 s.
    private static func end(_ process: Process) {
        let pid = process.processIdentifier
        kill(pid, SIGKILL)
        let deadline = ContinuousClock.now + .seconds(10)
        var status: Int32 = 0
        while ContinuousClock.now < deadline {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid || (reaped == -1 && errno == ECHILD) { return }
            usleep(5_000)
        }
    }

    /// The system keyring, reached over this bus.
    var keyring: SystemKeyring {
        var keyring = SystemKeyring(timeout: .seconds(10))
        keyring.environment = ["DBUS_SESSION_BUS_ADDRESS": address]
        return keyring
    }

    /// Every file the keyring daemon wrote, for a scan for a secret's bytes.
    var files: [URL] {
        let found = FileManager.default.enumerator(at: home, includingPropertiesForKeys: nil)?.allObjects ?? []
        return found.compactMap { $0 as? URL }.filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }
    }

    /// Locks the login keyring, as a screen lock does; unlocking it again takes a prompt.
    func lockAll() throws {
        let service = SecretService(timeout: .seconds(10), environment: ["DBUS_SESSION_BUS_ADDRESS": address])
        try service.withSession { session throws(KeyringError) in
            _ = try session.call(
                SecretService.servicePath, "org.freedesktop.Secret.Service", "Lock",
                [.array(element: "o", [.objectPath("/org/freedesktop/secrets/collection/login")])])
        }
    }
}

extension SystemKeyring {
    /// How many items the keyring holds for `item`: one, however often it was replaced.
    func itemCount(for item: KeyringItem) throws -> Int {
        let service = SecretService(timeout: timeout, environment: environment ?? [:])
        return try service.withSession { session throws(KeyringError) in
            let (unlocked, locked) = try session.search(item)
            return unlocked.count + locked.count
        }
    }
}

/// A Unix socket that is listened on and never answered: a bus that hangs.
final class SilentSocket {
    private let descriptor: Int32

    init(path: String, backlog: Int32 = 4) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() where index < buffer.count - 1 { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(descriptor, backlog) == 0 else {
            throw KeyringDaemon.Failed(description: "cannot listen on \(path)")
        }
    }

    func close() {
        _ = Glibc.close(descriptor)
    }
}
