import Foundation
import Hummingbird
import TypedDefaults

extension SettingsPage {
    /// How often an idle event stream sends a comment: a client that went away is noticed then,
    /// and its observation ends.
    static let keepAlive: Duration = .seconds(15)

    /// The rows that change, as server-sent events (`event: change`, the row's JSON as data),
    /// each as the suite holds it when it is sent: another process's write, the tool's, another
    /// machine's on PostgreSQL, or this page's own.
    func events() -> Response {
        let (keys, continuation) = AsyncStream<String?>.makeStream(bufferingPolicy: .bufferingNewest(1_024))
        let observation = store.observe { change in continuation.yield(change.key) }
        let ticking = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.keepAlive)
                continuation.yield(nil)
            }
        }
        let body = ResponseBody { writer in
            defer {
                observation.cancel()
                ticking.cancel()
                continuation.finish()
            }
            try await writer.write(ByteBuffer(string: ": connected\n\n"))
            for await key in keys {
                guard let key else {
                    try await writer.write(ByteBuffer(string: ": still here\n\n"))
                    continue
                }
                guard let row = try? rows().row(DefaultsStoredKey(key)) else { continue }
                try await writer.write(ByteBuffer(string: "event: change\ndata: \(row)\n\n"))
            }
            try await writer.finish(nil)
        }
        var headers = Self.headers(type: "text/event-stream")
        headers[.connection] = "keep-alive"
        return Response(status: .ok, headers: headers, body: body)
    }
}
