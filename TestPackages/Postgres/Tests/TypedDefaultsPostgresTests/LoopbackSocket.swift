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

    /// Accepts connections on `listener` on a thread of its own until the listener is shut down,
    /// then closes it. The accepting thread owns the listener, so its owner's `deinit` only
    /// shuts it down: a number closed while another thread still uses it may be handed to
    /// anything meanwhile. `take` gets each connection, or returns `false` when its owner is
    /// gone, and the connection is closed.
    static func acceptOnThread(_ listener: Int32, take: @escaping @Sendable (Int32) -> Bool) {
        Thread.detachNewThread {
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    close(listener)
                    return
                }
                if !take(client) { close(client) }
            }
        }
    }
}
