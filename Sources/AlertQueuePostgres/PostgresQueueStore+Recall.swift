import AlertQueue
import Foundation
import PostgresNIO

// A recall: every live item in a scope, across sessions, taken back a batch per statement.

extension PostgresQueueStore {
    /// Items per statement (and so per transaction).
    static let recallBatch = 2000

    public func recall(_ scope: RecallScope, now: Date) async throws -> Recall {
        let (alert, campaign): (String?, String?) =
            switch scope {
            case .alert(let alert): (alert, nil)
            case .campaign(let campaign): (nil, campaign)
            }
        let caller: Double? = if case .caller = options.clock { now.timeIntervalSince1970 } else { nil }
        var total = Recall()
        while true {
            let rows = try await perform { connection in
                try await connection.query(
                    """
                    WITH n AS (SELECT coalesce(\(caller)::float8, extract(epoch FROM now())::float8) AS at),
                    picked AS (
                        SELECT i.ticket, i.session, i.state FROM alertd.items AS i, n
                        WHERE i.state IN ('queued', 'presenting') AND (i.state = 'presenting' OR i.expires_at IS NULL OR i.expires_at > n.at)
                            AND (\(alert)::text IS NULL OR i.content->>'alert' = \(alert))
                            AND (\(campaign)::text IS NULL OR (i.campaign_id = \(campaign) AND i.campaign_id IS NOT NULL))
                        LIMIT \(Self.recallBatch) FOR UPDATE OF i),
                    taken AS (
                        UPDATE alertd.items AS i SET state = 'cancelled', lease_until = NULL FROM picked AS p
                        WHERE i.ticket = p.ticket RETURNING p.session, p.ticket, p.state),
                    logged AS (
                        INSERT INTO alertd.events (session, ticket, type, at, detail)
                        SELECT t.session, t.ticket, CASE WHEN t.state = 'presenting' THEN 'withdrawn' ELSE 'cancelled' END, n.at,
                            '{"by": "recall"}'::jsonb
                        FROM taken AS t, n WHERE \(self.policy.settings.recordsEvents)),
                    owed AS (
                        INSERT INTO alertd.withdrawals (session, ticket, at)
                        SELECT t.session, t.ticket, n.at FROM taken AS t, n WHERE t.state = 'presenting'
                        ON CONFLICT DO NOTHING)
                    SELECT session, state = 'presenting' FROM taken
                    """, logger: self.logger
                ).collect()
            }
            var batch = Recall()
            for row in rows {
                let (session, withdrawn) = try row.decode((String, Bool).self)
                if withdrawn {
                    batch.withdrawn += 1
                    batch.sessions.insert(session)
                } else {
                    batch.cancelled += 1
                }
            }
            // Instances polling for those sessions hear it (the push; their sweep reads
            // `changed_by`, stamped in a transaction of its own, after the items' locks are gone).
            if !batch.sessions.isEmpty {
                let sessions = Array(batch.sessions)
                _ = try await perform { connection in
                    try await connection.query(
                        """
                        UPDATE alertd.sessions SET changed_by = pg_current_xact_id() WHERE session = ANY(\(BinaryArray(sessions))::text[])
                        """, logger: self.logger)
                }
                notifier.gather(sessions)
            }
            total.add(batch)
            // A row another writer holds is waited for (a deadlock is run again by `perform`), and
            // dropped if that writer ended it: a short batch is no proof of the end, an empty one is.
            if rows.isEmpty { return total }
        }
    }
}
