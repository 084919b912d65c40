import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP connection to a port on 127.0.0.1 that sends one request and reads the status line of
/// the answer: many of these hold many event streams open from one process, which closing them
/// lets go of at once (curl processes, one per stream, would be 64 children to reap). It can
/// also send a request's body from another thread while the answer is read, as a client
/// uploading a large or endless body does.
final class RawConnection {
    private let descriptor: Int32
    /// The thread sending a body, if one is; stopped before the socket is closed.
    private var pump: BodyPump?

    /// Connects, sends `request` as it is, and waits at most 10 s for the answer's first line.
    init(port: Int, request: String) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        // A throw from here on still runs deinit, which closes the socket: closing it here too
        // would close a number another thread may have been given meanwhile.
        guard connected == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        let bytes = Array(request.utf8)
        guard bytes.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, 0) }) == bytes.count else {
            throw POSIXError(.EIO)
        }
    }

    /// The answer's status code, read from its first line; 0 if none came within the timeout.
    func status() -> Int {
        var received: [UInt8] = []
        var byte: UInt8 = 0
        while received.count < 200, recv(descriptor, &byte, 1, 0) == 1 {
            if byte == UInt8(ascii: "\n") { break }
            received.append(byte)
        }
        let line = String(decoding: received, as: UTF8.self).split(separator: " ")
        return line.count > 1 ? Int(line[1]) ?? 0 : 0
    }

    /// Sends `chunk` again and again from another thread, until `total` bytes are sent, the
    /// connection fails, or the connection is let go of.
    func sendRepeatedly(_ chunk: [UInt8], total: Int? = nil) {
        pump = BodyPump(descriptor: descriptor, chunk: chunk, total: total)
    }

    /// The answer's status code and body (as long as its `Content-Length` says); status 0 if no
    /// complete answer came within the timeout.
    func response() -> (status: Int, body: String) {
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while head.count < 16_384, !head.suffix(4).elementsEqual("\r\n\r\n".utf8) {
            guard recv(descriptor, &byte, 1, 0) == 1 else { return (0, "") }
            head.append(byte)
        }
        let lines = String(decoding: head, as: UTF8.self).split(separator: "\r\n")
        let statusLine = lines.first?.split(separator: " ") ?? []
        let length =
            lines.first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        var body = [UInt8](repeating: 0, count: length)
        var received = 0
        while received < length {
            let count = body.withUnsafeMutableBytes { buffer in
                buffer.baseAddress.map { recv(descriptor, $0 + received, length - received, 0) } ?? 0
            }
            guard count > 0 else { break }
            received += count
        }
        return (
            statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0, String(decoding: body.prefix(received), as: UTF8.self)
        )
    }

    /// Whether the server closed the connection (an end of stream or a reset) within the
    /// receive timeout, with nothing more sent.
    func closedByServer() -> Bool {
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, 0)
        return count == 0 || (count < 0 && (errno == ECONNRESET || errno == EPIPE))
    }

    deinit {
        pump?.stop()
        close(descriptor)
    }
}

/// Sends a chunk again and again on a thread of its own until told to stop, `total` bytes are
/// sent, or a send fails. Sends time out every 0.2 s, so that a server that stopped reading
/// cannot keep the thread (and so the socket, which its owner closes only after ``stop()``).
final class BodyPump: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(descriptor: Int32, chunk: [UInt8], total: Int?) {
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        Thread.detachNewThread { [self] in
            defer { finished.signal() }
            guard !chunk.isEmpty else { return }
            var sent = 0
            var offset = 0
            while !stopped.load(ordering: .relaxed), total.map({ sent < $0 }) ?? true {
                let count = min(chunk.count - offset, (total ?? Int.max) - sent)
                let result = chunk.withUnsafeBytes { buffer in
                    buffer.baseAddress.map { send(descriptor, $0 + offset, count, Int32(MSG_NOSIGNAL)) } ?? -1
                }
                if result < 0 {
                    if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
                    return
                }
                sent += result
                offset = (offset + result) % chunk.count
            }
        }
    }

    /// Stops sending and waits until the thread no longer uses the socket.
    func stop() {
        stopped.store(true, ordering: .relaxed)
        finished.wait()
    }
}
