#if Web
    import Foundation
    import Hummingbird
    import Synchronization
    import TypedDefaults

    /// The page's event streams, fed by one observation of the suite: each change's row is read
    /// once, on the store's own observer queue (never on the threads that answer requests), and
    /// sent to every open stream.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    final class EventHub: Sendable {
        /// The most streams open at once; another is refused with 503.
        static let capacity = 64
        /// How often an idle stream sends a comment: a client that went away is noticed then.
        static let keepAlive: Duration = .seconds(15)

        private struct State {
            var streams: [UUID: AsyncStream<String>.Continuation] = [:]
            var observation: DefaultsObservation?
            var ticking: Task<Void, Never>?
        }

        private let state = Mutex(State())
        private let store: DefaultsStore
        /// The row of a key, as JSON, or `nil` when the suite cannot be read now.
        private let row: @Sendable (String) -> String?

        init(store: DefaultsStore, row: @escaping @Sendable (String) -> String?) {
            self.store = store
            self.row = row
        }

        /// A new stream of event texts, or `nil` when ``capacity`` streams are open. The first
        /// stream starts the observation; the last one to end stops it.
        func subscribe() -> (id: UUID, events: AsyncStream<String>)? {
            let (events, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(256))
            let id = UUID()
            let (accepted, starts) = state.withLock { state -> (Bool, Bool) in
                guard state.streams.count < Self.capacity else { return (false, false) }
                state.streams[id] = continuation
                return (true, state.observation == nil)
            }
            guard accepted else { return nil }
            if starts {
                let observation = store.observe { [weak self] change in self?.changed(change.key) }
                let ticking = Task { [weak self] in
                    while !Task.isCancelled {
                        try? await Task.sleep(for: Self.keepAlive)
                        self?.tick()
                    }
                }
                let surplus = state.withLock { state -> (DefaultsObservation, Task<Void, Never>)? in
                    if state.observation == nil, !state.streams.isEmpty {
                        state.observation = observation
                        state.ticking = ticking
                        return nil
                    }
                    return (observation, ticking)
                }
                surplus?.0.cancel()
                surplus?.1.cancel()
            }
            return (id, events)
        }

        func unsubscribe(_ id: UUID) {
            let ended = state.withLock { state in
                let continuation = state.streams.removeValue(forKey: id)
                guard state.streams.isEmpty else {
                    return (continuation, nil as DefaultsObservation?, nil as Task<Void, Never>?)
                }
                defer {
                    state.observation = nil
                    state.ticking = nil
                }
                return (continuation, state.observation, state.ticking)
            }
            ended.0?.finish()
            ended.1?.cancel()
            ended.2?.cancel()
        }

        /// Sends a comment to every stream, so that one whose client went away fails its write.
        private func tick() {
            for continuation in state.withLock({ Array($0.streams.values) }) { continuation.yield(": still here\n\n") }
        }

        /// Sends the key's row to every stream: a change of the suite, or of a secret in the keyring.
        func changed(_ key: String) {
            guard let row = row(key) else { return }
            let event = "event: change\ndata: \(row)\n\n"
            for continuation in state.withLock({ Array($0.streams.values) }) { continuation.yield(event) }
        }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    extension SettingsPage {
        /// The rows that change, as server-sent events (`event: change`, the row's JSON as data):
        /// another process's write, the tool's, another machine's on PostgreSQL, or this page's own.
        /// With ``endsStreamsAtDisconnect``, a client that disconnects frees its stream's slot at once.
        func events(_ request: Request) -> Response {
            guard let (id, events) = hub.subscribe() else {
                return refusal(.serviceUnavailable, "\(EventHub.capacity) pages are open on this server already")
            }
            let hub = self.hub
            let endsAtDisconnect = endsStreamsAtDisconnect
            let body = ResponseBody { writer in
                defer { hub.unsubscribe(id) }
                if endsAtDisconnect {
                    // The request's connection closing ends the stream: its slot is free now, not at
                    // the next write that fails (a keep-alive comment comes every 15 s).
                    try await request.body.consumeWithInboundCloseHandler { _ in
                        try await Self.send(events, to: &writer)
                    } onInboundClosed: {
                        hub.unsubscribe(id)
                    }
                } else {
                    try await Self.send(events, to: &writer)
                }
            }
            var headers = Self.headers(type: "text/event-stream")
            headers[.connection] = "keep-alive"
            return Response(status: .ok, headers: headers, body: body)
        }

        /// Writes `events` as they come, until the stream is finished.
        private static func send(_ events: AsyncStream<String>, to writer: inout any ResponseBodyWriter) async throws {
            try await writer.write(ByteBuffer(string: ": connected\n\n"))
            for await event in events { try await writer.write(ByteBuffer(string: event)) }
            try await writer.finish(nil)
        }
    }
#endif
