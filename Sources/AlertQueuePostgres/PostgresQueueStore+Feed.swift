import AlertQueue
import Foundation
import PostgresNIO

extension PostgresQueueStore {
    /// Each event row carries the id of the transaction that wrote it (`xid`, set by default in
    /// every insert, the SQL functions' too): the feed's order. Rows written before have 0.
    static let eventFeedSchema: [PostgresQuery] = [
        "ALTER TABLE alertd.events ADD COLUMN xid xid8 NOT NULL DEFAULT '0'",
        "ALTER TABLE alertd.events ALTER COLUMN xid SET DEFAULT pg_current_xact_id()",
        "CREATE INDEX events_feed ON alertd.events (xid, id)",
    ]

    /// Every session's events after `cursor`, by writing transaction then id, read only from
    /// transactions older than the oldest one still running (`pg_snapshot_xmin`). An id alone
    /// would not do: a transaction that drew a smaller id may commit after a reader passed a
    /// larger one. Below the snapshot's xmin every transaction has ended, so nothing can appear
    /// behind a cursor later; the price is that a long transaction anywhere in the database holds
    /// the feed back until it ends.
    public func events(after cursor: EventCursor?, limit: Int) async throws -> EventPage {
        try await perform { connection in try await self.feed(after: cursor ?? .start, limit: limit, on: connection) }
    }

    /// The feed's page after `from`, read on `connection` (inside its transaction, if any).
    func feed(after from: EventCursor, limit: Int, on connection: PostgresConnection) async throws -> EventPage {
        let rows = try await connection.query(
            """
            SELECT e.xid::text, e.id, e.session, e.ticket, e.type, e.at, e.detail::text, i.content->>'alert'
            FROM alertd.events e LEFT JOIN alertd.items i ON i.ticket = e.ticket
            WHERE (e.xid, e.id) > (\(String(from.transaction))::xid8, \(from.id))
              AND e.xid < pg_snapshot_xmin(pg_current_snapshot())
            ORDER BY e.xid, e.id LIMIT \(limit)
            """, logger: logger
        ).collect()
        var events: [FeedEvent] = []
        for row in rows {
            let (xid, id, session, ticket, type, at, detail, alert) = try row.decode(
                (String, Int64, String, String, String, Double, String, String?).self)
            guard let kind = ItemEvent.Kind(rawValue: type) else { continue }
            let event = ItemEvent(
                kind: kind, session: session, ticket: ticket, at: Date(timeIntervalSince1970: at),
                detail: ItemEvent.detail(fromJSON: detail))
            events.append(FeedEvent(cursor: EventCursor(transaction: UInt64(xid) ?? 0, id: id), event: event, alert: alert))
        }
        return EventPage(events: events, next: events.last?.cursor ?? from)
    }
}
