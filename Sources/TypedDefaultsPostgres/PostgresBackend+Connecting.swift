#if Postgres
    import Foundation
    import NIOCore
    import PostgresNIO
    import TypedDefaults

    /// Connecting: one attempt at a time, run on the event loop and shared by every call that waits
    /// for it, so that no call waits for another's turn to connect, and a load gives up at once on a
    /// server that did not answer the last attempt.
    extension PostgresBackend {
        /// What a call finds of the backend's connection.
        enum Connecting {
            case connected(PostgresConnection)
            case connecting(EventLoopFuture<PostgresConnection>)
            /// The last attempt failed; another is under way.
            case failed(DefaultsError)
        }

        /// The backend's connection, waited for until `deadline` when an attempt is under way (one
        /// is started when there is none or it was lost). With `failingFast` (a load), a server
        /// whose last attempt failed fails the call at once, with that failure: a read must not wait
        /// `connectTimeout` again and again on a server that does not answer. The attempt goes on
        /// meanwhile, and the store is told to load once it connects.
        func connection(before deadline: ContinuousClock.Instant, failingFast: Bool) throws(DefaultsError)
            -> PostgresConnection
        {
            let attempt: EventLoopFuture<PostgresConnection>
            switch connectionLock.withLock({ connectionOrAttempt(failingFast: failingFast) }) {
            case .connected(let connection): return connection
            case .failed(let failure): throw failure
            case .connecting(let future): attempt = future
            }
            do {
                return try Self.wait(for: attempt, seconds: Self.seconds(until: deadline), .connecting)
            } catch {
                throw connectingFailure(error)
            }
        }

        /// ``connection(before:failingFast:)``'s state, under `connectionLock`.
        func connectionOrAttempt(failingFast: Bool) -> Connecting {
            if let connection, !connection.isClosed { return .connected(connection) }
            connection = nil
            let attempt = connecting ?? startConnecting()
            if failingFast, let connectFailure {
                loadFailedFast = true
                return .failed(connectFailure)
            }
            return .connecting(attempt)
        }

        /// Forgets `connection` when it is the backend's (it failed or was given up on): the next
        /// call connects again.
        func forget(_ connection: PostgresConnection) {
            connectionLock.withLock {
                if self.connection === connection { self.connection = nil }
            }
        }

        /// Starts an attempt (under `connectionLock`), whose outcome is kept when it ends: the
        /// connection, or its failure for loads to fail fast with.
        private func startConnecting() -> EventLoopFuture<PostgresConnection> {
            let attempt = makeConnection()
            connecting = attempt
            // Off the caller's thread: a call on the backend's own loop is refused before it gets here.
            attempt.whenComplete { [weak self] result in
                guard let self else {
                    if case .success(let connection) = result { Self.close(connection) }
                    return
                }
                let announce = self.connectionLock.withLock { () -> Bool in
                    if self.connecting === attempt { self.connecting = nil }
                    switch result {
                    case .success(let connection):
                        self.connection = connection
                        self.connectFailure = nil
                        defer { self.loadFailedFast = false }
                        return self.loadFailedFast
                    case .failure(let error):
                        self.connectFailure = self.connectingFailure(error)
                        return false
                    }
                }
                // A load refused meanwhile (a read, a refresh, a reload for a change heard) gave
                // nothing: the store loads now.
                if announce { self.announceChange() }
            }
            return attempt
        }

        /// A new connection, with the database's encoding checked and the tables made sure of:
        /// connecting waits ``connectTimeout`` at most, each query ``requestTimeout``.
        private func makeConnection() -> EventLoopFuture<PostgresConnection> {
            var configuration = self.configuration
            // postgres-nio's own bound, a little later, closes what it opened; the one below is
            // what callers see.
            configuration.options.connectTimeout = .milliseconds(Self.milliseconds(connectTimeout + 1))
            let attempt = PostgresConnection.connect(
                on: eventLoopGroup.next(), configuration: configuration, id: Self.nextConnectionID.next(),
                logger: logger)
            // A connection made after all is closed, not left open.
            return Self.bounded(attempt, seconds: connectTimeout, .connecting) { Self.close($0) }.flatMap {
                connection in
                self.prepare(connection)
            }
        }

        /// Refuses a database whose encoding cannot hold every character a key or value may have
        /// (LATIN1 has no 🙂; UTF8 holds them all, SQL_ASCII stores the bytes it is given), and
        /// creates the tables and triggers when missing (``setupStatement``); closes `connection`
        /// when that fails.
        private func prepare(_ connection: PostgresConnection) -> EventLoopFuture<PostgresConnection> {
            let location = self.location
            var prepared = query("SELECT current_setting('server_encoding')", on: connection).flatMapThrowing {
                result in
                let encoding = try? result.rows.first?.decode(String.self)
                guard let encoding, !["UTF8", "SQL_ASCII"].contains(encoding) else { return }
                throw DefaultsError.readFailed(path: location, underlying: UnsupportedEncoding(encoding: encoding))
            }
            let steps: [PostgresQuery] = [
                "BEGIN",
                // Under a lock of the table's name: two first connections creating the table at once
                // would otherwise collide in PostgreSQL's catalog.
                PostgresQuery(unsafeSQL: "SELECT pg_advisory_xact_lock(hashtext($1))", binds: binds(table)),
                PostgresQuery(unsafeSQL: setupStatement),
                "COMMIT",
            ]
            for step in steps {
                prepared = prepared.flatMap { self.query(step, on: connection).map { _ in } }
            }
            return prepared.map { connection }.flatMapErrorThrowing { error in
                Self.close(connection)
                throw error
            }
        }

        /// `query` on `connection`, failed after ``requestTimeout`` (the connection is then closed).
        private func query(_ query: PostgresQuery, on connection: PostgresConnection) -> EventLoopFuture<
            PostgresQueryResult
        > {
            Self.bounded(connection.query(query, logger: logger), seconds: requestTimeout, .answer) { _ in }
                .flatMapErrorThrowing { error in
                    if error is RequestTimeout { Self.close(connection) }
                    throw error
                }
        }

        /// `future`, failed with a ``RequestTimeout`` after `seconds`; a value that comes later is
        /// given to `late`.
        static func bounded<Value: Sendable>(
            _ future: EventLoopFuture<Value>, seconds: TimeInterval, _ stage: RequestTimeout.Stage,
            late: @escaping @Sendable (Value) -> Void
        ) -> EventLoopFuture<Value> {
            let promise = future.eventLoop.makePromise(of: Value.self)
            let timeout = future.eventLoop.scheduleTask(in: .milliseconds(milliseconds(seconds))) {
                promise.fail(RequestTimeout(stage, seconds: seconds))
                future.whenSuccess(late)
            }
            future.whenComplete { result in
                timeout.cancel()
                promise.completeWith(result)
            }
            return promise.futureResult
        }

        /// What a failure to connect is reported as: a read that failed (a commit reports it as a
        /// write that failed).
        func connectingFailure(_ error: any Error) -> DefaultsError {
            switch error {
            case let error as DefaultsError: error
            case let timeout as RequestTimeout: .readFailed(path: location, underlying: timeout)
            default: .readFailed(path: location, underlying: PostgresProblem(error))
            }
        }
    }
#endif
