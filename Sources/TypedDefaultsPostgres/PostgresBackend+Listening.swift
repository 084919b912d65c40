#if Postgres
    import Foundation
    import NIOCore
    import PostgresNIO
    import TypedDefaults

    /// Hearing of other backends' commits: a `LISTEN` on a connection of its own.
    extension PostgresBackend {
        public func observeChanges(_ changed: @escaping @Sendable () -> Void) {
            let start = listenerLock.withLock { () -> Bool in
                if var listening {
                    listening.handlers.append(changed)
                    self.listening = listening
                    return false
                }
                return true
            }
            guard start else { return }
            listen(handlers: [changed], retryDelay: 0.1)
        }

        /// Tells the store that the values may have changed, as a notification does (off the event
        /// loop); nothing before the listener has connected, which tells it then.
        func announceChange() {
            let handlers = listenerLock.withLock { listening?.handlers ?? [] }
            guard !handlers.isEmpty else { return }
            DispatchQueue.global().async { handlers.forEach { $0() } }
        }

        /// Connects a connection of its own, listens on the table's channel, and calls `handlers`
        /// (off the event loop) for each notification naming the suite. When the connection is
        /// lost, it connects again, waiting longer each time up to 5 s (see ``listenDelay(after:refused:)``).
        /// Once listening, the first time too, it calls `handlers`: changes made before were not
        /// announced. Connecting waits
        /// ``connectTimeout`` at most, and `LISTEN` ``requestTimeout``: a server that accepts
        /// connections and never answers is tried again as one that cannot be reached.
        func listen(handlers: [@Sendable () -> Void], retryDelay: TimeInterval) {
            let suite = self.suite
            let notify: @Sendable () -> Void = { [weak self] in
                guard let self else { return }
                let handlers = self.listenerLock.withLock { self.listening?.handlers ?? handlers }
                DispatchQueue.global().async { handlers.forEach { $0() } }
            }
            let eventLoop = eventLoopGroup.next()
            PostgresConnection.connect(
                on: eventLoop, configuration: configuration, id: Self.nextConnectionID.next(), logger: logger
            ).flatMap { connection in
                connection.addListener(channel: self.channel) { _, notification in
                    if notification.payload == suite { notify() }
                }
                let unanswered = eventLoop.scheduleTask(in: .milliseconds(Self.milliseconds(self.requestTimeout))) {
                    Self.close(connection)
                }
                return connection.query(PostgresQuery(unsafeSQL: "LISTEN \(self.channel)"), logger: self.logger).map {
                    _ -> PostgresConnection in
                    unanswered.cancel()
                    return connection
                }.flatMapErrorThrowing { error -> PostgresConnection in
                    // Not listening: closed before it goes.
                    unanswered.cancel()
                    Self.close(connection)
                    throw error
                }
            }.whenComplete { [weak self] result in
                guard let self else {
                    if case .success(let connection) = result { Self.close(connection) }
                    return
                }
                switch result {
                case .success(let connection):
                    self.listenerLock.withLock {
                        self.listening = (connection, self.listening?.handlers ?? handlers)
                    }
                    // Changes committed before `LISTEN` took effect, since the handlers were given,
                    // were not announced, the first time as after a reconnection: the store looks
                    // (a store that has read nothing yet has nothing to look at).
                    notify()
                    connection.closeFuture.whenComplete { _ in
                        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { [weak self] in
                            self?.listen(handlers: handlers, retryDelay: 0.2)
                        }
                    }
                case .failure(let error):
                    let next = Self.listenDelay(after: retryDelay, refused: !PostgresProblem(error).isPassing)
                    DispatchQueue.global().asyncAfter(deadline: .now() + retryDelay) { [weak self] in
                        self?.listen(handlers: handlers, retryDelay: next)
                    }
                }
            }
        }

        /// How long the listener waits after a failed connection that waited `delay`: twice as
        /// long, up to 5 s while the server cannot be reached or is restarting, and up to a minute
        /// when it refuses the login (the store reports that when it loads), so that a wrong
        /// password does not fill the server's log.
        static func listenDelay(after delay: TimeInterval, refused: Bool) -> TimeInterval {
            min(delay * 2, refused ? 60 : 5)
        }
    }
#endif
