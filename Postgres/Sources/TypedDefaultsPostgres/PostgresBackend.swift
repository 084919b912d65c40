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
    // @unchecked Sendable is sound: `connection` is only touched while holding `lock`, and
    // `listening` only while holding `listenerLock`; everything else is immutable.

    public let location: String
    private let suite: String
    private let table: String
    private let configuration: PostgresConnection.Configuration
    private let eventLoopGroup: any EventLoopGroup
    private let logger: Logger
    private let lock = NSLock()
    private var connection: PostgresConnection?
    private let listenerLock = NSLock()
    private var listening: (connection: PostgresConnection, handlers: [@Sendable () -> Void])?
    private static let nextConnectionID = LockedCounter()

    /// A backend for `suite` in `table` of the database `configuration` logs in to.
    ///
    /// - Parameters:
    ///   - table: A plain identifier: lowercase letters, digits and underscores, starting with a
    ///     letter or underscore, 63 characters at most.
    ///   - logger: Where postgres-nio logs; errors only, unless you set another level.
    /// - Throws: ``TypedDefaults/DefaultsError/invalidSuiteName(_:reason:)`` for a table name
    ///   that is not a plain identifier.
    public init(
        configuration: PostgresConnection.Configuration, suite: String, table: String = "typed_defaults",
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = PostgresBackend.quietLogger
    ) throws(DefaultsError) {
        guard table.range(of: "^[a-z_][a-z0-9_]{0,62}$", options: .regularExpression) != nil else {
            throw .invalidSuiteName(table, reason: "a table name is lowercase letters, digits and underscores")
        }
        var configuration = configuration
        configuration.options.connectTimeout = .seconds(5)
        self.configuration = configuration
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

    public func load() throws(DefaultsError) -> [String: DefaultsStoredValue] {
        try withConnection { connection throws(DefaultsError) in
            try rows(of: connection, locking: false)
        }
    }

    public func commit(
        _ changes: [String: DefaultsStoredValue?], before deadline: Date,
        edit: (inout [String: DefaultsStoredValue]) throws(DefaultsError) -> Void
    ) throws(DefaultsError) -> [String: DefaultsStoredValue] {
        try withConnection { connection throws(DefaultsError) in
            try run("BEGIN", on: connection)
            do throws(DefaultsError) {
                let wait = max(1, Int(deadline.timeIntervalSinceNow.rounded(.down)))
                try run(PostgresQuery(unsafeSQL: "SET LOCAL lock_timeout = '\(min(wait, 60))s'"), on: connection)
                try run(
                    PostgresQuery(
                        unsafeSQL: "SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))",
                        binds: binds(table, suite)),
                    on: connection)
                let stored = try rows(of: connection, locking: true)
                var values = stored
                for (key, value) in changes { values[key] = value }
                try edit(&values)
                var changed = false
                for (key, value) in values where stored[key] != value {
                    try run(upsert(key: key, value: value.json()), on: connection)
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
                        PostgresQuery(unsafeSQL: "SELECT pg_notify($1, $2)", binds: binds(channel, suite)),
                        on: connection)
                }
                try run("COMMIT", on: connection)
                return values
            } catch {
                _ = try? run("ROLLBACK", on: connection)
                throw error
            }
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
    /// lost, it connects again, waiting longer each time up to 5 s, and then calls `handlers`:
    /// changes made meanwhile were not announced.
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
            case .failure:
                DispatchQueue.global().asyncAfter(deadline: .now() + retryDelay) { [weak self] in
                    self?.listen(handlers: handlers, retryDelay: min(retryDelay * 2, 5))
                }
            }
        }
    }

    // MARK: Queries

    /// Runs `body` with the backend's connection, connecting (and creating the table) when
    /// there is none or it was lost; one caller at a time, so a transaction never interleaves.
    private func withConnection<Result>(
        _ body: (PostgresConnection) throws(DefaultsError) -> Result
    ) throws(DefaultsError) -> Result {
        lock.lock()
        defer { lock.unlock() }
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
                seconds: Self.requestTimeout)
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
            return try Self.wait(for: connection.query(query, logger: logger), seconds: Self.requestTimeout)
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

    init(_ error: any Error) {
        if let error = error as? PSQLError {
            let message = error.serverInfo?[.message] ?? "\(error.code)"
            description = "PostgreSQL: \(message)"
        } else {
            description = "PostgreSQL: \(String(describing: type(of: error)))"
        }
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
