#if Postgres
    import Foundation
    import NIOCore
    import PostgresNIO
    import TypedDefaults

    /// The backend's connection, its queries, and the failures they meet.
    extension PostgresBackend {
        /// Whether a failure may pass by itself: the connection was lost or timed out, or the server
        /// is shutting down, starting up or out of connections. Not a refused login, nor a value
        /// the server cannot store.
        static func isPassing(_ error: DefaultsError) -> Bool {
            switch error {
            case .readFailed(_, let underlying), .writeFailed(_, let underlying):
                if underlying is RequestTimeout { return true }
                return (underlying as? PostgresProblem)?.isPassing ?? false
            default:
                return false
            }
        }

        /// A deadline nearer than this is the store's at exit (2 s; a commit is given 5 s otherwise),
        /// which a commit keeps instead of waiting out an outage.
        static let shortDeadline: TimeInterval = 4.5

        /// How long the request about to be made may wait for its answer (under `lock`):
        /// ``requestTimeout``, and never past the deadline of the call under way.
        var requestWait: TimeInterval {
            min(requestTimeout, requestDeadline.map(Self.seconds(until:)) ?? .infinity)
        }

        /// Runs `body` with the backend's connection, connecting (and creating the table) when
        /// there is none or it was lost; one caller at a time, so a transaction never interleaves.
        /// Every wait ends by `deadline`: for another call's turn, for connecting (and never past
        /// ``connectTimeout``), and for each request (never past ``requestTimeout``), so a request
        /// that hangs neither uses up a commit's retries nor holds the process's exit. With
        /// `failingFast` (a load), a server whose last attempt to connect failed fails the call at
        /// once, before it waits for another call's turn (see ``connection(before:failingFast:)``).
        func withConnection<Result>(
            before deadline: ContinuousClock.Instant, failingFast: Bool = false,
            _ body: (PostgresConnection) throws(DefaultsError) -> Result
        ) throws(DefaultsError) -> Result {
            if failingFast {
                // Not behind another call's turn, which may be waiting for the server.
                let known = connectionLock.withLock { connectionOrAttempt(failingFast: true) }
                if case .failed(let failure) = known { throw failure }
            }
            let start = ContinuousClock.now
            guard lock.lock(before: deadline) else {
                throw .readFailed(
                    path: location, underlying: RequestTimeout(.busy, seconds: Self.seconds(since: start)))
            }
            requestDeadline = deadline
            defer {
                requestDeadline = nil
                lock.unlock()
            }
            let connection = try self.connection(before: deadline, failingFast: failingFast)
            do throws(DefaultsError) {
                return try body(connection)
            } catch {
                // A connection that failed mid-transaction, or was given up on (and is closing), may
                // be unusable: the next call makes a new one.
                if connection.isClosed || Self.isTimeout(error) { forget(connection) }
                throw error
            }
        }

        /// Whether `error` is a wait that ran out.
        static func isTimeout(_ error: DefaultsError) -> Bool {
            switch error {
            case .readFailed(_, let underlying), .writeFailed(_, let underlying): underlying is RequestTimeout
            default: false
            }
        }

        /// Whole milliseconds in `seconds`, for NIO: none for a time that is not positive (or not a
        /// number), a year at most.
        static func milliseconds(_ seconds: TimeInterval) -> Int64 {
            guard seconds > 0 else { return 0 }
            return Int64(min(seconds, 366 * 86_400) * 1000)
        }

        /// The instant `seconds` from now on the monotonic clock, which every wait of the backend is
        /// measured on (the wall clock moves when the machine's clock is stepped): a year at most,
        /// now for a time that is not positive or not a number.
        static func instant(after seconds: TimeInterval) -> ContinuousClock.Instant {
            .now + .milliseconds(milliseconds(seconds))
        }

        /// The seconds from now until `instant`, negative once it has passed.
        static func seconds(until instant: ContinuousClock.Instant) -> TimeInterval {
            let (seconds, attoseconds) = (instant - .now).components
            return Double(seconds) + Double(attoseconds) / 1e18
        }

        /// The seconds since `instant`.
        static func seconds(since instant: ContinuousClock.Instant) -> TimeInterval {
            -seconds(until: instant)
        }

        /// Closes `connection`, keeping it until it is closed: postgres-nio requires that of a
        /// connection that goes.
        static func close(_ connection: PostgresConnection) {
            connection.close().whenComplete { _ in _ = connection }
        }

        /// The suite's rows, each key exactly as stored: PostgreSQL compares `text` byte for byte,
        /// so two keys that differ only in their Unicode normalization are two rows.
        func rows(of connection: PostgresConnection, locking: Bool) throws(DefaultsError) -> [DefaultsStoredKey:
            DefaultsStoredValue]
        {
            let query = PostgresQuery(
                unsafeSQL: "SELECT key, value FROM \(table) WHERE suite = $1" + (locking ? " FOR UPDATE" : ""),
                binds: binds(suite))
            let result = try run(query, on: connection)
            var rows: [(key: String, value: String)] = []
            for row in result.rows {
                do {
                    rows.append(try row.decode((String, String).self))
                } catch {
                    throw .corrupt(key: "\(suite) row", underlying: PostgresProblem(error))
                }
            }
            do {
                return try PostgresRows.values(rows)
            } catch {
                throw .corrupt(key: "\(suite) row", underlying: error)
            }
        }

        func upsert(key: String, value: String) -> PostgresQuery {
            PostgresQuery(
                unsafeSQL: """
                    INSERT INTO \(table) (suite, key, value) VALUES ($1, $2, $3)
                    ON CONFLICT (suite, key) DO UPDATE
                    SET value = EXCLUDED.value, version = \(table).version + 1, updated_at = now()
                    """, binds: binds(suite, key, value))
        }

        func binds(_ values: String...) -> PostgresBindings {
            var bindings = PostgresBindings(capacity: values.count)
            for value in values { bindings.append(value) }
            return bindings
        }

        @discardableResult
        func run(_ query: PostgresQuery, on connection: PostgresConnection) throws(DefaultsError)
            -> PostgresQueryResult
        {
            let wait = requestWait
            do {
                // A request left no time is not sent: the connection is closed as for a timeout,
                // which ends the transaction under way.
                guard wait > 0 else { throw RequestTimeout(.answer, seconds: 0) }
                return try Self.wait(for: connection.query(query, logger: logger), seconds: wait, .answer)
            } catch let timeout as RequestTimeout {
                // A server that stopped answering: the connection is dropped, and the next call
                // connects again.
                Self.close(connection)
                throw .writeFailed(path: location, underlying: timeout)
            } catch {
                throw .writeFailed(path: location, underlying: PostgresProblem(error))
            }
        }
    }

    extension PostgresBackend {
        /// The value of `future`, waited for at most `seconds`: a server that stops answering
        /// (stopped, its host gone, or only accepting connections) must not hold a commit, and the
        /// store's lock, for ever. Waits on a semaphore, never with `EventLoopFuture.wait()`, whose
        /// precondition kills a process that waits on any event loop; callers on the backend's own
        /// loops are refused before (see ``isOnOwnEventLoop``).
        ///
        /// - Parameters:
        ///   - future: What is waited for.
        ///   - seconds: How long; none when not positive.
        ///   - stage: What the ``RequestTimeout`` thrown names.
        static func wait<Value: Sendable>(
            for future: EventLoopFuture<Value>, seconds: TimeInterval, _ stage: RequestTimeout.Stage
        ) throws -> Value {
            let outcome = Outcome<Value>()
            future.whenComplete { outcome.complete($0) }
            guard let result = outcome.wait(milliseconds: milliseconds(seconds)) else {
                throw RequestTimeout(stage, seconds: seconds)
            }
            return try result.get()
        }

        /// Whether this thread is one of the backend's event loops: what the backend waits for runs
        /// there, so waiting would deadlock, and a call is refused instead.
        var isOnOwnEventLoop: Bool {
            eventLoopGroup.makeIterator().contains { $0.inEventLoop }
        }
    }

    /// Fires the timeouts of ``Outcome``: a serial queue, which libdispatch always gives a thread of
    /// its own (unlike the global queues, whose threads may all be waiting for an outcome).
    private let outcomeTimeouts = DispatchQueue(label: "TD.postgresTimeouts")

    /// A future's result, handed from its event loop to the thread that waits for it.
    final class Outcome<Value: Sendable>: @unchecked Sendable {  // `result` and `ended` only under `lock`.
        private let lock = NSLock()
        private let ended = DispatchSemaphore(value: 0)
        private var result: Result<Value, any Error>?
        private var hasEnded = false

        func complete(_ result: Result<Value, any Error>) {
            end { self.result = result }
        }

        /// The result, or `nil` when it did not come in time. The semaphore is waited for without a
        /// timeout, and a timer on the monotonic clock ends the wait: on Linux a timed wait's
        /// deadline is on the wall clock, which a clock stepped back would move.
        func wait(milliseconds: Int64) -> Result<Value, any Error>? {
            outcomeTimeouts.asyncAfter(deadline: .now() + .milliseconds(Int(milliseconds))) { self.end {} }
            ended.wait()
            return lock.withLock { result }
        }

        /// Ends the wait once, with what `body` sets.
        private func end(_ body: () -> Void) {
            let isFirst = lock.withLock {
                guard !hasEnded else { return false }
                hasEnded = true
                body()
                return true
            }
            if isFirst { ended.signal() }
        }
    }

    /// A call on one of the backend's own event loops, refused: it would wait for work that runs on
    /// that loop.
    struct OnOwnEventLoop: Error, CustomStringConvertible {
        var description: String {
            "PostgreSQL: called on one of the backend's own event loops, where waiting for the server would "
                + "deadlock; call the store off that loop, or give the backend an eventLoopGroup of its own"
        }
    }

    /// A connection attempt or query the server did not answer in time, or a call that did not get
    /// its turn on the backend's connection in time.
    struct RequestTimeout: Error, CustomStringConvertible {
        enum Stage {
            case connecting, answer, busy
        }

        let stage: Stage
        let seconds: TimeInterval

        init(_ stage: Stage, seconds: TimeInterval) {
            self.stage = stage
            self.seconds = seconds
        }

        var description: String {
            // Not a number, or beyond a year, would not convert to Int.
            let tenths = seconds > 0 ? (min(seconds, 366 * 86_400) * 10).rounded() : 0
            let time = tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10))" : "\(tenths / 10)"
            return switch stage {
            case .connecting: "PostgreSQL: not connected in \(time) s"
            case .answer: "PostgreSQL: no answer in \(time) s"
            case .busy: "PostgreSQL: the backend's connection was busy for \(time) s"
            }
        }
    }

    /// A PostgreSQL error, described by what the server or connection said: never the query's
    /// parameters, nor the password.
    struct PostgresProblem: Error, CustomStringConvertible {
        let description: String
        /// The server's SQLSTATE, when it answered with this error.
        let state: String?
        /// Whether the server answered with this error (so a transaction it ends stored nothing).
        let isServerError: Bool
        /// See ``PostgresBackend/isPassing(_:)``.
        let isPassing: Bool

        init(_ error: any Error) {
            guard let error = error as? PSQLError else {
                // Connecting failed below PostgreSQL (refused, unreachable, reset): the network's.
                description = "PostgreSQL: \(String(describing: type(of: error)))"
                state = nil
                isServerError = false
                isPassing = true
                return
            }
            let message =
                error.serverInfo?[.message] ?? error.underlying.map { "\(error.code) (\($0))" } ?? "\(error.code)"
            description = "PostgreSQL: \(message)"
            state = error.serverInfo?[.sqlState]
            guard let state else {
                isServerError = false
                isPassing = [.connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection]
                    .contains(error.code)
                return
            }
            isServerError = true
            // 08: connection exception; 57P01–57P03: shutting down, crashed, starting up;
            // 53300: too many connections; 40001, 40P01: serialization failure, deadlock.
            isPassing =
                state.hasPrefix("08") || ["57P01", "57P02", "57P03", "53300", "40001", "40P01"].contains(state)
        }
    }

    /// A database whose encoding cannot hold every character.
    struct UnsupportedEncoding: Error, CustomStringConvertible {
        let encoding: String

        var description: String {
            "the database's encoding is \(encoding), which cannot hold every character a key or value may have; "
                + "the PostgreSQL backend needs a database created with ENCODING 'UTF8'"
        }
    }

    /// A commit in progress, across its tries.
    struct CommitAttempt {
        /// Logged with the commit, to find out whether a commit whose answer was lost was stored.
        let id: String
        /// Whether the last try sent `COMMIT` and got no answer.
        var outcomeUnknown = false
    }

    /// The connection was lost after `COMMIT` was sent and the server could not be asked again in
    /// time: the commit may or may not have been stored.
    struct CommitUnconfirmed: Error, CustomStringConvertible {
        let description: String

        init(_ error: DefaultsError) {
            description = "the server did not confirm the commit, which may have been stored (\(error))"
        }
    }

    /// Connection IDs for postgres-nio's logs.
    final class LockedCounter: @unchecked Sendable {  // `value` is only touched under `lock`.
        private let lock = NSLock()
        private var value = 0

        func next() -> Int {
            lock.withLock {
                value += 1
                return value
            }
        }
    }
#endif
