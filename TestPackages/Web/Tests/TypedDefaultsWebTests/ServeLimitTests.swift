import Foundation
import Testing
import TypedDefaults
import TypedDefaultsSchema

/// The settings server's limits, through a real `serve` on loopback: a request body over the
/// limit is refused with 413 and its connection closed, and an event stream's slot is free as
/// soon as its client disconnects.
@Suite struct ServeLimitTests {
    /// The head of a request to the server, with the token as a bearer token.
    static func head(_ server: ServeTests.Server, _ line: String, _ fields: [String] = []) throws -> String {
        let port = try #require(server.base.port)
        return ([line, "Host: 127.0.0.1:\(port)", "Authorization: Bearer \(server.token)"] + fields)
            .joined(separator: "\r\n") + "\r\n\r\n"
    }

    /// A body over the limit, announced by its length or sent in chunks without end: 413 with
    /// an error naming the limit, nothing stored, the connection closed rather than read for
    /// ever, and the server serving the next request.
    @Test(.timeLimit(.minutes(2)), arguments: ["Content-Length: 10485760", "Transfer-Encoding: chunked"])
    func aBodyOverTheLimitIs413(framing: String) async throws {
        let (suite, store) = try Serve.suite()
        _ = try DefaultsSchema.publish(ServeTestSettings(store: store))
        let server = try await ServeTests.Server(suite: suite)
        defer { server.stop() }
        let port = try #require(server.base.port)
        let connection = try RawConnection(
            port: port,
            request: try Self.head(
                server, "PUT /api/settings/fontSize HTTP/1.1", ["Content-Type: application/json", framing]))
        let bytes = [UInt8](repeating: UInt8(ascii: "7"), count: 65_536)
        if framing.hasPrefix("Content-Length") {
            connection.sendRepeatedly(bytes, total: 10_485_760)
        } else {
            connection.sendRepeatedly(Array("10000\r\n".utf8) + bytes + Array("\r\n".utf8))  // never ends
        }
        let answer = connection.response()
        #expect(answer.status == 413, "\(answer.body)")
        #expect(
            answer.body == #"{"error":"the request body is over the limit of 1048576 bytes"}"#, "\(answer.body)")
        #expect(connection.closedByServer(), "the rest of the body is not read: the connection is closed")

        store.refresh()
        #expect(try store.storedValues()[DefaultsStoredKey("fontSize")] == nil, "nothing stored")
        #expect(try await server.send("GET", "api/settings").status == 200, "the server goes on serving")
        let written = try await server.send("PUT", "api/settings/fontSize", body: #"{"value": 16}"#)
        #expect(written.status == 200, "\(written.body)")
    }

    /// A write that would take the suite past the store's size limit (the most Apple platforms
    /// keep in a suite) is 507 with the reason, and the suite is left as it was.
    @Test(.timeLimit(.minutes(2))) func aWritePastTheSuitesSizeLimitIs507SayingWhy() async throws {
        let (suite, store) = try Serve.suite()
        _ = try DefaultsSchema.publish(ServeTestSettings(store: store))
        let file = try #require(store.fileURL)
        try store.editStoredValues { $0["archive"] = .data(Data(count: 4_193_000)) }
        let before = try Data(contentsOf: file)
        let server = try await ServeTests.Server(suite: suite)
        defer { server.stop() }
        let nickname = String(repeating: "n", count: 2000)
        let refused = try await server.send("PUT", "api/settings/nickname", body: #"{"value": "\#(nickname)"}"#)
        #expect(refused.status == 507, "\(refused.body)")
        #expect(refused.body.contains("past its limit of 4194303"), "\(refused.body)")
        #expect(try Data(contentsOf: file) == before, "nothing stored")
        let written = try await server.send("PUT", "api/settings/nickname", body: #"{"value": "Ada"}"#)
        #expect(written.status == 200, "one that fits is stored: \(written.body)")
    }

    /// Clients that open every event stream the server allows and then disconnect free their
    /// slots at once, with no change to the suite to make the server write to them: the next
    /// page's stream is accepted within seconds, not at the next keep-alive comment (every 15 s).
    @Test(.timeLimit(.minutes(2))) func aClosedEventStreamFreesItsSlotAtOnce() async throws {
        let (suite, store) = try Serve.suite()
        _ = try DefaultsSchema.publish(ServeTestSettings(store: store))
        let server = try await ServeTests.Server(suite: suite)
        defer { server.stop() }
        let port = try #require(server.base.port)
        let request = try Self.head(server, "GET /api/events HTTP/1.1")
        var streams: [RawConnection] = []
        for _ in 0..<64 {
            let stream = try RawConnection(port: port, request: request)
            #expect(stream.status() == 200)
            streams.append(stream)
        }
        #expect(try RawConnection(port: port, request: request).status() == 503, "the 65th stream is refused")
        streams.removeAll()  // closes them all
        // Asked again until accepted or 5 s passed; asked at least once after the 5 s, so that a
        // test process kept from running meanwhile cannot fail it.
        let closed = ContinuousClock.now
        var next: RawConnection
        var status = 0
        repeat {
            if status != 0 { try await Task.sleep(for: .milliseconds(20)) }
            next = try RawConnection(port: port, request: request)
            status = next.status()
        } while status != 200 && ContinuousClock.now - closed < .seconds(5)
        let waited = ContinuousClock.now - closed
        #expect(status == 200, "a stream is accepted within 5 s of the others' disconnecting (waited \(waited))")
        withExtendedLifetime(next) {}
    }
}
