import AlertQueue
import AlertSpec
import Foundation
import PostgresNIO

/// `next`: the claim, serialized per session by the session's row lock; the database keeps it
/// right while instances race.
extension PostgresQueueStore {
    /// One delivery, in one transaction:
    /// 1. Locks the session's row (`FOR UPDATE`), so that claims of one session take turns.
    ///    Without it, two instances claiming at once could each take a different modal — the
    ///    second skipping the first, locked by the other (`SKIP LOCKED`) — and whichever
    ///    committed first would present, the second in line possibly (seen under load in
    ///    `MultiInstanceTests`). Claims of different sessions never wait for each other.
    /// 2. Ends the leases and TTLs that passed, as `QueuePolicy.prepare` does.
    /// 3. Claims the best queued item of the free lanes in the documented order (chains first,
    ///    newest first; then priority, higher first; then enqueue order), taken from the first
    ///    entries of each lane's indexes rather than by sorting the session's queue.
    /// 4. Marks it presenting with a lease; a HUD ends the session's other presenting HUDs.
    ///
    /// The partial unique index `items_one_presenting` still guarantees one presenting modal per
    /// session whatever the path: a unique violation is answered by `perform` running the claim
    /// again, which then sees the lane busy.
    func claimNext(session: String, now callerNow: Date, on connection: PostgresConnection) async throws -> QueueItem? {
        try await connection.transaction(logger: logger) { connection in
            let now =
                switch options.clock {
                case .caller: callerNow.timeIntervalSince1970
                case .database: try await databaseNow(on: connection)
                }
            try await connection.query(
                "SELECT 1 FROM alertd.sessions WHERE session = \(session) FOR UPDATE", logger: logger)
            try await connection.query(prepare(session: session, now: now), logger: logger)
            let rows = try await connection.query(claim(session: session, now: now), logger: logger).collect()
            guard let row = rows.first else { return nil }
            let delivered = try ItemRow.item(from: row, contents: contents)
            if delivered.lane == .hud {
                try await connection.query(
                    """
                    UPDATE alertd.items SET state = 'done', lease_until = NULL
                    WHERE session = \(session) AND lane = 'hud' AND state = 'presenting' AND ticket <> \(delivered.ticket)
                    """, logger: logger)
            }
            return delivered
        }
    }

    /// `QueuePolicy.prepare` in SQL: a presenting item whose lease ended is queued again, or dead
    /// after `maxDeliveries`; then a queued item past its TTL (one just requeued too) is expired.
    /// The items are found through `items_presenting` and `items_queued_expiry`.
    private func prepare(session: String, now: Double) -> PostgresQuery {
        """
        UPDATE alertd.items SET
            state = CASE
                WHEN state = 'presenting' AND deliveries >= \(policy.settings.maxDeliveries) THEN 'dead'
                WHEN expires_at <= \(now) THEN 'expired'
                ELSE 'queued' END,
            lease_until = NULL
        WHERE ticket IN (
                SELECT p.ticket FROM alertd.items AS p
                WHERE p.session = \(session) AND p.state = 'presenting' AND p.lease_until <= \(now)
                UNION ALL
                SELECT e.ticket FROM alertd.items AS e
                WHERE e.session = \(session) AND e.state = 'queued' AND e.expires_at <= \(now))
          AND ((state = 'presenting' AND lease_until <= \(now)) OR (state = 'queued' AND expires_at <= \(now)))
        """
    }

    /// The claim. A lane is free when nothing of it presents (`hud` always) and, for modal and
    /// toast, the session holds no hold at `now`. Each free lane offers its newest chain
    /// (`items_queued_chains`) and its first other item (`items_queued_order`), each the first
    /// entry of an index range; the best of those six is the best of all.
    private func claim(session: String, now: Double) -> PostgresQuery {
        let leaseUntil = Date(timeIntervalSince1970: now).addingTimeInterval(policy.settings.leaseDuration)
        return """
        WITH candidate AS (
            SELECT b.ticket FROM (VALUES ('modal'), ('toast'), ('hud')) AS l(lane)
            CROSS JOIN LATERAL (
                (SELECT c.ticket, c.at_head, c.priority, c.sequence FROM alertd.items AS c
                WHERE c.state = 'queued' AND c.at_head AND c.session = \(session) AND c.lane = l.lane
                  AND (c.expires_at IS NULL OR c.expires_at > \(now))
                ORDER BY c.sequence DESC LIMIT 1)
                UNION ALL
                (SELECT o.ticket, o.at_head, o.priority, o.sequence FROM alertd.items AS o
                WHERE o.state = 'queued' AND NOT o.at_head AND o.session = \(session) AND o.lane = l.lane
                  AND (o.expires_at IS NULL OR o.expires_at > \(now))
                ORDER BY o.priority DESC, o.sequence LIMIT 1)) AS b
            WHERE l.lane = 'hud' OR (
                NOT EXISTS (SELECT 1 FROM alertd.sessions AS h WHERE h.session = \(session) AND h.hold_until > \(now))
                AND NOT EXISTS (
                    SELECT 1 FROM alertd.items AS p WHERE p.session = \(session) AND p.state = 'presenting' AND p.lane = l.lane))
            ORDER BY b.at_head DESC, CASE WHEN b.at_head THEN b.sequence END DESC, b.priority DESC, b.sequence
            LIMIT 1
        )
        UPDATE alertd.items AS i
        SET state = 'presenting', deliveries = i.deliveries + 1, lease_until = \(leaseUntil.timeIntervalSince1970)
        FROM candidate WHERE i.ticket = candidate.ticket AND i.state = 'queued'
        RETURNING \(unescaped: ItemRow.columns(of: "i"))
        """
    }

    /// PostgreSQL's `now()`: the start of the transaction, in seconds since 1970.
    func databaseNow(on connection: PostgresConnection) async throws -> Double {
        let rows = try await connection.query("SELECT extract(epoch FROM now())::float8", logger: logger).collect()
        guard let row = rows.first else { throw PostgresStoreError.unreadableRow("now() returned no row") }
        return try row.decode(Double.self)
    }
}
