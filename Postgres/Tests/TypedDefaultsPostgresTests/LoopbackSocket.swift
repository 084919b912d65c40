import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// TCP on 127.0.0.1, for the stand-in servers of these tests.
enum LoopbackSocket {
    /// The address of `port` on 127.0.0.1.
    static func address(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// A socket listening on a port the system picks, and that port.
    static func listening(backlog: Int32) throws -> (descriptor: Int32, port: UInt16) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.address(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, backlog) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        return (listener, UInt16(bigEndian: address.sin_port))
    }
}
