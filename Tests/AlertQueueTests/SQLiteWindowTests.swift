import AlertQueue
import AlertSpec
import Foundation
import GRDB
import Testing

@testable import AlertQueueSQLite

/// The SQLite store's window: its reads go through indexes, and its counts stay exact.
@Suite("SQLite window")
struct SQLiteWindowTests {
    /// How many (session, lane, chain, priority, state) counts `live_counts` gets wrong: 0 when
    /// it agrees with a recount of the items.
    static let liveCountsDifferences = """
        WITH counted AS (
            SELECT session, lane, at_head, priority, state, count(*) AS n FROM items
            WHERE state IN ('queued', 'presenting') GROUP BY session, lane, at_head, priority, state)
        SELECT count(*) FROM (
            SELECT * FROM (SELECT * FROM counted EXCEPT SELECT * FROM live_counts)
            UNION ALL
            SELECT * FROM (SELECT * FROM live_counts EXCEPT SELECT * FROM counted))
        """

    @Test("A window's reads go through their partial indexes, in delivery order, never sorted or scanned")
    func windowUsesIndexes() throws {
        // Given
        let queue = try DatabaseQueue()
        try SQLiteQueueStore.migrator.migrate(queue)
        try queue.read { db in
            for sql in [
                WindowSQL.due, WindowSQL.best, WindowSQL.holder, WindowSQL.queuedHUDs, WindowSQL.chainsAhead, WindowSQL.samePriorityAhead,
                WindowSQL.nextTimedChange,
            ] {
                // When
                // Numbered parameters, each given a value (the plan does not depend on which)
                let bound = sql.replacing(/\?[0-9]?/, with: "'x'")
                let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN \(bound)").map { $0["detail"] as String }
                // Then
                #expect(plan.contains { $0.contains("USING INDEX items_") || $0.contains("USING COVERING INDEX items_") }, "\(plan)")
                #expect(!plan.contains { $0.hasPrefix("SCAN items") || $0.contains("TEMP B-TREE") }, "\(plan)")
            }
        }
    }

    @Test("Items already stored are counted when the counts are added, and the limit holds on them")
    func countsFilledByMigration() async throws {
        // Given: a file of the schema before `countLiveItems`, with two live items and a done one
        let (path, remove) = try temporaryDatabasePath()
        defer { remove() }
        let settings = QueueSettings(maxQueueLength: 3)
        do {
            let store = try SQLiteQueueStore(path: path, settings: settings)
            _ = try await store.enqueue(alert("app/a", priority: 900), now: t0)
            _ = try await store.enqueue(alert("app/b"), now: t0)
            let done = try await store.enqueue(alert("app/c"), now: t0)
            _ = try await store.ack(session: session, ticket: done.item.ticket, chain: nil, now: t0)
            try store.close()
        }
        let old = try DatabaseQueue(path: path)
        try await old.write { db in
            for trigger in ["insert", "enter", "leave", "delete", "move"] { try db.execute(sql: "DROP TRIGGER live_counts_\(trigger)") }
            try db.execute(sql: "DROP TABLE live_counts")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier IN ('countLiveItems', 'countRefreshedItems')")
        }
        try old.close()
        // When
        let store = try SQLiteQueueStore(path: path, settings: settings)
        defer { try? store.close() }
        let third = try await store.enqueue(alert("app/d"), now: at(1))
        // Then
        #expect(third.position == 3)
        await #expect(throws: QueueError.queueFull(limit: 3)) {
            try await store.enqueue(alert("app/e"), now: at(1))
        }
    }

    @Test("live_counts stays exact when duplicate enqueues refresh queued items into other priorities, lanes and TTLs")
    func countsFollowRefreshes() async throws {
        // Given
        let store = try SQLiteQueueStore.inMemory()
        _ = try await store.enqueue(alert("app/a", priority: 300, key: "a"), now: t0)
        _ = try await store.enqueue(alert("app/b", priority: 500, key: "b", ttl: 60), now: t0)
        _ = try await store.enqueue(alert("app/c", priority: 500, key: "c"), now: t0)
        // When: refreshed to another priority, to another lane, with and without a TTL
        var refreshes = [
            alert("app/a", priority: 900, key: "a", ttl: 30), alert("app/b", priority: 500, lane: .toast, key: "b"),
            alert("app/c", priority: 100, key: "c"),
        ]
        for index in refreshes.indices { refreshes[index].onDuplicate = .refresh }
        for new in refreshes {
            #expect(try await store.enqueue(new, now: at(1)).refreshed)
        }
        _ = try await store.next(session: session, now: at(2))
        // Then
        let differences = try await store.writer.read { db in
            try Int.fetchOne(db, sql: Self.liveCountsDifferences)
        }
        #expect(differences == 0)
        #expect(try await store.items(session: session, now: at(2)).map(\.priority) == [900, 500, 100])
    }

    @Test("Erasing a session leaves no row of it in any table, and live_counts exact for the others")
    func eraseLeavesNoRow() async throws {
        // Given: two sessions with items of several states, and a hold
        let store = try SQLiteQueueStore.inMemory(settings: QueueSettings(leaseDuration: 10))
        for id in ["app/a", "app/b", "app/c"] {
            _ = try await store.enqueue(alert(id), now: t0)
            _ = try await store.enqueue(alert(id, in: "s2", priority: 700), now: t0)
        }
        _ = try await store.next(session: session, now: t0)
        _ = try await store.next(session: "s2", now: t0)
        _ = try await store.cancel(session: session, ticket: nil, now: at(1))
        _ = try await store.enqueue(hud("app/h"), now: at(2))
        try await store.hold(session: session, until: at(60))
        _ = try await store.register(session: session, user: "u", topics: ["t"], now: at(2))
        try await store.createCampaign(Campaign(id: "c", template: alert("app/c", in: ""), audience: .sessions([session, "s2"]), createdAt: at(2)))
        // When
        _ = try await store.erase(session: session)
        // Then: every table with a session column, found from the schema, has no row of it
        let (left, differences) = try await store.writer.read { db -> ([String: Int], Int) in
            var left: [String: Int] = [:]
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            where try db.columns(in: table).contains(where: { $0.name == "session" }) {
                left[table] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE session = ?", arguments: [session])
            }
            let differences = try Int.fetchOne(db, sql: Self.liveCountsDifferences) ?? -1
            return (left, differences)
        }
        #expect(
            left == [
                "items": 0, "holds": 0, "live_counts": 0, "events": 0, "sessions_known": 0, "session_topics": 0, "withdrawals": 0,
                "campaign_sessions": 0,
            ])
        #expect(differences == 0)
        #expect(try await store.items(session: "s2", now: at(3)).count == 3)
    }
}
