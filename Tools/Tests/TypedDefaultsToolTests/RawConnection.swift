import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP connection to a port on 127.0.0.1 that sends one request and reads the status line of
/// the answer: many of these hold many event streams open from one process, which closing them
/// lets go of at once (curl processes, one per stream, would be 64 children to reap).
final class RawConnection {
    private let descriptor: Int32

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

    deinit { close(descriptor) }
}
