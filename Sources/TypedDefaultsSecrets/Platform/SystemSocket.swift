#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The few socket calls the bus connection makes, in the one place that names the C library.
enum SystemSocket {
    /// A non-blocking stream socket connected to the Unix socket at `path` (a leading NUL: an
    /// abstract address) by `deadline`: a bus whose queue of connections is full is tried
    /// again until then.
    static func connect(path: [UInt8], naming address: String, by deadline: ContinuousClock.Instant)
        throws(KeyringError) -> Int32
    {
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: socketAddress.sun_path)
        guard !path.isEmpty, path.count < capacity else {
            throw .noSessionBus("the socket path of \(address) is too long")
        }
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { buffer in
            for (index, byte) in path.enumerated() { buffer[index] = byte }
        }
        #if canImport(Darwin)
            let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
        #else
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #endif
        guard descriptor >= 0 else { throw .noSessionBus("socket(): \(lastError())") }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count)
        while true {
            let result = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Self.connect(descriptor, $0, length) }
            }
            if result == 0 { return descriptor }
            let failure = errno
            if failure == EINPROGRESS {
                // Connecting goes on: done once the socket can be written, or failed then.
                do {
                    try wait(descriptor, forWriting: true, within: ContinuousClock.now.duration(to: deadline))
                } catch {
                    close(descriptor)
                    throw error
                }
                var problem: Int32 = 0
                var size = socklen_t(MemoryLayout<Int32>.size)
                if getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &problem, &size) == 0, problem == 0 {
                    return descriptor
                }
                close(descriptor)
                throw .noSessionBus("connecting to \(address): \(String(cString: strerror(problem)))")
            }
            // A full queue of connections (EAGAIN): tried again until the deadline.
            guard failure == EAGAIN || failure == EINTR, ContinuousClock.now < deadline else {
                close(descriptor)
                if failure == EAGAIN { throw .timedOut }
                throw .noSessionBus("connecting to \(address): \(String(cString: strerror(failure)))")
            }
            usleep(5_000)
        }
    }

    private static func connect(_ socket: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        #if canImport(Darwin)
            Darwin.connect(socket, address, length)
        #else
            Glibc.connect(socket, address, length)
        #endif
    }

    static func close(_ socket: Int32) {
        #if canImport(Darwin)
            _ = Darwin.close(socket)
        #else
            _ = Glibc.close(socket)
        #endif
    }

    /// Waits at most `time` until `socket` can be written or read.
    static func wait(_ socket: Int32, forWriting: Bool, within time: Duration) throws(KeyringError) {
        guard time > .zero else { throw .timedOut }
        let (seconds, attoseconds) = time.components
        // At most a minute a wait: the caller loops until its deadline.
        let milliseconds = seconds >= 60 ? 60_000 : Int32(seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
        var descriptor = pollfd(fd: socket, events: Int16(forWriting ? POLLOUT : POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, milliseconds)
        if ready < 0, errno != EINTR { throw .noSessionBus("poll(): \(lastError())") }
    }

    /// Sends what it can of `bytes` without blocking; the count sent, perhaps 0.
    static func send(_ socket: Int32, _ bytes: ArraySlice<UInt8>) throws(KeyringError) -> Int {
        #if canImport(Darwin)
            let flags: Int32 = 0
        #else
            let flags = Int32(MSG_NOSIGNAL)
        #endif
        #if canImport(Darwin)
            let count = bytes.withUnsafeBytes { Darwin.send(socket, $0.baseAddress, $0.count, flags) }
        #else
            let count = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, flags) }
        #endif
        if count >= 0 { return count }
        if errno == EAGAIN || errno == EINTR { return 0 }
        throw .noSessionBus("the bus closed the connection: \(lastError())")
    }

    /// What can be read of `socket` without blocking, up to `limit` bytes, perhaps none.
    static func receive(_ socket: Int32, upTo limit: Int) throws(KeyringError) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: limit)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if count > 0 { return Array(chunk[..<count]) }
        if count == 0 { throw .noSessionBus("the bus closed the connection") }
        if errno == EAGAIN || errno == EINTR { return [] }
        throw .noSessionBus("reading from the bus: \(lastError())")
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}
