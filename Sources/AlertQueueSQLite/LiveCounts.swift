import GRDB

/// `live_counts`: how many items of each session are queued or presenting, by lane, chain,
/// priority and state, kept by triggers on `items`. A row at zero is deleted, so a session
/// has rows only while it holds live items.
enum LiveCounts {
    /// The table, filled from the items already there, and its triggers. Each trigger's WHEN
    /// names two states (an IN list of more than two costs every write an ephemeral table).
    static let schema = """
        CREATE TABLE live_counts (
            session TEXT NOT NULL, lane TEXT NOT NULL, at_head INTEGER NOT NULL, priority INTEGER NOT NULL,
            state TEXT NOT NULL, n INTEGER NOT NULL,
            PRIMARY KEY (session, lane, at_head, priority, state)
        ) WITHOUT ROWID;
        INSERT INTO live_counts
            SELECT session, lane, at_head, priority, state, count(*) FROM items
            WHERE state IN ('queued', 'presenting') GROUP BY session, lane, at_head, priority, state;
        CREATE TRIGGER live_counts_insert AFTER INSERT ON items WHEN NEW.state IN ('queued', 'presenting') BEGIN
            \(add("NEW"))
        END;
        CREATE TRIGGER live_counts_enter AFTER UPDATE OF state ON items
        WHEN NEW.state IN ('queued', 'presenting') AND NEW.state IS NOT OLD.state BEGIN
            \(add("NEW"))
        END;
        CREATE TRIGGER live_counts_leave AFTER UPDATE OF state ON items
        WHEN OLD.state IN ('queued', 'presenting') AND NEW.state IS NOT OLD.state BEGIN
            \(remove("OLD"))
        END;
        CREATE TRIGGER live_counts_delete AFTER DELETE ON items WHEN OLD.state IN ('queued', 'presenting') BEGIN
            \(remove("OLD"))
        END;
        """

    /// Migration `countRefreshedItems`: a live item whose lane, priority or chain flag changes
    /// in place (a duplicate enqueue refreshed it) moves from its count to the new one. A change
    /// of state in the same statement is counted by the triggers above, with the row's new
    /// values.
    static let moveSchema = """
        CREATE TRIGGER live_counts_move AFTER UPDATE OF lane, priority, at_head ON items
        WHEN OLD.state IN ('queued', 'presenting') AND NEW.state IS OLD.state
            AND (NEW.lane IS NOT OLD.lane OR NEW.priority IS NOT OLD.priority OR NEW.at_head IS NOT OLD.at_head) BEGIN
            \(remove("OLD"))
            \(add("NEW"))
        END;
        """

    private static func add(_ row: String) -> String {
        """
        INSERT INTO live_counts VALUES (\(row).session, \(row).lane, \(row).at_head, \(row).priority, \(row).state, 1)
            ON CONFLICT (session, lane, at_head, priority, state) DO UPDATE SET n = n + 1;
        """
    }

    private static func remove(_ row: String) -> String {
        let key = """
            session = \(row).session AND lane = \(row).lane AND at_head = \(row).at_head \
            AND priority = \(row).priority AND state = \(row).state
            """
        return """
            UPDATE live_counts SET n = n - 1 WHERE \(key);
            DELETE FROM live_counts WHERE \(key) AND n = 0;
            """
    }

    /// The session's live items.
    static let liveSQL = "SELECT coalesce(sum(n), 0) FROM live_counts WHERE session = ?"

    /// The session's queued items of a lane (`?2`) that a new item of priority `?3` queues
    /// behind: the chains, and every other item of that priority or higher.
    static let aheadOfNewSQL = """
        SELECT coalesce(sum(n), 0) FROM live_counts
        WHERE session = ?1 AND lane = ?2 AND state = 'queued' AND (at_head = 1 OR priority >= ?3)
        """

    /// The session's queued items of a lane (`?2`) with a higher priority than `?3`, or chains.
    static let aheadOfPrioritySQL = """
        SELECT coalesce(sum(n), 0) FROM live_counts
        WHERE session = ?1 AND lane = ?2 AND state = 'queued' AND (at_head = 1 OR priority > ?3)
        """
}
