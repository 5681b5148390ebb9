import AlertQueue
import Foundation
import PostgresNIO

extension PostgresQueueStore {
    /// One short transaction on a pooled connection, beside the steps: up to `limit` items read
    /// in enqueue order through the `sequence` index, each one's last event a lookup of
    /// `events_item`; those finished before `cutoff` go with their events, in two statements.
    /// No session is locked: a finished item never changes again, and a step never reads one to
    /// decide. No NOTIFY: no live item changed.
    public func purge(finishedBefore cutoff: Date, after: PurgeCursor?, limit: Int) async throws -> PurgeBatch {
        let limit = max(1, limit)
        let line = cutoff.timeIntervalSince1970
        let (batch, tickets) = try await perform { connection -> (PurgeBatch, [String]) in
            try await connection.transaction(logger: self.logger) { connection in
                let rows = try await connection.query(
                    """
                    SELECT i.ticket, i.session, i.state, i.enqueued_at,
                        (SELECT e.at FROM alertd.events e WHERE e.session = i.session AND e.ticket = i.ticket
                         ORDER BY e.id DESC LIMIT 1),
                        i.sequence
                    FROM alertd.items i WHERE i.sequence > \(after?.sequence ?? Int64.min) ORDER BY i.sequence LIMIT \(limit)
                    """, logger: self.logger
                ).collect()
                let scanned = try rows.map { try $0.decode((String, String, String, Double, Double?, Int64).self) }
                var (sessions, tickets) = ([String](), [String]())
                var next = scanned.count < limit ? nil : scanned.last.map { PurgeCursor(sequence: $0.5) }
                for (ticket, session, state, enqueuedAt, finished, _) in scanned {
                    if enqueuedAt >= line {
                        next = nil
                        break
                    }
                    guard let itemState = ItemState(rawValue: state), !itemState.isLive, (finished ?? enqueuedAt) < line
                    else { continue }
                    sessions.append(session)
                    tickets.append(ticket)
                }
                guard !tickets.isEmpty else { return (PurgeBatch(items: 0, events: 0, next: next), []) }
                let events = try await connection.query(
                    """
                    WITH gone AS (
                        DELETE FROM alertd.events e USING unnest(\(BinaryArray(sessions))::text[], \(BinaryArray(tickets))::text[])
                            AS g(session, ticket)
                        WHERE e.session = g.session AND e.ticket = g.ticket RETURNING 1)
                    SELECT count(*) FROM gone
                    """, logger: self.logger
                ).collect().first?.decode(Int.self) ?? 0
                let items = try await connection.query(
                    """
                    WITH gone AS (
                        DELETE FROM alertd.items WHERE ticket = ANY(\(BinaryArray(tickets))::text[])
                            AND state NOT IN ('queued', 'presenting') RETURNING 1)
                    SELECT count(*) FROM gone
                    """, logger: self.logger
                ).collect().first?.decode(Int.self) ?? 0
                // Withdraws still owed for the items, their devices never having asked since.
                try await connection.query(
                    "DELETE FROM alertd.withdrawals WHERE ticket = ANY(\(BinaryArray(tickets))::text[])", logger: self.logger)
                return (PurgeBatch(items: items, events: events, next: next), tickets)
            }
        }
        for ticket in tickets { contents.forget(key: ticket) }
        return batch
    }
}
