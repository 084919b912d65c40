import TypedDefaultsStorage

#if Postgres
    import Foundation
    import Logging
    import NIOCore
    import NIOPosix
    import PostgresNIO
    import TypedDefaults

    /// A suite kept in a PostgreSQL table, shared by every process and machine that opens it: for a
    /// fleet that shares runtime settings (feature switches, limits, maintenance mode).
    ///
    /// ```swift
    /// let backend = try PostgresBackend(
    ///     configuration: .init(host: "db.internal", username: "app", password: secret, database: "app", tls: .disable),
    ///     suite: "fleet.limits")
    /// let limits = DefaultsStore(backend: backend)
    /// @UserDefault("maxConnections", store: limits) var maxConnections = 100
    /// ```
    ///
    /// A suite is the rows of one table (`typed_defaults` unless named) with its name: a key, its
    /// value as the exact JSON of a `DefaultsStoredValue`, a version counted up by
    /// each change, and the time of the change. The table is created when missing. Each commit is
    /// one transaction holding the suite's advisory lock, so commits from every machine are
    /// serialized: `update` never loses an increment, and for a key written by two machines the
    /// later commit wins. After each commit a `NOTIFY` on the table's channel names the suite; every
    /// backend on it listens, and the store reloads, so observers on other machines hear of the
    /// change. Values are always bound as parameters, never spliced into SQL; the password is used to
    /// log in and appears in no error or location.
    ///
    /// Beside it, the administrator's table (`typed_defaults_admin`) holds each suite's defaults and
    /// locks, which every member reads (``loadAdministration()``) and the server itself enforces:
    /// a trigger refuses a write of a locked key from any client. See "The fleet's administrator"
    /// in the library's overview.
    ///
    /// What the server could never store is refused where it is written, never at commit, where it
    /// would fail every commit and hold back every other change: a suite name holding U+0000 when the
    /// backend is made, a key holding it or too long, and a value too large, by
    /// ``check(_:forKey:)``; a database whose encoding cannot hold every character when connecting.
    ///
    /// While the server cannot be reached, reads are served from the store's cache, writes stay
    /// pending, and the store retries the commit (see `DefaultsStore`); a listener
    /// that loses its connection reconnects and reloads.
    ///
    /// A server that accepts connections and never answers holds nothing for ever: connecting waits
    /// ``connectTimeout`` (5 s unless you say otherwise) and each query ``requestTimeout`` (10 s),
    /// so a store's first read falls back to defaults after 5 s, and a load while the last attempt
    /// to connect failed fails at once (connecting goes on, and the store is told once connected);
    /// a flush or update fails after ``outageWait`` (15 s), or the 5 s the store gives a commit
    /// when that is longer; at exit, every wait ends by the store's 2 s deadline. A load or commit
    /// on one of the backend's own event loops fails at once rather than deadlock (see
    /// `eventLoopGroup`).
    public final class PostgresBackend: DefaultsBackend, @unchecked Sendable {
        // @unchecked Sendable is sound: `requestDeadline` is only touched while holding `lock`,
        // `connection`, `connecting`, `connectFailure` and `loadFailedFast` while holding
        // `connectionLock`, and `listening` while holding `listenerLock`; everything else is
        // immutable.

        public let location: String
        /// What a lock's refusal and ``DefaultsValueSource`` name as where the administrator's
        /// layer is kept: the location of the suite's rows in the administrator's table.
        let administrationSource: String
        /// The largest value stored, in bytes of its JSON form.
        public let maximumValueBytes: Int
        /// How long connecting may take: the connection, TLS and the login.
        public let connectTimeout: TimeInterval
        /// How long a query may wait for the server's answer.
        public let requestTimeout: TimeInterval
        /// How long a commit waits out a server that is restarting or cannot be reached.
        public let outageWait: TimeInterval
        /// The longest suite name and key, in bytes of UTF-8: both are in the table's primary-key
        /// index, whose entries PostgreSQL limits to some 2,700 bytes.
        public static let maximumNameBytes = 1_000
        /// The most ``maximumValueBytes`` may be: under PostgreSQL's 1 GiB, for a text value and for
        /// the message that carries it with its suite and key.
        static let largestValueBytes = 1_000_000_000
        let suite: String
        let table: String
        let configuration: PostgresConnection.Configuration
        let eventLoopGroup: any EventLoopGroup
        let logger: Logger
        /// A call's turn on the connection, given in the order calls asked for it.
        let lock = TimedLock()
        /// When the request under way must be answered by; only under `lock`.
        var requestDeadline: ContinuousClock.Instant?
        let connectionLock = NSLock()
        var connection: PostgresConnection?
        /// The attempt to connect under way, which every call that needs a connection waits for.
        var connecting: EventLoopFuture<PostgresConnection>?
        /// Why the last attempt failed, until one succeeds: what a load fails with at once.
        var connectFailure: DefaultsError?
        /// Whether a load failed fast since the last attempt began: the store is told to load once
        /// connected.
        var loadFailedFast = false
        let listenerLock = NSLock()
        var listening: (connection: PostgresConnection, handlers: [@Sendable () -> Void])?
        static let nextConnectionID = LockedCounter()
        /// Commits logged, for pruning the log now and then.
        let commitsLogged = LockedCounter()

        /// A backend for `suite` in `table` of the database `configuration` logs in to.
        ///
        /// - Parameters:
        ///   - configuration: The server, the user and the database, as postgres-nio takes them
        ///     (``environmentConfiguration(_:)`` reads them from PostgreSQL's variables).
        ///   - suite: The suite's name: the rows of `table` that hold its name.
        ///   - table: A plain identifier: lowercase letters, digits and underscores, starting with a
        ///     letter or underscore, 50 characters at most (the commit log's table and index are
        ///     named after it, and PostgreSQL cuts names at 63).
        ///   - connectTimeout: How long connecting may take, in seconds: the connection, TLS and the
        ///     login. A store's first read of a server that accepts connections and never answers
        ///     falls back to defaults, reporting the error, after this.
        ///   - requestTimeout: How long a query may wait for the server's answer, in seconds; the
        ///     connection is then dropped. A read waits `connectTimeout` and `requestTimeout` at
        ///     most, together.
        ///   - outageWait: How long a commit waits out a server that is restarting or cannot be
        ///     reached, trying again, before it fails: an `update` then counts once instead of
        ///     failing. A flush or update waits this long, or the 5 s the store gives a commit when
        ///     that is longer; the store's deadline at exit (2 s) is kept by every wait.
        ///   - maximumValueBytes: The largest value stored, in bytes of its JSON form (see
        ///     `DefaultsStoredValue`); a write of a larger one is refused and
        ///     reported. At most 1,000,000,000: PostgreSQL stores no text, and takes no message, of
        ///     1 GiB, so a larger value would fail every commit. Every commit reads the suite whole,
        ///     so keep values small.
        ///   - eventLoopGroup: Where the backend's connections run. A load or commit waits for them,
        ///     which on one of this group's loops would deadlock: there it fails at once instead
        ///     (the store reports it and reads defaults). On any other thread, another group's loops
        ///     included, it waits as documented here.
        ///   - logger: Where postgres-nio logs; errors only, unless you set another level.
        /// - Throws: `DefaultsError.invalidSuiteName(_:reason:)` for a table name
        ///   that is not a plain identifier, or a suite name longer than ``maximumNameBytes`` or
        ///   holding U+0000, which PostgreSQL's `text` cannot store: refused here, since every
        ///   query names the suite.
        public init(
            configuration: PostgresConnection.Configuration, suite: String, table: String = "typed_defaults",
            connectTimeout: TimeInterval = 5, requestTimeout: TimeInterval = 10, outageWait: TimeInterval = 15,
            maximumValueBytes: Int = 1 << 20,
            eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
            logger: Logger = PostgresBackend.quietLogger
        ) throws(DefaultsError) {
            try Self.checkSuite(suite)
            guard table.range(of: "^[a-z_][a-z0-9_]{0,49}$", options: .regularExpression) != nil else {
                throw .invalidSuiteName(table, reason: "a table name is lowercase letters, digits and underscores")
            }
            var configuration = configuration
            // The listener's bound; the backend's own attempts are bounded on the event loop.
            configuration.options.connectTimeout = .milliseconds(Self.milliseconds(connectTimeout))
            // What the backend sends is UTF-8: the server is told so, whatever the role or the
            // database sets, and converts or refuses rather than store other bytes.
            configuration.options.additionalStartupParameters.removeAll { $0.0 == "client_encoding" }
            configuration.options.additionalStartupParameters.append(("client_encoding", "UTF8"))
            self.configuration = configuration
            self.maximumValueBytes = min(maximumValueBytes, Self.largestValueBytes)
            self.connectTimeout = connectTimeout
            self.requestTimeout = requestTimeout
            self.outageWait = outageWait
            self.suite = suite
            self.table = table
            self.eventLoopGroup = eventLoopGroup
            self.logger = logger
            let database = configuration.database.map { "/\($0)" } ?? ""
            let host = configuration.host.map { "\($0):\(configuration.port ?? 5432)" } ?? "socket"
            location = "postgres://\(configuration.username)@\(host)\(database)/\(table)#\(suite)"
            administrationSource = "postgres://\(configuration.username)@\(host)\(database)/\(table)_admin#\(suite)"
        }

        /// The server PostgreSQL's standard environment variables name: `PGHOST` (a host, or a
        /// socket folder starting with `/`), `PGPORT`, `PGUSER`, `PGPASSWORD` and `PGDATABASE`,
        /// without TLS; `nil` when `PGHOST` is not set.
        ///
        /// ```swift
        /// if let configuration = PostgresBackend.environmentConfiguration() {
        ///     let store = DefaultsStore(backend: try PostgresBackend(configuration: configuration, suite: "fleet"))
        /// }
        /// ```
        public static func environmentConfiguration(
            _ environment: [String: String] = ProcessInfo.processInfo.environment
        ) -> PostgresConnection.Configuration? {
            guard let host = environment["PGHOST"], !host.isEmpty else { return nil }
            let user = environment["PGUSER"] ?? ProcessInfo.processInfo.userName
            let port = environment["PGPORT"].flatMap(Int.init) ?? 5432
            if host.hasPrefix("/") {
                return .init(
                    unixSocketPath: "\(host)/.s.PGSQL.\(port)", username: user, password: environment["PGPASSWORD"],
                    database: environment["PGDATABASE"])
            }
            return .init(
                host: host, port: port, username: user, password: environment["PGPASSWORD"],
                database: environment["PGDATABASE"], tls: .disable)
        }

        /// Closes the backend's connections (a connection must be closed before it goes).
        deinit {
            // Never waited for: the last reference may go on an event loop.
            for connection in [connection, listening?.connection].compactMap({ $0 }) { Self.close(connection) }
        }

        /// A logger that prints errors only: postgres-nio logs every query at lower levels.
        public static var quietLogger: Logger {
            var logger = Logger(label: "TypedDefaultsPostgres")
            logger.logLevel = .error
            return logger
        }

        /// The table's `NOTIFY` channel.
        var channel: String { "\(table)_changes" }

        /// The table of recent commits' ids, which a commit whose answer was lost is looked up in.
        var commitLog: String { "\(table)_commits" }

        /// The administrator's table: each suite's defaults and locks, which members only read.
        var administrationTable: String { "\(table)_admin" }

        public func load() throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] {
            try read { connection throws(DefaultsError) in try rows(of: connection, locking: false) }
        }

        /// Runs `body`, a read, on the backend's connection: failing at once on one of the
        /// backend's own event loops, or while the last attempt to connect failed, and waiting
        /// ``connectTimeout`` and ``requestTimeout`` at most.
        func read<Result>(_ body: (PostgresConnection) throws(DefaultsError) -> Result) throws(DefaultsError)
            -> Result
        {
            guard !isOnOwnEventLoop else { throw .readFailed(path: location, underlying: OnOwnEventLoop()) }
            do throws(DefaultsError) {
                let deadline = Self.instant(after: connectTimeout + requestTimeout)
                return try withConnection(before: deadline, failingFast: true, body)
            } catch {
                // A query that failed here failed a read: nothing was to be written.
                if case .writeFailed(let path, let underlying) = error {
                    throw .readFailed(path: path, underlying: underlying)
                }
                throw error
            }
        }

        /// Commits as `DefaultsBackend` says. A commit whose connection is lost, or
        /// that a restarting server refuses, is tried again on a new connection for ``outageWait``,
        /// running `edit` again on the freshest values. When the answer to `COMMIT` itself was lost,
        /// the next try first looks for the commit's id in the commit log (under the suite's lock, so
        /// after the old transaction ended) and stores nothing twice.
        public func commit(
            _ changes: [DefaultsStoredKey: DefaultsStoredValue?], before deadline: ContinuousClock.Instant,
            edit: (inout [DefaultsStoredKey: DefaultsStoredValue]) throws(DefaultsError) -> Void
        ) throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] {
            guard !isOnOwnEventLoop else { throw .writeFailed(path: location, underlying: OnOwnEventLoop()) }
            var attempt = CommitAttempt(id: UUID().uuidString.lowercased())
            // Locks are waited for until the store's deadline; an outage for `outageWait`, unless
            // the store asked for less than the 5 s it gives a commit (at exit): then every wait,
            // connecting, each query and each pause, ends by the store's deadline.
            let retryDeadline =
                deadline < .now + .seconds(Self.shortDeadline)
                ? deadline : max(deadline, Self.instant(after: outageWait))
            var pause: TimeInterval = 0.05
            while true {
                do throws(DefaultsError) {
                    return try withConnection(before: retryDeadline) { connection throws(DefaultsError) in
                        try commitOnce(
                            changes, attempt: &attempt, lockDeadline: lockDeadline(deadline, retryDeadline), edit: edit,
                            on: connection)
                    }
                } catch {
                    guard Self.isPassing(error), Self.instant(after: pause) < retryDeadline else {
                        if attempt.outcomeUnknown {
                            throw .writeFailed(path: location, underlying: CommitUnconfirmed(error))
                        }
                        // Not connecting is a failed write here: the changes are kept.
                        if case .readFailed(let path, let underlying) = error {
                            throw .writeFailed(path: path, underlying: underlying)
                        }
                        throw error
                    }
                    Thread.sleep(forTimeInterval: pause)
                    pause = min(pause * 2, 1)
                }
            }
        }

        /// Until when a try of a commit waits for another machine's commit to release the suite's
        /// lock: the store's `deadline`, or a second from now when a wait for the server used it up
        /// (the machines that waited out a restart together then take turns), never past
        /// `retryDeadline` (at exit, the store's).
        private func lockDeadline(
            _ deadline: ContinuousClock.Instant, _ retryDeadline: ContinuousClock.Instant
        ) -> ContinuousClock.Instant {
            min(max(deadline, Self.instant(after: 1)), retryDeadline)
        }

        /// One try of a commit, as one transaction on `connection`.
        private func commitOnce(
            _ changes: [DefaultsStoredKey: DefaultsStoredValue?], attempt: inout CommitAttempt,
            lockDeadline: ContinuousClock.Instant,
            edit: (inout [DefaultsStoredKey: DefaultsStoredValue]) throws(DefaultsError) -> Void,
            on connection: PostgresConnection
        ) throws(DefaultsError) -> [DefaultsStoredKey: DefaultsStoredValue] {
            try run("BEGIN", on: connection)
            do throws(DefaultsError) {
                // In milliseconds, at least 1 (0 would mean for ever), a minute at most.
                let lockWait = max(1, Self.milliseconds(min(60, Self.seconds(until: lockDeadline))))
                try run(PostgresQuery(unsafeSQL: "SET LOCAL lock_timeout = '\(lockWait)ms'"), on: connection)
                try run(
                    PostgresQuery(
                        unsafeSQL: "SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))",
                        binds: binds(table, suite)),
                    on: connection)
                if attempt.outcomeUnknown {
                    let logged = try run(
                        PostgresQuery(unsafeSQL: "SELECT 1 FROM \(commitLog) WHERE id = $1", binds: binds(attempt.id)),
                        on: connection)
                    if logged.rows.count > 0 {
                        // Stored before the connection was lost: the values as they are now.
                        let values = try rows(of: connection, locking: false)
                        try run("COMMIT", on: connection)
                        return values
                    }
                    attempt.outcomeUnknown = false
                }
                let isLocked = try administratorLocks(of: connection)
                let stored = try rows(of: connection, locking: true)
                var values = stored
                // A write of a key locked before this machine heard of it is kept out, as the
                // store would have refused it, and reported once committed.
                var refused: [DefaultsStoredKey] = []
                for (key, value) in changes {
                    guard !isLocked(key) else {
                        if stored[key].map(PostgresRows.text) != value.map(PostgresRows.text) { refused.append(key) }
                        continue
                    }
                    values[key] = value
                }
                try edit(&values)
                var changed = false
                for (key, value) in values {
                    // Compared as the rows' text, byte for byte: `==` takes a string for its other
                    // normalization (values and their JSON text alike), and `-0.0` for `0.0`, and
                    // such a change was never written.
                    let json = PostgresRows.text(value)
                    if let old = stored[key], PostgresRows.text(old).utf8.elementsEqual(json.utf8) { continue }
                    try checkKey(key.name)
                    try checkValue(json, forKey: key.name)
                    if isLocked(key) { throw .locked(key: key.name, path: administrationSource) }
                    try write(upsert(key: key.name, value: json), key: key.name, on: connection)
                    changed = true
                }
                for key in stored.keys where values[key] == nil {
                    if isLocked(key) { throw .locked(key: key.name, path: administrationSource) }
                    try write(
                        PostgresQuery(
                            unsafeSQL: "DELETE FROM \(table) WHERE suite = $1 AND key = $2",
                            binds: binds(suite, key.name)),
                        key: key.name, on: connection)
                    changed = true
                }
                if changed {
                    try run(
                        PostgresQuery(
                            unsafeSQL: "INSERT INTO \(commitLog) (id, suite) VALUES ($1, $2)",
                            binds: binds(attempt.id, suite)),
                        on: connection)
                    if commitsLogged.next() % 100 == 1 {
                        try run(
                            PostgresQuery(
                                unsafeSQL: "DELETE FROM \(commitLog) WHERE committed_at < now() - interval '1 hour'"),
                            on: connection)
                    }
                    try run(
                        PostgresQuery(unsafeSQL: "SELECT pg_notify($1, $2)", binds: binds(channel, suite)),
                        on: connection)
                }
                attempt.outcomeUnknown = changed
                try run("COMMIT", on: connection)
                attempt.outcomeUnknown = false
                reportRefused(refused)
                return values
            } catch {
                // The server answered with an error: the transaction ended without storing anything.
                if case .writeFailed(_, let problem as PostgresProblem) = error, problem.isServerError {
                    attempt.outcomeUnknown = false
                }
                if !connection.isClosed { _ = try? run("ROLLBACK", on: connection) }
                throw error
            }
        }
    }
#endif
