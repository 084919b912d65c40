import Foundation
import Synchronization
import Testing
import TypedDefaults
import TypedDefaultsPostgres

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback relay between the backend and the server that can cut the connection right after
/// passing on a `COMMIT`, before the server's answer comes back: the commit is stored, but the
/// backend cannot know it.
final class CuttingRelay: @unchecked Sendable {  // State only under `lock`; sockets per thread.
    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var armed = false
    /// Whether the server's answers are held back, as a server that stopped answering would.
    private var frozen = false
    private var cuts = 0
    /// Every byte the backend sent, as the network carried it.
    private var sent = Data()

    init(to serverPort: UInt16) throws {
        let (listener, port) = try LoopbackSocket.listening(backlog: 16)
        self.listener = listener
        self.port = port
        LoopbackSocket.acceptOnThread(listener) { [weak self] client in
            guard let self else { return false }
            self.relay(client, serverPort: serverPort)
            return true
        }
    }

    deinit { shutdown(listener, Int32(SHUT_RDWR)) }

    /// Cuts the next connection that passes on a `COMMIT`, once.
    func armCut() { lock.withLock { armed = true } }

    var cutCount: Int { lock.withLock { cuts } }

    /// From now on, passes nothing of what the server says on to the backend, on every
    /// connection: what a server that stopped answering looks like.
    func freeze() { lock.withLock { frozen = true } }

    /// Passes the server's answers on again; connections that lost some stay broken.
    func thaw() { lock.withLock { frozen = false } }

    private var isFrozen: Bool { lock.withLock { frozen } }

    /// Whether the backend sent `text` where the network could read it.
    func carried(_ text: String) -> Bool { lock.withLock { sent.range(of: Data(text.utf8)) != nil } }

    private func relay(_ client: Int32, serverPort: UInt16) {
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = LoopbackSocket.address(port: serverPort)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            close(client)
            close(server)
            return
        }
        // Each direction shuts the other down when it ends; the second to end closes both
        // sockets, so neither is closed while the other thread still reads or writes it.
        let ends = Ends()
        let ended: @Sendable () -> Void = {
            if ends.count.add(1, ordering: .acquiringAndReleasing).newValue == 2 {
                close(client)
                close(server)
            }
        }
        Thread.detachNewThread { [weak self] in
            // Server to client, unless frozen.
            Self.pump(from: server, to: client, holding: { self?.isFrozen ?? false }) { _ in false }
            shutdown(client, Int32(SHUT_RDWR))
            ended()
        }
        Thread.detachNewThread { [weak self] in
            // Client to server: a chunk holding COMMIT, when armed, is passed on and the
            // client's side cut before the answer can come back.
            Self.pump(from: client, to: server) { chunk in
                guard let self else { return false }
                return self.lock.withLock {
                    self.sent.append(chunk)
                    guard self.armed, chunk.range(of: Data("COMMIT\0".utf8)) != nil else { return false }
                    self.armed = false
                    self.cuts += 1
                    return true
                }
            }
            // The server's side stays open a moment, so that it reads and runs the COMMIT.
            usleep(200_000)
            shutdown(server, Int32(SHUT_RDWR))
            ended()
        }
    }

    /// How many of a connection's two directions have ended.
    private final class Ends: Sendable {
        let count = Atomic(0)
    }

    /// Copies bytes until either side closes, or `cutAfter` says to stop after a chunk; drops
    /// what comes while `holding` says so.
    private static func pump(
        from source: Int32, to destination: Int32, holding: () -> Bool = { false }, cutAfter: (Data) -> Bool
    ) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(source, &buffer, buffer.count)
            guard count > 0 else { return }
            if holding() { continue }
            let chunk = Data(buffer[0..<count])
            let stop = cutAfter(chunk)
            if stop {
                // The server gets the COMMIT; the client must not get the answer.
                shutdown(source, Int32(SHUT_RDWR))
            }
            var sent = 0
            while sent < count {
                let written = buffer.withUnsafeBytes { write(destination, $0.baseAddress! + sent, count - sent) }
                guard written > 0 else { return }
                sent += written
            }
            if stop { return }
        }
    }
}

/// A commit whose answer is lost is neither lost nor stored twice.
@Suite(.enabled(if: TestServer.isAvailable, "no PostgreSQL server: set PGHOST (.ci/postgres.sh start)"))
struct LostAnswerTests {
    private func backend(through relay: CuttingRelay, suite: String) throws -> PostgresBackend {
        var configuration = try #require(TestServer.configuration)
        configuration = .init(
            host: "127.0.0.1", port: Int(relay.port), username: configuration.username,
            password: configuration.password, database: configuration.database, tls: .disable)
        return try PostgresBackend(configuration: configuration, suite: suite)
    }

    @Test func anIncrementWhoseCommitAnswerIsLostCountsOnce() throws {
        let serverPort = try #require(TestServer.configuration?.port)
        let relay = try CuttingRelay(to: UInt16(serverPort))
        let suite = "lost.answer.\(UUID())"
        let backend = try backend(through: relay, suite: suite)
        _ = try backend.load()
        relay.armCut()
        var runs = 0
        _ = try backend.commit([:], before: .now + .seconds(10)) { values in
            runs += 1
            let current = if case .integer(let count)? = values["counter"] { count } else { Int64(0) }
            values["counter"] = .integer(current + 1)
        }
        #expect(relay.cutCount == 1)
        #expect(runs == 1)
        #expect(try TestServer.backend(suite: suite).load()["counter"] == .integer(1))
    }

    @Test func anUpdateThroughAStoreCountsOnceWhenItsAnswerIsLost() throws {
        let serverPort = try #require(TestServer.configuration?.port)
        let relay = try CuttingRelay(to: UInt16(serverPort))
        let suite = "lost.answer.store.\(UUID())"
        let store = DefaultsStore(backend: try backend(through: relay, suite: suite))
        let counter = DefaultsKey<Int>("counter", default: 0, store: store)
        store.update(counter) { $0 += 1 }
        relay.armCut()
        store.update(counter) { $0 += 1 }
        #expect(relay.cutCount == 1)
        #expect(store[counter] == 2)
        #expect(try TestServer.backend(suite: suite).load()["counter"] == .integer(2))
    }
}
