import AlertQueue
import PostgresNIO
import Synchronization

/// A point in the history of session changes: what `changedSessions(since:)` answers from.
/// Opaque; it is a PostgreSQL snapshot (`pg_current_snapshot()`) in text form.
public struct ChangeCursor: Sendable, Hashable {
    let snapshot: String
}

extension PostgresQueueStore: QueueChangeFeed {
    /// The sessions whose queue or hold was written (by any instance) since `cursor`, and a new
    /// cursor; with no cursor, none and a cursor to start from.
    ///
    /// This is the periodic sweep that covers notifications lost on the way (a LISTEN connection
    /// that dropped, an instance that started listening late): call it every second or so with the
    /// cursor it last returned, and wake the waiters of the sessions it names.
    ///
    /// How: every write stamps its session's row of `alertd.sessions` with its transaction id
    /// (`changed_by`, an `xid8`, under the row lock it writes under anyway). A cursor is the
    /// snapshot of the previous sweep; a session changed since if its stamp is committed now but
    /// was not visible in that snapshot. Unlike a timestamp or a sequence, this misses no
    /// transaction that commits late: one still running now is not visible now, so the next sweep
    /// reports it. One indexed range scan from the snapshot's `xmin`; nothing to prune. Writes
    /// that changed nothing (a duplicate enqueue) stamp too: a sweep may report a session that did
    /// not change, never miss one that did.
    ///
    /// It also looks whether another instance's LISTEN connection is open (by its
    /// `application_name`): until one is, this instance's writes send no NOTIFY. An instance
    /// that starts listening says so on the channel, and is notified from then on; its own
    /// sweep covers what it missed before.
    /// - Throws: `QueueError.unavailable` when the database cannot be reached.
    public func changedSessions(since cursor: ChangeCursor?) async throws -> SessionChanges<ChangeCursor> {
        try await perform { connection in
            // One statement, so the snapshot returned is the one the sessions were read with.
            let rows = try await connection.query(
                """
                SELECT pg_current_snapshot()::text, ARRAY(
                    SELECT session FROM alertd.sessions
                    WHERE changed_by >= pg_snapshot_xmin(\(cursor?.snapshot)::pg_snapshot)
                      AND NOT pg_visible_in_snapshot(changed_by, \(cursor?.snapshot)::pg_snapshot)),
                    EXISTS (
                        SELECT 1 FROM pg_stat_activity
                        WHERE datname = current_database() AND application_name LIKE 'alertd listener %'
                          AND application_name <> \(self.listenerName))
                """, logger: self.logger
            ).collect()
            guard let row = rows.first else { throw PostgresStoreError.unreadableRow("no snapshot") }
            let (snapshot, sessions, othersListen) = try row.decode((String, [String], Bool).self)
            self.notifier.othersListen.store(othersListen, ordering: .relaxed)
            return SessionChanges(sessions: Set(sessions), cursor: ChangeCursor(snapshot: snapshot))
        }
    }
}
