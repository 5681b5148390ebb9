import PostgresNIO

/// The schema that lets a step read a window of its session instead of every live item (see
/// `SessionItems.Unloaded`): partial indexes that give the window's parts as index ranges, and
/// `alertd.live_counts`, which counts the live items the window leaves out.
extension PostgresQueueStore {
    /// Migration `indexWindows`: the presenting items, the queued ones by expiry, the queued
    /// chains of a lane by sequence and the other queued items of a lane in delivery order
    /// (priority, higher first, then sequence), as `QueuePolicy.precedes` orders them. The
    /// index of every live item by sequence served only reads of the whole session, and each
    /// insert paid for it.
    static let windowIndexes: [PostgresQuery] = [
        "CREATE INDEX items_presenting ON alertd.items (session) WHERE state = 'presenting'",
        """
        CREATE INDEX items_queued_expiry ON alertd.items (session, expires_at)
        WHERE state = 'queued' AND expires_at IS NOT NULL
        """,
        "CREATE INDEX items_queued_chains ON alertd.items (session, lane, sequence) WHERE state = 'queued' AND at_head",
        """
        CREATE INDEX items_queued_order ON alertd.items (session, lane, priority DESC, sequence)
        WHERE state = 'queued' AND NOT at_head
        """,
        "DROP INDEX alertd.items_session_live",
    ]

    /// Migration `countLiveItems`: how many items of each session are live, by lane, chain,
    /// priority, state and whether they have a TTL (`timed`), filled from the items there and kept by triggers in the transaction
    /// that changes an item. A row at zero is deleted. Inserts are counted once per statement
    /// (a batch inserts many rows of few sessions); an update or delete per row, and only when
    /// the state changes, which the trigger's WHEN tells without calling the function.
    static let liveCounts: [PostgresQuery] = [
        """
        CREATE TABLE alertd.live_counts (
            session text NOT NULL, lane text NOT NULL, at_head boolean NOT NULL, priority integer NOT NULL,
            state text NOT NULL, timed boolean NOT NULL, n bigint NOT NULL,
            PRIMARY KEY (session, lane, at_head, priority, state, timed)
        )
        """,
        """
        INSERT INTO alertd.live_counts
        SELECT session, lane, at_head, priority, state, expires_at IS NOT NULL, count(*) FROM alertd.items
        WHERE state IN ('queued', 'presenting') GROUP BY session, lane, at_head, priority, state, expires_at IS NOT NULL
        """,
        """
        CREATE FUNCTION alertd.count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO alertd.live_counts AS c (session, lane, at_head, priority, state, timed, n)
            SELECT session, lane, at_head, priority, state, expires_at IS NOT NULL, count(*) FROM inserted
            WHERE state IN ('queued', 'presenting') GROUP BY session, lane, at_head, priority, state, expires_at IS NOT NULL
            ORDER BY session, lane, at_head, priority, state, expires_at IS NOT NULL
            ON CONFLICT (session, lane, at_head, priority, state, timed) DO UPDATE SET n = c.n + EXCLUDED.n;
            RETURN NULL;
        END
        $$
        """,
        """
        CREATE TRIGGER live_counts_insert AFTER INSERT ON alertd.items
        REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION alertd.count_inserted()
        """,
        // An item leaves its count when it was live, and enters the count of its new state
        // when that is live.
        """
        CREATE FUNCTION alertd.count_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            v_left bigint;
        BEGIN
            IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.state IN ('queued', 'presenting') THEN
                UPDATE alertd.live_counts SET n = n - 1
                WHERE session = OLD.session AND lane = OLD.lane AND at_head = OLD.at_head AND priority = OLD.priority
                    AND state = OLD.state AND timed = (OLD.expires_at IS NOT NULL)
                RETURNING n INTO v_left;
                IF v_left = 0 THEN
                    DELETE FROM alertd.live_counts
                    WHERE session = OLD.session AND lane = OLD.lane AND at_head = OLD.at_head
                        AND priority = OLD.priority AND state = OLD.state AND timed = (OLD.expires_at IS NOT NULL) AND n = 0;
                END IF;
            END IF;
            IF TG_OP = 'UPDATE' AND NEW.state IN ('queued', 'presenting') THEN
                INSERT INTO alertd.live_counts AS c
                VALUES (NEW.session, NEW.lane, NEW.at_head, NEW.priority, NEW.state, NEW.expires_at IS NOT NULL, 1)
                ON CONFLICT (session, lane, at_head, priority, state, timed) DO UPDATE SET n = c.n + 1;
            END IF;
            RETURN NULL;
        END
        $$
        """,
        """
        CREATE TRIGGER live_counts_update AFTER UPDATE ON alertd.items FOR EACH ROW
        WHEN (OLD.state IS DISTINCT FROM NEW.state OR OLD.lane IS DISTINCT FROM NEW.lane
            OR OLD.at_head IS DISTINCT FROM NEW.at_head OR OLD.priority IS DISTINCT FROM NEW.priority
            OR OLD.session IS DISTINCT FROM NEW.session OR (OLD.expires_at IS NULL) <> (NEW.expires_at IS NULL))
        EXECUTE FUNCTION alertd.count_changed()
        """,
        """
        CREATE TRIGGER live_counts_delete AFTER DELETE ON alertd.items FOR EACH ROW
        WHEN (OLD.state IN ('queued', 'presenting')) EXECUTE FUNCTION alertd.count_changed()
        """,
    ]
}
