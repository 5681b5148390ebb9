import AlertQueue
import AlertSpec
import Foundation
import PostgresNIO
import Testing

@testable import AlertQueuePostgres

/// `alertd.live_counts`, which gives the queue limit and positions without reading a session:
/// it must equal a count of the live items, from the migration on and after every kind of write.
@Suite("PostgreSQL live item counts")
struct PostgresLiveCountsTests {
    @Test("The migration counts the items already there, and every write keeps the counts exact")
    func countsStayExact() async throws {
        // Given: items written before the counts existed, in every state, lane, chain flag and priority
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let settings = QueueSettings(leaseDuration: 30, maxDeliveries: 1)
        let earlier = try database.open(settings: settings)
        try await earlier.migrate()
        for statement: PostgresQuery in [
            "DROP TRIGGER live_counts_insert ON alertd.items", "DROP TRIGGER live_counts_update ON alertd.items",
            "DROP TRIGGER live_counts_delete ON alertd.items", "DROP TABLE alertd.live_counts",
            "DROP FUNCTION alertd.count_inserted()", "DROP FUNCTION alertd.count_changed()",
            "DELETE FROM alertd.migrations WHERE name = 'countLiveItems'",
            """
            INSERT INTO alertd.items (ticket, session, content, priority, lane, dedupe_key, state, sequence, enqueued_at,
                expires_at, lease_until, at_head)
            SELECT 'old' || g, 's' || (g % 3), '{"alert":"app/x"}', (g % 4) * 100, (ARRAY['modal', 'toast', 'hud'])[1 + g % 3],
                'old' || g, (ARRAY['queued', 'queued', 'done', 'presenting', 'cancelled'])[1 + g % 5],
                nextval('alertd.item_sequence'), 0, CASE WHEN g % 4 = 1 THEN 1e12 END, CASE WHEN g % 5 = 3 THEN 1e12 END,
                g % 7 = 0
            FROM generate_series(1, 300) AS g
            WHERE g % 5 <> 3 OR g % 3 = 2
            """,
        ] {
            _ = try await earlier.pool.query(statement)
        }
        // When: a store migrates the database again
        let store = try database.open(settings: settings)
        try await store.migrate()
        // Then
        #expect(try await differences(store) == 0)

        // When: enqueues (one, and batches of several sessions), deliveries, acks with chains,
        // HUDs that replace HUDs, cancels, ended leases and TTLs, dead items, deletes
        _ = try await store.enqueue(alert("app/a", ttl: 5), now: t0)
        _ = try await store.enqueueAsOneBatch(
            [alert("app/b"), alert("app/c", in: "s2", priority: 900), hud("app/h", in: "s3"), alert("app/d", in: "s9")], now: t0)
        _ = try await store.enqueueAsOneBatch([hud("app/h2", in: "s3"), alert("app/b", key: "app/b")], now: at(1))
        // and duplicates that refresh queued items into another priority, lane and TTL
        var refreshes = [alert("app/b", priority: 800, key: "app/b", ttl: 30), alert("app/c", in: "s2", priority: 100, lane: .toast)]
        for index in refreshes.indices { refreshes[index].onDuplicate = .refresh }
        _ = try await store.enqueueAsOneBatch(refreshes, now: at(1))
        _ = try await store.enqueue(refreshes[0], now: at(1))
        for now in [at(2), at(3), at(40), at(41)] {
            if let item = try await store.next(session: "s2", now: now) {
                _ = try await store.acknowledge(session: "s2", ticket: item.ticket, now: now) { _ in alert("app/chain", in: "s2") }
            }
            _ = try await store.next(session: session, now: now)
            _ = try await store.next(session: "s0", now: now)
        }
        _ = try await store.cancel(session: "s3", ticket: nil, now: at(42))
        _ = try await store.items(session: session, now: at(100))
        _ = try await store.pool.query("DELETE FROM alertd.items WHERE session = 's0' AND sequence % 2 = 0")
        // and a session erased, registered with a user and topics
        _ = try await store.register(session: "s2", user: "u", topics: ["t"], now: at(42))
        try await store.createCampaign(Campaign(id: "c", template: alert("app/c", in: ""), audience: .sessions(["s2", "s3"]), createdAt: at(42)))
        #expect(try await store.erase(session: "s2").items > 0)
        // Then
        #expect(try await differences(store) == 0)
        #expect(try await store.pool.query("SELECT 1 FROM alertd.live_counts WHERE n <= 0").isEmpty)
        #expect(
            try await rowsOf("s2", in: store)
                == [
                    "events": 0, "items": 0, "live_counts": 0, "sessions": 0, "sessions_known": 0, "session_topics": 0, "withdrawals": 0,
                    "campaign_sessions": 0,
                ])
    }

    /// The rows of `session` in each table of the schema that has a `session` column.
    private func rowsOf(_ session: String, in store: PostgresQueueStore) async throws -> [String: Int] {
        let tables = try await store.pool.query(
            """
            SELECT table_name::text FROM information_schema.columns
            WHERE table_schema = 'alertd' AND column_name = 'session'
            """
        ).map { try $0.decode(String.self) }
        var rows: [String: Int] = [:]
        for table in tables {
            let query = PostgresQuery(unsafeSQL: "SELECT count(*)::int FROM alertd.\(table) WHERE session = $1", binds: {
                var binds = PostgresBindings()
                binds.append(session)
                return binds
            }())
            rows[table] = try #require(try await store.pool.query(query).first).decode(Int.self)
        }
        return rows
    }

    /// Rows where `live_counts` and a count of the live items disagree.
    private func differences(_ store: PostgresQueueStore) async throws -> Int {
        let rows = try await store.pool.query(
            """
            WITH counted AS (
                SELECT session, lane, at_head, priority, state, expires_at IS NOT NULL AS timed, count(*) AS n
                FROM alertd.items WHERE state IN ('queued', 'presenting')
                GROUP BY session, lane, at_head, priority, state, expires_at IS NOT NULL)
            SELECT count(*)::int FROM (
                (SELECT * FROM counted EXCEPT SELECT * FROM alertd.live_counts)
                UNION ALL
                (SELECT * FROM alertd.live_counts EXCEPT SELECT * FROM counted)) AS d
            """)
        return try #require(rows.first).decode(Int.self)
    }
}
