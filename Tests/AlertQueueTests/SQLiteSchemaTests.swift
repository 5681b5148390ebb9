import Foundation
import GRDB
import Testing

@testable import AlertQueue

/// The SQLite schema: what its migrations leave, and which indexes the store's queries use.
@Suite("SQLite schema")
struct SQLiteSchemaTests {
    @Test("A step's reads go through the partial indexes, never through every item of the table")
    func readsUsePartialIndexes() throws {
        // Given
        let queue = try DatabaseQueue()
        try SQLiteQueueStore.migrator.migrate(queue)
        try queue.read { db in
            // When
            let live = try Self.plan(ItemRecord.Scope.live.sql, in: db)
            let listed = try Self.plan(ItemRecord.Scope.listed.sql, in: db)
            let hasLive = try Self.plan(ItemRecord.hasLiveSQL, in: db)
            // Then
            #expect(live.contains { $0.contains("USING INDEX items_live_dedupe (session=?)") }, "\(live)")
            #expect(hasLive.contains { $0.contains("USING INDEX items_live_dedupe (session=?)") }, "\(hasLive)")
            #expect(listed.contains { $0.contains("USING INDEX items_live_dedupe (session=?)") }, "\(listed)")
            #expect(listed.contains { $0.contains("USING INDEX items_session_dead (session=?)") }, "\(listed)")
            for plan in [live, listed, hasLive] {
                #expect(!plan.contains { $0.hasPrefix("SCAN items") }, "\(plan)")
            }
        }
    }

    @Test("A database of the earlier schema keeps its items when it moves to the partial indexes")
    func migrationKeepsItems() async throws {
        // Given: a file migrated as far as the schema before `readThroughPartialIndexes`, with items
        let (path, remove) = try temporaryDatabasePath()
        defer { remove() }
        do {
            let store = try SQLiteQueueStore(path: path)
            _ = try await store.enqueue(alert("app/a", key: "a"), now: t0)
            _ = try await store.enqueue(alert("app/b", key: "b"), now: t0)
            try store.close()
        }
        let old = try DatabaseQueue(path: path)
        try await old.write { db in
            try db.execute(sql: "DROP INDEX items_session_dead")
            try db.execute(sql: "CREATE INDEX items_session_state ON items(session, state)")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'readThroughPartialIndexes'")
        }
        try old.close()
        // When
        let store = try SQLiteQueueStore(path: path)
        defer { try? store.close() }
        // Then
        let listed = try await store.items(session: session, now: at(1))
        #expect(listed.map(\.dedupeKey) == ["a", "b"])
        let indexes = try await DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'items_%' ORDER BY name")
        }
        #expect(indexes == ["items_census", "items_live_dedupe", "items_session_dead"])
    }

    /// The details of SQLite's plan for `sql` (every `?` bound to a session name).
    private static func plan(_ sql: String, in db: Database) throws -> [String] {
        let count = sql.filter { $0 == "?" }.count
        let arguments = StatementArguments(Array(repeating: "s", count: count))
        return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN \(sql)", arguments: arguments).map { $0["detail"] }
    }
}
