#if Postgres
    import Foundation
    import PostgresNIO
    import TypedDefaults

    /// The fleet's administrator's layer: a table of defaults and locks beside the members' rows,
    /// which members only read, and the server's own refusal of a write of a locked key.
    extension PostgresBackend {
        /// The SQLSTATE the server refuses a write of a locked key with (a class of its own, so
        /// that no PostgreSQL error is taken for it).
        static let lockedState = "TD001"

        /// Reads the suite's rows of the administrator's table: a row's `value` (JSON, as the
        /// members' table holds it) is the key's default, and with `locked` every member reads
        /// it and none may write the key; a locked row whose key ends in `*` locks every key
        /// that begins with the rest (`*` alone, every key). `nil` when the suite has no row.
        public func loadAdministration() throws(DefaultsError) -> DefaultsBackendAdministration? {
            try read { connection throws(DefaultsError) in
                let result = try run(
                    PostgresQuery(
                        unsafeSQL: "SELECT key, value, locked FROM \(administrationTable) WHERE suite = $1",
                        binds: binds(suite)),
                    on: connection)
                var rows: [(key: String, value: String?, locked: Bool)] = []
                for row in result.rows {
                    do {
                        rows.append(try row.decode((String, String?, Bool).self))
                    } catch {
                        throw .corrupt(key: "\(suite) administrator row", underlying: PostgresProblem(error))
                    }
                }
                do {
                    return try PostgresRows.administration(rows, source: administrationSource)
                } catch {
                    throw .corrupt(key: "\(suite) administrator row", underlying: error)
                }
            }
        }

        /// Whether each key is locked now, read in a commit's transaction: after the suite's
        /// advisory lock, which the administrator's table's trigger takes too, so no lock can
        /// appear between this read and the commit's writes.
        func administratorLocks(of connection: PostgresConnection) throws(DefaultsError) -> (
            DefaultsStoredKey
        ) -> Bool {
            let result = try run(
                PostgresQuery(
                    unsafeSQL: "SELECT key FROM \(administrationTable) WHERE suite = $1 AND locked",
                    binds: binds(suite)),
                on: connection)
            var keys = Set<DefaultsStoredKey>()
            var prefixes: [String] = []
            for row in result.rows {
                let key: String
                do {
                    key = try row.decode(String.self)
                } catch {
                    throw .corrupt(key: "\(suite) administrator row", underlying: PostgresProblem(error))
                }
                if let prefix = PostgresRows.lockedPrefix(key) {
                    prefixes.append(prefix)
                } else {
                    keys.insert(DefaultsStoredKey(key))
                }
            }
            return { key in keys.contains(key) || prefixes.contains { key.name.utf8.starts(with: $0.utf8) } }
        }

        /// Runs `query`, a write of `key`'s row, turning the server's refusal of a locked key into
        /// the store's ``DefaultsError/locked(key:path:)``.
        func write(_ query: PostgresQuery, key: String, on connection: PostgresConnection) throws(DefaultsError) {
            do throws(DefaultsError) {
                try run(query, on: connection)
            } catch {
                if case .writeFailed(_, let problem as PostgresProblem) = error, problem.state == Self.lockedState {
                    throw .locked(key: key, path: administrationSource)
                }
                throw error
            }
        }

        /// Tells of writes a commit kept out because the administrator had locked their keys
        /// (written before this machine heard of the lock): off the committing thread, which holds
        /// the store's locks that a handler may need.
        func reportRefused(_ keys: [DefaultsStoredKey]) {
            guard !keys.isEmpty else { return }
            let errors = keys.sorted().map { DefaultsError.locked(key: $0.name, path: administrationSource) }
            DispatchQueue.global().async { errors.forEach { DefaultsError.handler($0) } }
            // The store reads the layer again, should the administrator's notification be late.
            announceChange()
        }

        /// Creates what is missing: the members' table, the commit log, the administrator's table,
        /// and the triggers that refuse a write of a locked key and announce a change of the
        /// administrator's rows. Only what is missing, so that a member's role, which may create
        /// nothing, connects to tables its administrator made. The functions name the tables
        /// with their schema, so that a temporary table of the same name cannot stand in for the
        /// administrator's.
        var setupStatement: String {
            let (members, admin) = (table, administrationTable)
            return """
                DO $typed_defaults$
                DECLARE
                    qualified_admin text := format('%I.%I', current_schema(), '\(admin)');
                BEGIN
                    IF to_regclass('\(members)') IS NULL THEN
                        CREATE TABLE \(members) (
                            suite text NOT NULL, key text NOT NULL, value text NOT NULL,
                            version bigint NOT NULL DEFAULT 1, updated_at timestamptz NOT NULL DEFAULT now(),
                            PRIMARY KEY (suite, key));
                    END IF;
                    IF to_regclass('\(commitLog)') IS NULL THEN
                        CREATE TABLE \(commitLog) (
                            id text PRIMARY KEY, suite text NOT NULL, committed_at timestamptz NOT NULL DEFAULT now());
                    END IF;
                    IF to_regclass('\(commitLog)_time') IS NULL THEN
                        CREATE INDEX \(commitLog)_time ON \(commitLog) (committed_at);
                    END IF;
                    IF to_regclass('\(admin)') IS NULL THEN
                        CREATE TABLE \(admin) (
                            suite text NOT NULL, key text NOT NULL, value text, locked boolean NOT NULL DEFAULT false,
                            updated_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (suite, key));
                    END IF;
                    IF to_regprocedure('\(members)_lockcheck()') IS NULL THEN
                        EXECUTE format(
                            'CREATE FUNCTION %I.%I() RETURNS trigger LANGUAGE plpgsql AS %L', current_schema(),
                            '\(members)_lockcheck', replace($body$\(Self.lockCheck(admin: admin))$body$, '@admin@', qualified_admin));
                    END IF;
                    IF to_regprocedure('\(admin)_sync()') IS NULL THEN
                        EXECUTE format(
                            'CREATE FUNCTION %I.%I() RETURNS trigger LANGUAGE plpgsql AS %L', current_schema(),
                            '\(admin)_sync', replace($body$\(Self.administrationSync(members: members))$body$, '@admin@', qualified_admin));
                    END IF;
                    IF NOT EXISTS (
                        SELECT 1 FROM pg_trigger WHERE tgrelid = '\(members)'::regclass AND tgname = 'typed_defaults_locks'
                    ) THEN
                        CREATE TRIGGER typed_defaults_locks BEFORE INSERT OR UPDATE OR DELETE ON \(members)
                            FOR EACH ROW EXECUTE FUNCTION \(members)_lockcheck();
                        CREATE TRIGGER typed_defaults_locks_truncate BEFORE TRUNCATE ON \(members)
                            FOR EACH STATEMENT EXECUTE FUNCTION \(members)_lockcheck();
                    END IF;
                    IF NOT EXISTS (
                        SELECT 1 FROM pg_trigger WHERE tgrelid = '\(admin)'::regclass AND tgname = 'typed_defaults_sync'
                    ) THEN
                        CREATE TRIGGER typed_defaults_sync BEFORE INSERT OR UPDATE OR DELETE ON \(admin)
                            FOR EACH ROW EXECUTE FUNCTION \(admin)_sync();
                        CREATE TRIGGER typed_defaults_sync_truncate BEFORE TRUNCATE ON \(admin)
                            FOR EACH STATEMENT EXECUTE FUNCTION \(admin)_sync();
                    END IF;
                END
                $typed_defaults$
                """
        }

        /// The members' table's trigger: refuses an insert, update or delete of a row whose key
        /// the administrator locked, and emptying the table while any key is locked, with
        /// ``lockedState`` and a message naming the key and the suite. `@admin@` stands for the
        /// administrator's table `admin`, with its schema.
        private static func lockCheck(admin: String) -> String {
            """

            DECLARE
                locking text;
            BEGIN
                IF TG_OP = 'TRUNCATE' THEN
                    SELECT a.key INTO locking FROM @admin@ a WHERE a.locked LIMIT 1;
                    IF FOUND THEN
                        RAISE EXCEPTION USING ERRCODE = '\(lockedState)',
                            MESSAGE = format('the administrator locked the key %L: the table cannot be emptied', locking);
                    END IF;
                    RETURN NULL;
                END IF;
                IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND (OLD.suite, OLD.key) IS DISTINCT FROM (NEW.suite, NEW.key)) THEN
                    SELECT a.key INTO locking FROM @admin@ a
                    WHERE a.suite = OLD.suite AND a.locked
                        AND (a.key = OLD.key OR (right(a.key, 1) = '*' AND starts_with(OLD.key, left(a.key, -1))))
                    LIMIT 1;
                    IF FOUND THEN
                        RAISE EXCEPTION USING ERRCODE = '\(lockedState)',
                            MESSAGE = format('the administrator locked the key %L of the suite %L', OLD.key, OLD.suite),
                            DETAIL = format('locked by the row %L of \(admin)', locking);
                    END IF;
                END IF;
                IF TG_OP = 'DELETE' THEN
                    RETURN OLD;
                END IF;
                SELECT a.key INTO locking FROM @admin@ a
                WHERE a.suite = NEW.suite AND a.locked
                    AND (a.key = NEW.key OR (right(a.key, 1) = '*' AND starts_with(NEW.key, left(a.key, -1))))
                LIMIT 1;
                IF FOUND THEN
                    RAISE EXCEPTION USING ERRCODE = '\(lockedState)',
                        MESSAGE = format('the administrator locked the key %L of the suite %L', NEW.key, NEW.suite),
                        DETAIL = format('locked by the row %L of \(admin)', locking);
                END IF;
                RETURN NEW;
            END

            """
        }

        /// The administrator's table's trigger: each change of a suite's rows waits for the
        /// suite's commits under way and holds them off until it ends (the advisory lock they
        /// take), and notifies the suite's members, as a commit does.
        private static func administrationSync(members: String) -> String {
            """

            DECLARE
                changed text;
            BEGIN
                IF TG_OP = 'TRUNCATE' THEN
                    FOR changed IN SELECT DISTINCT a.suite FROM @admin@ a LOOP
                        PERFORM pg_advisory_xact_lock(hashtext('\(members)'), hashtext(changed));
                        PERFORM pg_notify('\(members)_changes', changed);
                    END LOOP;
                    RETURN NULL;
                END IF;
                IF TG_OP <> 'INSERT' THEN
                    PERFORM pg_advisory_xact_lock(hashtext('\(members)'), hashtext(OLD.suite));
                    PERFORM pg_notify('\(members)_changes', OLD.suite);
                END IF;
                IF TG_OP = 'DELETE' THEN
                    RETURN OLD;
                END IF;
                PERFORM pg_advisory_xact_lock(hashtext('\(members)'), hashtext(NEW.suite));
                PERFORM pg_notify('\(members)_changes', NEW.suite);
                RETURN NEW;
            END

            """
        }
    }
#endif
