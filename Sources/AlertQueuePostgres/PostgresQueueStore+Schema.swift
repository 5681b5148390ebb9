import PostgresNIO

/// One step of the schema: a name recorded in `alertd.migrations` once applied, and the
/// statements that make it, run in one transaction.
struct Migration: Sendable {
    let name: String
    let statements: [PostgresQuery]
}

extension PostgresQueueStore {
    /// The schema, as ordered, named migrations. Append only: a migration that shipped is never
    /// edited; a change is a new migration at the end.
    ///
    /// Everything lives in the schema `alertd`, so the store can share a database with others.
    static let migrations: [Migration] = [
        Migration(
            name: "createItems",
            statements: [
                "CREATE SEQUENCE alertd.item_sequence",
                """
                CREATE TABLE alertd.items (
                    ticket text PRIMARY KEY,
                    session text NOT NULL,
                    content jsonb NOT NULL,
                    priority integer NOT NULL,
                    lane text NOT NULL CHECK (lane IN ('modal', 'toast', 'hud')),
                    dedupe_key text NOT NULL,
                    state text NOT NULL
                        CHECK (state IN ('queued', 'presenting', 'done', 'cancelled', 'expired', 'dead')),
                    -- Enqueue order across the store, from alertd.item_sequence.
                    sequence bigint NOT NULL UNIQUE,
                    -- Seconds since 1970, like the SQLite store: a Date survives the round trip exactly.
                    enqueued_at double precision NOT NULL,
                    expires_at double precision,
                    deliveries integer NOT NULL DEFAULT 0,
                    lease_until double precision,
                    at_head boolean NOT NULL DEFAULT false,
                    CHECK (state <> 'presenting' OR lease_until IS NOT NULL)
                )
                """,
                // Every step reads one session's live items.
                """
                CREATE INDEX items_session_live ON alertd.items (session, sequence)
                WHERE state IN ('queued', 'presenting')
                """,
                "CREATE INDEX items_session ON alertd.items (session, state)",
                // A dedupe key is live at most once per session, whatever instances race.
                """
                CREATE UNIQUE INDEX items_live_dedupe ON alertd.items (session, dedupe_key)
                WHERE state IN ('queued', 'presenting')
                """,
                // At most one modal and one toast present per session (HUDs are exempt): two
                // instances claiming at once cannot both present.
                """
                CREATE UNIQUE INDEX items_one_presenting ON alertd.items (session, lane)
                WHERE state = 'presenting' AND lane IN ('modal', 'toast')
                """,
            ]),
        Migration(
            name: "createSessions",
            statements: [
                // One row per session that was ever written: every write locks it first (so the
                // writes of one session queue up behind each other, across instances), it keeps
                // the session's hold, and `changed_by` is the last transaction that wrote the
                // session (for `changedSessions(since:)`).
                """
                CREATE TABLE alertd.sessions (
                    session text PRIMARY KEY,
                    hold_until double precision,
                    changed_by xid8 NOT NULL DEFAULT pg_current_xact_id()
                )
                """,
                "CREATE INDEX sessions_changed_by ON alertd.sessions (changed_by)",
            ]),
    ]

    /// The key of the advisory lock migrations run under (`alertd` in ASCII).
    static let migrationLockKey: Int64 = 0x616c_6572_7464

    /// Applies the migrations the database lacks, in order, in one transaction, holding a
    /// transaction-level advisory lock: instances starting together take turns, and the later ones
    /// find nothing left to do. The lock ends with the transaction, even if the connection drops.
    /// - Throws: `PostgresStoreError.newerSchema` when the database has migrations this version
    ///   does not know.
    static func migrate(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.transaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLockKey))", logger: logger)
            try await connection.query("CREATE SCHEMA IF NOT EXISTS alertd", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS alertd.migrations (
                    name text PRIMARY KEY,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """, logger: logger)
            var applied: Set<String> = []
            for try await name in try await connection.query("SELECT name FROM alertd.migrations", logger: logger)
                .decode(String.self)
            {
                applied.insert(name)
            }
            let unknown = applied.subtracting(migrations.map(\.name))
            guard unknown.isEmpty else { throw PostgresStoreError.newerSchema(unknownMigrations: unknown.sorted()) }
            for migration in migrations where !applied.contains(migration.name) {
                logger.info("applying queue schema migration", metadata: ["migration": "\(migration.name)"])
                for statement in migration.statements {
                    try await connection.query(statement, logger: logger)
                }
                try await connection.query("INSERT INTO alertd.migrations (name) VALUES (\(migration.name))", logger: logger)
            }
        }
    }
}
