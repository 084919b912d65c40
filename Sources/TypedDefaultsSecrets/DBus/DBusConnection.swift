import Foundation

/// A connection to the session bus over its Unix socket, for the length of one operation: every
/// wait on it ends by `deadline`, and it is closed when released.
final class DBusConnection {
    private let socket: Int32
    private let deadline: ContinuousClock.Instant
    private var nextSerial: UInt32 = 1
    /// Bytes read past the last message.
    private var buffered: [UInt8] = []

    private init(socket: Int32, deadline: ContinuousClock.Instant) {
        self.socket = socket
        self.deadline = deadline
    }

    /// Connects to the bus at `address` (`unix:path=…`, `unix:abstract=…`, several separated by
    /// `;`), authenticates as this user and says hello, all by `deadline`.
    static func open(address: String, deadline: ContinuousClock.Instant) throws(KeyringError) -> DBusConnection {
        var failures: [String] = []
        for candidate in address.split(separator: ";") {
            do {
                let connection = DBusConnection(
                    socket: try connect(String(candidate), by: deadline), deadline: deadline)
                try connection.authenticate()
                _ = try connection.call(
                    destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                    interface: "org.freedesktop.DBus", member: "Hello")
                return connection
            } catch .noSessionBus(let reason) {
                failures.append(reason)
            }
        }
        throw .noSessionBus(
            failures.isEmpty
                ? "the address \(address.debugDescription) names no socket" : failures.joined(separator: "; "))
    }

    deinit {
        SystemSocket.close(socket)
    }

    /// The session bus's address: `DBUS_SESSION_BUS_ADDRESS`, else the socket a systemd user
    /// session keeps at `$XDG_RUNTIME_DIR/bus`.
    static func sessionBusAddress(environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(KeyringError)
        -> String
    {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty,
            FileManager.default.fileExists(atPath: runtime + "/bus")
        {
            return "unix:path=" + runtime + "/bus"
        }
        throw .noSessionBus("DBUS_SESSION_BUS_ADDRESS is not set and $XDG_RUNTIME_DIR/bus does not exist")
    }

    /// Calls `member` and returns the reply's body; an error reply throws ``KeyringError/refused(_:_:)``.
    func call(
        destination: String, path: String, interface: String, member: String, _ body: [DBusValue] = []
    ) throws(KeyringError) -> [DBusValue] {
        let serial = nextSerial
        nextSerial += 1
        let message = DBusMessage.call(
            serial: serial, destination: destination, path: path, interface: interface, member: member, body: body)
        let bytes: [UInt8]
        do {
            bytes = try message.encoded()
        } catch {
            // Made here, from the item's names: a NUL in a key or a service.
            throw .unsupportedItem("\(member): \(error)")
        }
        try send(bytes)
        while true {
            let reply = try receive()
            guard reply.replySerial == serial else { continue }  // signals, and replies to no call of ours
            switch reply.kind {
            case .methodReturn: return reply.body
            case .error:
                let (name, text) = reply.errorDescription
                throw .refused(name, text)
            case .methodCall, .signal: continue
            }
        }
    }

    // MARK: The socket

    private static func connect(_ address: String, by deadline: ContinuousClock.Instant) throws(KeyringError) -> Int32 {
        guard address.hasPrefix("unix:") else {
            throw .noSessionBus("only unix: addresses are supported, not \(address)")
        }
        var entries: [String: String] = [:]
        for pair in address.dropFirst(5).split(separator: ",") {
            guard let equals = pair.firstIndex(of: "=") else { continue }
            entries[String(pair[..<equals])] = String(pair[pair.index(after: equals)...]).removingPercentEncoding
        }
        let path: [UInt8]
        if let file = entries["path"] {
            path = Array(file.utf8)
        } else if let abstract = entries["abstract"] {
            path = [0] + Array(abstract.utf8)
        } else {
            throw .noSessionBus("the address \(address) has neither path= nor abstract=")
        }
        return try SystemSocket.connect(path: path, naming: address, by: deadline)
    }

    /// The time left until `deadline`, or ``KeyringError/timedOut`` once it passed.
    private func timeLeft() throws(KeyringError) -> Duration {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { throw .timedOut }
        return left
    }

    private func send(_ bytes: [UInt8]) throws(KeyringError) {
        var sent = 0
        while sent < bytes.count {
            try SystemSocket.wait(socket, forWriting: true, within: try timeLeft())
            sent += try SystemSocket.send(socket, bytes[sent...])
        }
    }

    /// At least one more byte from the socket into ``buffered``.
    private func fill() throws(KeyringError) {
        while true {
            try SystemSocket.wait(socket, forWriting: false, within: try timeLeft())
            let chunk = try SystemSocket.receive(socket, upTo: 4096)
            if !chunk.isEmpty {
                buffered += chunk
                return
            }
        }
    }

    private func receive() throws(KeyringError) -> DBusMessage {
        do {
            while buffered.count < DBusMessage.fixedLength { try fill() }
            let length = try DBusMessage.length(from: Array(buffered.prefix(DBusMessage.fixedLength)))
            while buffered.count < length { try fill() }
            let message = try DBusMessage(decoding: Array(buffered.prefix(length)))
            buffered.removeFirst(length)
            return message
        } catch let error as KeyringError {
            throw error
        } catch {
            throw .malformedReply("\(error)")
        }
    }

    /// The SASL exchange: `EXTERNAL` with this process's user id, the only one a local bus needs.
    private func authenticate() throws(KeyringError) {
        let uid = String(getuid()).utf8.map { String(format: "%02x", $0) }.joined()
        try send([0] + Array("AUTH EXTERNAL \(uid)\r\n".utf8))
        while !buffered.contains(UInt8(ascii: "\n")) {
            guard buffered.count < 512 else { throw .noSessionBus("the bus answered authentication with too much") }
            try fill()
        }
        guard let end = buffered.firstIndex(of: UInt8(ascii: "\n")) else { return }
        let line = String(decoding: buffered[..<end], as: UTF8.self)
        buffered.removeSubrange(...end)
        guard line.hasPrefix("OK ") else {
            throw .noSessionBus("the bus refused this user: \(line.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        try send(Array("BEGIN\r\n".utf8))
    }
}
