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
        Migration(name: "createLockFunctions", statements: [lockSessionFunction, lockSessionsFunction]),
        // `census()` reads this index alone (an index-only scan once vacuumed): the items that
        // are live, expired or dead, never the done and cancelled ones that make up most of the table.
        Migration(
            name: "indexCensus",
            statements: [
                """
                CREATE INDEX items_census ON alertd.items (state, lane, expires_at)
                WHERE state IN ('queued', 'presenting', 'expired', 'dead')
                """
            ]),
        Migration(name: "lockFunctionsPlanEachCall", statements: [lockSessionFunctionV2, lockSessionsFunctionV2]),
        Migration(name: "insertItemsFunction", statements: [insertItemsFunction]),
        Migration(name: "enqueueItemsFunction", statements: [enqueueItemsFunction]),
        // Steps read a window of their session, not every live item (`SessionWindow`).
        Migration(name: "indexWindows", statements: windowIndexes),
        Migration(name: "countLiveItems", statements: liveCounts),
        Migration(name: "windowFunctions", statements: [lockWindowsFunction, enqueueCountedFunction, claimNextFunction]),
        // A HUD is done when it is claimed: fire-and-forget.
        Migration(name: "claimHUDsAsDone", statements: [claimNextFunctionV2]),
        // What the user typed in an alert's input field, kept with the item its ack made done. A
        // nullable column: the functions of the version before name their columns, or take the
        // row type as it is, and go on working beside it.
        Migration(name: "keepAckInput", statements: ["ALTER TABLE alertd.items ADD COLUMN input text"]),
        // Each item's timeline (`EventRow`), the history's index, and the two one-statement
        // steps again, under new names, writing their events.
        Migration(name: "createEvents", statements: eventsSchema),
        // The event feed's order: each event's writing transaction (`PostgresQueueStore+Feed`).
        Migration(name: "orderEventFeed", statements: eventFeedSchema),
        // Daily outcome counters, rolled up from the event feed; they outlive item retention.
        Migration(name: "createOutcomes", statements: outcomesSchema),
        // The census reads the queued and presenting items only: expired and dead ones are
        // history, kept until the retention purges them, and made each scrape slower as they grew.
        Migration(
            name: "censusOfLiveItems",
            statements: [
                "DROP INDEX alertd.items_census",
                """
                CREATE INDEX items_census_live ON alertd.items (state, lane, expires_at)
                WHERE state IN ('queued', 'presenting')
                """,
            ]),
        // Scheduled delivery: `not_before`, its index, `claim_next` stepping over items not yet
        // due, and `insert_items` writing it.
        Migration(name: "scheduleItems", statements: scheduleSchema),
        // Groups of copies (a user's devices reached once) and the withdraws owed to devices.
        Migration(name: "groupsAndWithdrawals", statements: groupsSchema),
        // The session registry (`SessionDirectory`): a session's user, topics and last-seen
        // time. Tables of their own: `alertd.sessions` is the queue's lock row, which an erase
        // deletes and any write makes again.
        Migration(
            name: "createSessionDirectory",
            statements: [
                """
                CREATE TABLE alertd.sessions_known (
                    session text PRIMARY KEY,
                    user_id text,
                    -- Seconds since 1970, by the instances' clocks.
                    last_seen double precision NOT NULL,
                    registered double precision NOT NULL
                )
                """,
                "CREATE INDEX sessions_known_user ON alertd.sessions_known (user_id, last_seen) WHERE user_id IS NOT NULL",
                "CREATE INDEX sessions_known_last_seen ON alertd.sessions_known (last_seen)",
                // Keyed by topic first: a topic's sessions are one range of the key.
                """
                CREATE TABLE alertd.session_topics (
                    topic text NOT NULL,
                    session text NOT NULL,
                    PRIMARY KEY (topic, session)
                )
                """,
                "CREATE INDEX session_topics_session ON alertd.session_topics (session)",
            ]),
        // Campaigns: their rows, their explicit audiences, and each copy's campaign.
        Migration(name: "campaigns", statements: campaignsSchema),
        // A fan-out's copies in one statement, their group and campaign written with the row.
        Migration(name: "enqueueCopiesFunction", statements: [enqueueCopiesFunction]),
        // A topic's or a list's next page read in its key's order, whatever the statistics.
        Migration(name: "audiencePages", statements: audiencePagesFunctions),
        // Pacing: each item's rule, the paced deliveries, and `next` leaving paced sessions to Swift.
        Migration(name: "pacing", statements: pacingSchema),
        // Sessions' and users' pacing profiles (`PostgresQueueStore+Profiles`), keyed
        // `s:<session>` or `u:<user>`.
        Migration(
            name: "sessionProfiles",
            statements: ["CREATE TABLE alertd.profiles (owner text PRIMARY KEY, profile text NOT NULL)"]),
    ]

    /// `alertd.lock_session(session, with_sequence, states, ticket)`: a write's first round trip.
    /// Creates or stamps the session's row (locking it until the transaction ends, see
    /// `lockSession`), then — in a statement of its own, so with a snapshot taken after the lock
    /// was granted, which sees everything the previous holder committed — returns the session's
    /// items in `states` and `ticket`, locked `FOR UPDATE`, in `ItemRow.columns` order, followed by
    /// the database's `now()` and a fresh enqueue sequence (NULL unless asked for). With no item,
    /// one row whose item columns are NULL carries those two. (Since `lockFunctionsPlanEachCall`:
    /// `lockSessionFunctionV2`, which plans its item query at each call.)
    static let lockSessionFunction: PostgresQuery = """
        CREATE FUNCTION alertd.lock_session(p_session text, p_sequence boolean, p_states text[], p_ticket text)
        RETURNS TABLE (
            o_ticket text, o_session text, o_content text, o_priority integer, o_lane text, o_dedupe_key text,
            o_state text, o_sequence bigint, o_enqueued_at float8, o_expires_at float8, o_deliveries integer,
            o_lease_until float8, o_at_head boolean, o_now float8, o_next_sequence bigint)
        LANGUAGE plpgsql VOLATILE AS $$
        DECLARE
            v_now float8;
            v_next bigint;
        BEGIN
            INSERT INTO alertd.sessions AS s (session) VALUES (p_session)
            ON CONFLICT (session) DO UPDATE SET changed_by = pg_current_xact_id()
            RETURNING extract(epoch FROM now())::float8,
                CASE WHEN p_sequence THEN nextval('alertd.item_sequence') END
            INTO v_now, v_next;
            RETURN QUERY
                SELECT i.ticket, i.session, i.content::text, i.priority, i.lane, i.dedupe_key, i.state, i.sequence,
                    i.enqueued_at, i.expires_at, i.deliveries, i.lease_until, i.at_head, v_now, v_next
                FROM alertd.items AS i
                WHERE i.session = p_session AND (i.state = ANY(p_states) OR i.ticket = p_ticket)
                ORDER BY i.sequence
                FOR UPDATE;
            IF NOT FOUND THEN
                RETURN QUERY SELECT NULL::text, NULL::text, NULL::text, NULL::integer, NULL::text, NULL::text,
                    NULL::text, NULL::bigint, NULL::float8, NULL::float8, NULL::integer, NULL::float8, NULL::boolean,
                    v_now, v_next;
            END IF;
        END
        $$
        """

    /// `alertd.lock_sessions(sessions, sequences)`: the first round trip of a batch of enqueues
    /// (`EnqueueBatcher`). `lock_session` for several sessions at once — their rows created or
    /// stamped and locked in sorted order, so two batches sharing sessions queue up rather than
    /// deadlock — returning their live items in `ItemRow.columns` order, then `now()` and
    /// `sequences` fresh enqueue sequences, ascending; one row of NULL items when none is live.
    /// (Since `lockFunctionsPlanEachCall`: `lockSessionsFunctionV2`.)
    static let lockSessionsFunction: PostgresQuery = """
        CREATE FUNCTION alertd.lock_sessions(p_sessions text[], p_sequences integer)
        RETURNS TABLE (
            o_ticket text, o_session text, o_content text, o_priority integer, o_lane text, o_dedupe_key text,
            o_state text, o_sequence bigint, o_enqueued_at float8, o_expires_at float8, o_deliveries integer,
            o_lease_until float8, o_at_head boolean, o_now float8, o_next_sequences bigint[])
        LANGUAGE plpgsql VOLATILE AS $$
        DECLARE
            v_now float8 := extract(epoch FROM now())::float8;
            v_next bigint[];
        BEGIN
            INSERT INTO alertd.sessions AS s (session)
            SELECT DISTINCT u.session FROM unnest(p_sessions) AS u(session) ORDER BY u.session
            ON CONFLICT (session) DO UPDATE SET changed_by = pg_current_xact_id();
            SELECT array_agg(nextval('alertd.item_sequence') ORDER BY g) INTO v_next
            FROM generate_series(1, p_sequences) AS g;
            RETURN QUERY
                SELECT i.ticket, i.session, i.content::text, i.priority, i.lane, i.dedupe_key, i.state, i.sequence,
                    i.enqueued_at, i.expires_at, i.deliveries, i.lease_until, i.at_head, v_now, v_next
                FROM alertd.items AS i
                WHERE i.session = ANY(p_sessions) AND i.state IN ('queued', 'presenting')
                ORDER BY i.sequence
                FOR UPDATE;
            IF NOT FOUND THEN
                RETURN QUERY SELECT NULL::text, NULL::text, NULL::text, NULL::integer, NULL::text, NULL::text,
                    NULL::text, NULL::bigint, NULL::float8, NULL::float8, NULL::integer, NULL::float8, NULL::boolean,
                    v_now, v_next;
            END IF;
        END
        $$
        """

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
