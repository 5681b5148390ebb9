import Foundation
import PostgresNIO
import Testing

@testable import AlertQueuePostgres

/// The plans PostgreSQL keeps for the store's functions: they must stay good as the queue grows
/// past the statistics they were made with.
@Suite("PostgreSQL queue store plans")
struct PostgresPlanTests {
    /// A write's first statement (one session) and a batch's (several), `next`, and a batch of
    /// enqueues, each called with `%@` standing for what makes its sessions and tickets its own.
    static let locks = [
        "alertd.lock_session('probe-%@', true, ARRAY['queued', 'presenting'], '')",
        "alertd.lock_sessions(ARRAY['probe-1%@', 'probe-2%@'], 2)",
        """
        alertd.lock_windows(ARRAY['probe-1%@', 'probe-2%@'], 2, 'NaN', ARRAY['', ''], ARRAY['k1', 'k2'], \
        ARRAY[true, false], ARRAY['modal', 'hud'], ARRAY[500, 0]::bigint[], ARRAY[false, false])
        """,
        "alertd.claim_next('probe-%@', 'NaN', 'NaN', 30, 5)",
        "alertd.deliver_unpaced('probe-%@', 'NaN', 'NaN', 30, 5, false, false, false)",
        """
        alertd.enqueue_counted(ARRAY['ticket-%@'], ARRAY['probe-%@'], ARRAY['{"alert":"app/x"}'], ARRAY[500]::bigint[], \
        ARRAY['modal'], ARRAY['k-%@'], ARRAY['NaN']::float8[], ARRAY['NaN']::float8[], ARRAY[false], ARRAY['NaN']::float8[], 100)
        """,
        """
        alertd.enqueue_copies(ARRAY['ticket-%@'], ARRAY['probe-%@'], ARRAY['{"alert":"app/x"}'], ARRAY[500]::bigint[], \
        ARRAY['modal'], ARRAY['k-%@'], ARRAY['NaN']::float8[], ARRAY['NaN']::float8[], ARRAY[false], ARRAY['NaN']::float8[], \
        ARRAY['g'], ARRAY['c-%@'], 100)
        """,
    ]

    @Test(
        "A lock reads the pages of its own sessions, though its plans were made when the table was small",
        arguments: locks)
    func lockStaysNarrow(call: String) async throws {
        // Given: statistics taken over 13 live items, and a connection that called the function
        // eight times then (PL/pgSQL plans custom for five calls, then may keep a generic plan).
        // Autovacuum is off for the store's tables: the statistics stay those of the 13 items,
        // the case where a kept plan would be worst.
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open()
        try await store.migrate()
        let logger = store.logger
        let pages = try await store.pool.withConnection { connection in
            for table in ["items", "sessions"] {
                try await connection.query(
                    PostgresQuery(unsafeSQL: "ALTER TABLE alertd.\(table) SET (autovacuum_enabled = off)"), logger: logger)
            }
            try await connection.query(Self.fill(13, prefix: "early"), logger: logger)
            try await connection.query("ANALYZE alertd.items", logger: logger)
            for index in 0..<8 {
                try await connection.query("BEGIN", logger: logger)
                let sql = "SELECT * FROM " + call.replacingOccurrences(of: "%@", with: "w\(index)")
                _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).collect()
                try await connection.query("ROLLBACK", logger: logger)
            }
            // When: the queue grows to 20,000 live items in other sessions
            try await connection.query(Self.fill(20_000, prefix: "later"), logger: logger)
            // Measured four times, the fewest pages kept. A call that finds its cached catalog
            // entries invalidated (an autoanalyze, or another test creating or dropping its
            // database in the same cluster) reads them all again, 790-983 pages of catalog, now
            // and then, twice in a row in a loaded run; a kept plan that reads every live item
            // does so at every call.
            var fewest = Int.max
            for _ in 0..<4 {
                try await connection.query("BEGIN", logger: logger)
                let sql = "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT * FROM " + call.replacingOccurrences(of: "%@", with: "")
                let plan = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).collect()
                try await connection.query("ROLLBACK", logger: logger)
                fewest = min(fewest, try Self.sharedBlocks(inPlan: try plan[0].decode(String.self)))
            }
            return fewest
        }
        // Then: a few index pages and the sessions' rows — not every live item (340 to 700 pages
        // with a plan kept from when the table was small)
        #expect(pages < 100, "\(call) read \(pages) pages")
    }

    @Test("A page of a topic's or a list's audience reads its own entries, though the statistics were taken when it was empty")
    func audiencePageStaysNarrow() async throws {
        // Given: statistics taken over empty tables (autovacuum off), then a topic and a list of 20,000 sessions
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open()
        try await store.migrate()
        let logger = store.logger
        let pages = try await store.pool.withConnection { connection in
            for table in ["session_topics", "campaign_sessions"] {
                try await connection.query(
                    PostgresQuery(unsafeSQL: "ALTER TABLE alertd.\(table) SET (autovacuum_enabled = off)"), logger: logger)
                try await connection.query(PostgresQuery(unsafeSQL: "ANALYZE alertd.\(table)"), logger: logger)
            }
            try await connection.query(
                """
                INSERT INTO alertd.session_topics (topic, session) SELECT 'bench', 's-' || lpad(g::text, 6, '0')
                FROM generate_series(1, 20000) AS g
                """, logger: logger)
            try await connection.query(
                """
                INSERT INTO alertd.campaign_sessions (campaign, position, session) SELECT 'list', g, 's-' || g
                FROM generate_series(0, 19999) AS g
                """, logger: logger)
            // When: a page of 500 from the start of each, measured ten times. Each call plans
            // the function's query, which reads the catalog again when its cached entries were
            // invalidated (other tests creating and dropping databases in the cluster): about 420
            // pages, up to half of the calls in a full test run.
            var pages: [[Int]] = []
            for call in ["alertd.topic_page('bench', '', 500)", "alertd.list_page('list', 0, 500)"] {
                var measured: [Int] = []
                for _ in 0..<10 {
                    let sql = "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT * FROM " + call
                    let plan = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).collect()
                    measured.append(try Self.sharedBlocks(inPlan: try plan[0].decode(String.self)))
                }
                pages.append(measured)
            }
            return pages
        }
        // Then: the fewest are the page's own index and heap pages, not every entry of the topic
        // or list (about 200)
        #expect(pages.allSatisfy { $0.min()! < 60 }, "pages read: \(pages)")
    }

    /// `count` live items in as many sessions as items, up to 5,000.
    private static func fill(_ count: Int, prefix: String) -> PostgresQuery {
        """
        INSERT INTO alertd.items (ticket, session, content, priority, lane, dedupe_key, state, sequence, enqueued_at)
        SELECT \(prefix) || g, \(prefix) || '-' || (g % 5000), '{"alert":"app/x"}', 0, 'modal', 'k' || g, 'queued',
            nextval('alertd.item_sequence'), 0
        FROM generate_series(1, \(count)) AS g
        """
    }

    /// The shared pages (found in memory or read) of the plan's top node, which counts those of
    /// the statements its function ran.
    private static func sharedBlocks(inPlan json: String) throws -> Int {
        let plans = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        let top = try #require(plans?.first?["Plan"] as? [String: Any])
        let hit = try #require(top["Shared Hit Blocks"] as? Int)
        let read = try #require(top["Shared Read Blocks"] as? Int)
        return hit + read
    }
}
