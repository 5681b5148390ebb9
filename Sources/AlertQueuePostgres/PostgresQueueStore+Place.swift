import AlertQueue
import AlertSpec
import Foundation
import PostgresNIO

extension PostgresQueueStore {
    /// The 1-based place of `item`, queued and written in this transaction, among its session's
    /// queued items of its lane, in delivery order: for a duplicate enqueue that refreshed it,
    /// whose priority or lane may have changed since the window's counts were made. Chains ahead
    /// of a chain are newer ones; ahead of any other item are every chain, the higher
    /// priorities (`live_counts`) and the older items of its priority (an index range).
    func place(ofQueued item: QueueItem, on connection: PostgresConnection) async throws -> Int {
        let (session, lane, priority, sequence) = (item.session, item.lane.rawValue, item.priority, item.sequence)
        let query: PostgresQuery =
            item.atHead
            ? """
            SELECT count(*) FROM alertd.items AS q
            WHERE q.state = 'queued' AND q.at_head AND q.session = \(session) AND q.lane = \(lane) AND q.sequence > \(sequence)
            """
            : """
            SELECT (coalesce((
                SELECT sum(c.n) FROM alertd.live_counts AS c
                WHERE c.session = \(session) AND c.lane = \(lane) AND c.state = 'queued' AND (c.at_head OR c.priority > \(priority))), 0)
                + (SELECT count(*) FROM alertd.items AS q
                WHERE q.state = 'queued' AND NOT q.at_head AND q.session = \(session) AND q.lane = \(lane)
                    AND q.priority = \(priority) AND q.sequence < \(sequence)))::bigint
            """
        let rows = try await connection.query(query, logger: logger).collect()
        guard let row = rows.first else { throw PostgresStoreError.unreadableRow("counting an item's place returned no row") }
        return 1 + Int(try row.decode(Int64.self))
    }
}
