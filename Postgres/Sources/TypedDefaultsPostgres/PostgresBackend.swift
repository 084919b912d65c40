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
/// value as the exact JSON of a ``TypedDefaults/DefaultsStoredValue``, a version counted up by
/// each change, and the time of the change. The table is created when missing. Each commit is
/// one transaction holding the suite's advisory lock, so commits from every machine are
/// serialized: `update` never loses an increment, and for a key written by two machines the
/// later commit wins. After each commit a `NOTIFY` on the table's channel names the suite; every
/// backend on it listens, and the store reloads, so observers on other machines hear of the
/// change. Values are always bound as parameters, never spliced into SQL; the password is used to
/// log in and appears in no error or location.
///
/// While the server cannot be reached, reads are served from the store's cache, writes stay
/// pending, and the store retries the commit (see ``TypedDefaults/DefaultsStore``); a listener
/// that loses its connection reconnects and reloads.
public final class PostgresBackend: DefaultsBackend, @unchecked Sendable {
    // @unchecked Sendable is sound: `connection` and `requestDeadline` are only touched while
    // holding `lock`, and `listening` only while holding `listenerLock`; everything else is
    // immutable.

    public let location: String
    /// The largest value stored, in bytes of its JSON form.
    public let maximumValueBytes: Int
    /// How long a commit waits out a server that is restarting or cannot be reached.
    public let outageWait: TimeInterval
    /// The longest suite name and key, in bytes of UTF-8: both are in the table's primary-key
    /// index, whose entries PostgreSQL limits to some 2,700 bytes.
    public static let maximumNameBytes = 1_000
    private let suite: String
    private let table: String
    private let configuration: PostgresConnection.Configuration
    private let eventLoopGroup: any EventLoopGroup
    private let logger: Logger
    private let lock = NSLock()
    private var connection: PostgresConnection?
    /// When the request under way must be answered by; only under `lock`.
    private var requestDeadline: Date?
    private let listenerLock = NSLock()
    private var listening: (connection: PostgresConnection, handlers: [@Sendable () -> Void])?
    private static let nextConnectionID = LockedCounter()
    /// Commits logged, for pruning the log now and then.
    private let commitsLogged = LockedCounter()

    /// A backend for `suite` in `table` of the database `configuration` logs in to.
    ///
    /// - Parameters:
    ///   - table: A plain identifier: lowercase letters, digits and underscores, starting with a
    ///     letter or underscore, 50 characters at most (the commit log's table and index are
    ///     named after it, and PostgreSQL cuts names at 63).
    ///   - outageWait: How long a commit waits out a server that is restarting or cannot be
    ///     reached, trying again, before it fails: an `update` then counts once instead of
    ///     failing. A shorter deadline from the store (at exit, 2 s) is kept.
    ///   - maximumValueBytes: The largest value stored, in bytes of its JSON form (see
    ///     ``TypedDefaults/DefaultsStoredValue``); a write of a larger one is refused and
    ///     reported. Every commit reads the suite whole, so keep values small.
    ///   - logger: Where postgres-nio logs; errors only, unless you set another level.
    /// - Throws: ``TypedDefaults/DefaultsError/invalidSuiteName(_:reason:)`` for a table name
    ///   that is not a plain identifier, or a suite name longer than ``maximumNameBytes``.
    public init(
        configuration: PostgresConnection.Configuration, suite: String, table: String = "typed_defaults",
        outageWait: TimeInterval = 15, maximumValueBytes: Int = 1 << 20,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = PostgresBackend.quietLogger
    ) throws(DefaultsError) {
        guard suite.utf8.count <= Self.maximumNameBytes else {
            throw .invalidSuiteName(
                String(suite.prefix(40)) + "…", reason: "longer than \(Self.maximumNameBytes) bytes in UTF-8")
        }
        guard table.range(of: "^[a-z_][a-z0-9_]{0,49}$", options: .regularExpression) != nil else {
            throw .invalidSuiteName(table, reason: "a table name is lowercase letters, digits and underscores")
        }
        var configuration = configuration
        configuration.options.connectTimeout = .seconds(5)
        self.configuration = configuration
        self.maximumValueBytes = maximumValueBytes
        self.outageWait = outageWait
        self.suite = suite
        self.table = table
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
        let database = configuration.database.map { "/\($0)" } ?? ""
        let host = configuration.host.map { "\($0):\(configuration.port ?? 5432)" } ?? "socket"
        location = "postgres://\(configuration.username)@\(host)\(database)/\(table)#\(suite)"
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
        for connection in [connection, listening?.connection].compactMap({ $0 }) {
            // Kept until closed; never waited for: the last reference may go on an event loop.
            connection.close().whenComplete { _ in _ = connection }
        }
    }

    /// A logger that prints errors only: postgres-nio logs every query at lower levels.
    public static var quietLogger: Logger {
        var logger = Logger(label: "TypedDefaultsPostgres")
        logger.logLevel = .error
        return logger
    }

    /// The table's `NOTIFY` channel.
    private var channel: String { "\(table)_changes" }

    /// The table of recent commits' ids, which a commit whose answer was lost is looked up in.
    private var commitLog: String { "\(table)_commits" }

    public func load() throws(DefaultsError) -> [String: DefaultsStoredValue] {
        try withConnection { connection throws(DefaultsError) in
            try rows(of: connection, locking: false)
        }
    }

    /// Commits as ``TypedDefaults/DefaultsBackend`` says. A commit whose connection is lost, or
    /// that a restarting server refuses, is tried again on a new connection for ``outageWait``,
    /// running `edit` again on the freshest values. When the answer to `COMMIT` itself was lost,
    /// the next try first looks for the commit's id in the commit log (under the suite's lock, so
    /// after the old transaction ended) and stores nothing twice.
    public func commit(
        _ changes: [String: DefaultsStoredValue?], before deadline: Date,
        edit: (inout [String: DefaultsStoredValue]) throws(DefaultsError) -> Void
    ) throws(DefaultsError) -> [String: DefaultsStoredValue] {
        var attempt = CommitAttempt(id: UUID().uuidString.lowercased())
        // Locks are waited for until the store's deadline; an outage for `outageWait`, unless
        // the store asked for less than the 5 s it gives a commit (at exit).
        let retryDeadline =
            deadline.timeIntervalSinceNow < 4.5 ? deadline : max(deadline, Date().addingTimeInterval(outageWait))
        var pause: TimeInterval = 0.05
        while true {
            do throws(DefaultsError) {
                return try withConnection(before: retryDeadline) { connection throws(DefaultsError) in
                    try commitOnce(changes, attempt: &attempt, deadline: deadline, edit: edit, on: connection)
                }
            } catch {
                guard Self.isPassing(error), Date().addingTimeInterval(pause) < retryDeadline else {
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

    /// One try of a commit, as one transaction on `connection`.
    private func commitOnce(
        _ changes: [String: DefaultsStoredValue?], attempt: inout CommitAttempt, deadline: Date,
        edit: (inout [String: DefaultsStoredValue]) throws(DefaultsError) -> Void, on connection: PostgresConnection
    ) throws(DefaultsError) -> [String: DefaultsStoredValue] {
        try run("BEGIN", on: connection)
        do throws(DefaultsError) {
            let wait = max(1, Int(deadline.timeIntervalSinceNow.rounded(.down)))
            try run(PostgresQuery(unsafeSQL: "SET LOCAL lock_timeout = '\(min(wait, 60))s'"), on: connection)
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
            let stored = try rows(of: connection, locking: true)
            var values = stored
            for (key, value) in changes { values[key] = value }
            try edit(&values)
            var changed = false
            for (key, value) in values where stored[key] != value {
                let json = value.json()
                try checkKey(key)
                try checkValue(json, forKey: key)
                try run(upsert(key: key, value: json), on: connection)
                changed = true
            }
            for key in stored.keys where values[key] == nil {
                try run(
                    PostgresQuery(
                        unsafeSQL: "DELETE FROM \(table) WHERE suite = $1 AND key = $2", binds: binds(suite, key)),
                    on: connection)
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

    /// Refuses a key longer than ``maximumNameBytes`` and a value larger than
    /// ``maximumValueBytes``, as it is written.
    public func check(_ value: DefaultsStoredValue, forKey key: String) throws(DefaultsError) {
        try checkKey(key)
        // Only a value that might be too large is encoded to be measured: a write of a small one
        // stays cheap.
        if Self.jsonBytesAtMost(value) > maximumValueBytes { try checkValue(value.json(), forKey: key) }
    }

    /// More bytes than the JSON form of `value` takes: each byte of text escaped as `\u0000`,
    /// data in base 64 with its `$data` wrapping, 64 bytes for any number or date.
    static func jsonBytesAtMost(_ value: DefaultsStoredValue) -> Int {
        switch value {
        case .string(let text): text.utf8.count * 6 + 2
        case .data(let data): (data.count + 2) / 3 * 4 + 24
        case .integer, .unsignedInteger, .real, .boolean, .date: 64
        case .array(let elements): elements.reduce(2) { $0 + jsonBytesAtMost($1) + 1 }
        case .dictionary(let members):
            members.reduce(16) { $0 + $1.key.utf8.count * 6 + 3 + jsonBytesAtMost($1.value) + 1 }
        }
    }

    private func checkKey(_ key: String) throws(DefaultsError) {
        guard key.utf8.count > Self.maximumNameBytes else { return }
        throw .encodingFailed(
            key: Self.shown(key), underlying: TooLarge(what: "key", bytes: key.utf8.count, limit: Self.maximumNameBytes)
        )
    }

    private func checkValue(_ json: String, forKey key: String) throws(DefaultsError) {
        guard json.utf8.count > maximumValueBytes else { return }
        throw .encodingFailed(
            key: Self.shown(key), underlying: TooLarge(what: "value", bytes: json.utf8.count, limit: maximumValueBytes))
    }

    /// A key as an error names it: its first 60 characters.
    private static func shown(_ key: String) -> String {
        key.count > 60 ? String(key.prefix(60)) + "…" : key
    }

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

    // MARK: Listening

    /// Connects a connection of its own, listens on the table's channel, and calls `handlers`
    /// (off the event loop) for each notification naming the suite. When the connection is
    /// lost, it connects again, waiting longer each time up to 5 s (see ``listenDelay(after:refused:)``),
    /// and then calls `handlers`: changes made meanwhile were not announced.
    private func listen(handlers: [@Sendable () -> Void], retryDelay: TimeInterval) {
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
            return connection.query(PostgresQuery(unsafeSQL: "LISTEN \(self.channel)"), logger: self.logger).map {
                _ in connection
            }
        }.whenComplete { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let connection):
                let isFirst = self.listenerLock.withLock { () -> Bool in
                    let isFirst = self.listening == nil
                    self.listening = (connection, self.listening?.handlers ?? handlers)
                    return isFirst
                }
                if !isFirst || retryDelay > 0.1 { notify() }
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

    // MARK: Queries

    /// How long the request about to be made may wait for its answer (under `lock`).
    private var requestWait: TimeInterval {
        guard let requestDeadline else { return Self.requestTimeout }
        return min(Self.requestTimeout, max(1, requestDeadline.timeIntervalSinceNow))
    }

    /// Runs `body` with the backend's connection, connecting (and creating the table) when
    /// there is none or it was lost; one caller at a time, so a transaction never interleaves.
    /// Each request waits until `deadline` at most (at least 1 s, and never past
    /// ``requestTimeout``): a request that hangs must not use up a commit's retries.
    private func withConnection<Result>(
        before deadline: Date? = nil, _ body: (PostgresConnection) throws(DefaultsError) -> Result
    ) throws(DefaultsError) -> Result {
        lock.lock()
        requestDeadline = deadline
        defer {
            requestDeadline = nil
            lock.unlock()
        }
        let connection: PostgresConnection
        if let current = self.connection, !current.isClosed {
            connection = current
        } else {
            connection = try connect()
            self.connection = connection
        }
        do throws(DefaultsError) {
            return try body(connection)
        } catch {
            // A connection that failed mid-transaction may be unusable: the next call makes a new one.
            if connection.isClosed { self.connection = nil }
            throw error
        }
    }

    private func connect() throws(DefaultsError) -> PostgresConnection {
        let connection: PostgresConnection
        do {
            connection = try Self.wait(
                for: PostgresConnection.connect(
                    on: eventLoopGroup.next(), configuration: configuration, id: Self.nextConnectionID.next(),
                    logger: logger),
                seconds: requestWait)
        } catch {
            throw .readFailed(path: location, underlying: PostgresProblem(error))
        }
        do throws(DefaultsError) {
            // Under a lock of the table's name: two first connections creating the table at once
            // would otherwise collide in PostgreSQL's catalog.
            try run("BEGIN", on: connection)
            try run(
                PostgresQuery(unsafeSQL: "SELECT pg_advisory_xact_lock(hashtext($1))", binds: binds(table)),
                on: connection)
            try run(
                PostgresQuery(
                    unsafeSQL: """
                        CREATE TABLE IF NOT EXISTS \(table) (
                            suite text NOT NULL, key text NOT NULL, value text NOT NULL,
                            version bigint NOT NULL DEFAULT 1, updated_at timestamptz NOT NULL DEFAULT now(),
                            PRIMARY KEY (suite, key))
                        """), on: connection)
            try run(
                PostgresQuery(
                    unsafeSQL: """
                        CREATE TABLE IF NOT EXISTS \(commitLog) (
                            id text PRIMARY KEY, suite text NOT NULL, committed_at timestamptz NOT NULL DEFAULT now())
                        """), on: connection)
            try run(
                PostgresQuery(
                    unsafeSQL: "CREATE INDEX IF NOT EXISTS \(commitLog)_time ON \(commitLog) (committed_at)"),
                on: connection)
            try run("COMMIT", on: connection)
        } catch {
            let _: EventLoopFuture<Void> = connection.close()
            throw error
        }
        return connection
    }

    private func rows(of connection: PostgresConnection, locking: Bool) throws(DefaultsError) -> [String:
        DefaultsStoredValue]
    {
        let query = PostgresQuery(
            unsafeSQL: "SELECT key, value FROM \(table) WHERE suite = $1" + (locking ? " FOR UPDATE" : ""),
            binds: binds(suite))
        let result = try run(query, on: connection)
        var values: [String: DefaultsStoredValue] = [:]
        for row in result.rows {
            do {
                let (key, text) = try row.decode((String, String).self)
                values[key] = try DefaultsStoredValue(json: text)
            } catch {
                throw .corrupt(key: "\(suite) row", underlying: PostgresProblem(error))
            }
        }
        return values
    }

    private func upsert(key: String, value: String) -> PostgresQuery {
        PostgresQuery(
            unsafeSQL: """
                INSERT INTO \(table) (suite, key, value) VALUES ($1, $2, $3)
                ON CONFLICT (suite, key) DO UPDATE
                SET value = EXCLUDED.value, version = \(table).version + 1, updated_at = now()
                """, binds: binds(suite, key, value))
    }

    private func binds(_ values: String...) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values { bindings.append(value) }
        return bindings
    }

    @discardableResult
    private func run(_ query: PostgresQuery, on connection: PostgresConnection) throws(DefaultsError)
        -> PostgresQueryResult
    {
        do {
            return try Self.wait(for: connection.query(query, logger: logger), seconds: requestWait)
        } catch let timeout as RequestTimeout {
            // A server that stopped answering: the connection is dropped, and the next call
            // connects again.
            let _: EventLoopFuture<Void> = connection.close()
            throw .writeFailed(path: location, underlying: timeout)
        } catch {
            throw .writeFailed(path: location, underlying: PostgresProblem(error))
        }
    }
}

extension PostgresBackend {
    /// How long a connection attempt or a query may take before it is given up: a server that
    /// stops answering (stopped, its host gone) must not hold a commit, and the store's lock, for
    /// ever.
    static let requestTimeout: TimeInterval = 10

    /// The value of `future`, waited for at most `seconds`.
    static func wait<Value: Sendable>(for future: EventLoopFuture<Value>, seconds: TimeInterval) throws -> Value {
        let promise = future.eventLoop.makePromise(of: Value.self)
        let timeout = future.eventLoop.scheduleTask(in: .milliseconds(Int64(seconds * 1000))) {
            promise.fail(RequestTimeout(seconds: seconds))
        }
        future.whenComplete { result in
            timeout.cancel()
            promise.completeWith(result)
        }
        return try promise.futureResult.wait()
    }
}

/// A connection attempt or query the server did not answer in time.
struct RequestTimeout: Error, CustomStringConvertible {
    let seconds: TimeInterval

    var description: String { "PostgreSQL: no answer in \(Int(seconds)) s" }
}

/// A PostgreSQL error, described by what the server or connection said: never the query's
/// parameters, nor the password.
struct PostgresProblem: Error, CustomStringConvertible {
    let description: String
    /// Whether the server answered with this error (so a transaction it ends stored nothing).
    let isServerError: Bool
    /// See ``PostgresBackend/isPassing(_:)``.
    let isPassing: Bool

    init(_ error: any Error) {
        guard let error = error as? PSQLError else {
            // Connecting failed below PostgreSQL (refused, unreachable, reset): the network's.
            description = "PostgreSQL: \(String(describing: type(of: error)))"
            isServerError = false
            isPassing = true
            return
        }
        let message = error.serverInfo?[.message] ?? error.underlying.map { "\(error.code) (\($0))" } ?? "\(error.code)"
        description = "PostgreSQL: \(message)"
        guard let state = error.serverInfo?[.sqlState] else {
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

/// A key or value beyond what the backend stores.
struct TooLarge: Error, CustomStringConvertible {
    let what: String
    let bytes: Int
    let limit: Int

    var description: String {
        "the \(what) is \(bytes.formatted()) bytes, more than the \(limit.formatted()) the PostgreSQL backend stores"
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
