import AlertSpec
import Foundation
import GRDB
import Testing

import AlertQueue
@testable import AlertQueueSQLite

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
            let census = try Self.plan(ItemRecord.censusSQL, in: db)
            // Then
            #expect(live.contains { $0.contains("USING INDEX items_live_dedupe (session=?)") }, "\(live)")
            #expect(hasLive.contains { $0.contains("USING INDEX items_live_dedupe (session=?)") }, "\(hasLive)")
            #expect(listed.contains { $0.contains("USING INDEX items_live_dedupe (session=?)") }, "\(listed)")
            #expect(listed.contains { $0.contains("USING INDEX items_session_dead (session=?)") }, "\(listed)")
            // The census reads its whole partial index, never the table.
            #expect(census.contains { $0.contains("USING COVERING INDEX items_census_live") }, "\(census)")
            #expect(!census.contains { $0.hasPrefix("SCAN items") && !$0.contains("items_census_live") }, "\(census)")
            // The purge walks the items by sequence and finds each one's last event by the id its row lists.
            let purge = try Self.plan(PurgeSQL.scan, in: db)
            #expect(purge.contains { $0.contains("SCAN i USING INDEX sqlite_autoindex_items_2") || $0.contains("SEARCH i USING INDEX sqlite_autoindex_items_2 (sequence>?)") }, "\(purge)")
            #expect(purge.contains { $0.contains("SEARCH e USING INTEGER PRIMARY KEY (rowid=?)") }, "\(purge)")
            #expect(!purge.contains { $0.contains("TEMP B-TREE") }, "\(purge)")
            for plan in [live, listed, hasLive] {
                #expect(!plan.contains { $0.hasPrefix("SCAN items") }, "\(plan)")
            }
        }
    }

    @Test("No statement of a step builds an ephemeral table (as an IN list of more than two constants does)")
    func noEphemeralTables() throws {
        // Given
        let queue = try DatabaseQueue()
        try SQLiteQueueStore.migrator.migrate(queue)
        try queue.read { db in
            for sql in [
                ItemRecord.insertSQL, ItemRecord.updateProgressSQL, ItemRecord.Scope.live.sql, ItemRecord.hasLiveSQL
            ] {
                // When
                let opcodes = try Self.program(sql, in: db)
                // Then: every partial index's WHERE is tested with comparisons
                #expect(!opcodes.isEmpty)
                #expect(!opcodes.contains("OpenEphemeral"), "\(sql)")
            }
        }
    }

    @Test("A database of the earliest census index gets the census of live items, and keeps its items")
    func censusMigrationKeepsItems() async throws {
        // Given: a file whose census index is the one before `censusWithoutEphemeralTable`
        let (path, remove) = try temporaryDatabasePath()
        defer { remove() }
        do {
            let store = try SQLiteQueueStore(path: path)
            _ = try await store.enqueue(alert("app/a", key: "a"), now: t0)
            _ = try await store.next(session: session, now: t0)
            _ = try await store.enqueue(alert("app/b", key: "b"), now: t0)
            try store.close()
        }
        let old = try DatabaseQueue(path: path)
        try await old.write { db in
            try db.execute(sql: "DROP INDEX items_census_live")
            try db.execute(
                sql: """
                    CREATE INDEX items_census ON items(state, lane, expires_at)
                    WHERE state IN ('queued', 'presenting', 'expired', 'dead')
                    """)
            try db.execute(
                sql: "DELETE FROM grdb_migrations WHERE identifier IN ('censusWithoutEphemeralTable', 'censusOfLiveItems')")
        }
        try old.close()
        // When
        let store = try SQLiteQueueStore(path: path)
        defer { try? store.close() }
        // Then
        #expect(try await store.items(session: session, now: at(1)).map(\.dedupeKey) == ["a", "b"])
        #expect(try await store.census(now: at(1))[.modal, .presenting] == 1)
        #expect(try await store.census(now: at(1))[.modal, .queued] == 1)
        let indexes = try await DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE name LIKE 'items_census%'")
        }
        #expect(indexes.count == 1 && indexes[0].contains("WHERE state IN ('queued', 'presenting')"), "\(indexes)")
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
        #expect(
            indexes == [
                "items_campaign", "items_campaign_live", "items_census_live", "items_group_live", "items_live_dedupe", "items_presenting", "items_queued_chains",
                "items_queued_expiry",
                "items_queued_order", "items_queued_scheduled", "items_session_dead", "items_session_finished",
            ])
    }

    /// The opcodes of the program SQLite compiles `sql` into.
    private static func program(_ sql: String, in db: Database) throws -> [String] {
        let arguments = StatementArguments(Array(repeating: DatabaseValue.null, count: sql.filter { $0 == "?" }.count))
        return try Row.fetchAll(db, sql: "EXPLAIN \(sql)", arguments: arguments).map { $0["opcode"] }
    }

    /// The details of SQLite's plan for `sql` (every `?` bound to a session name).
    private static func plan(_ sql: String, in db: Database) throws -> [String] {
        let count = sql.filter { $0 == "?" }.count
        let arguments = StatementArguments(Array(repeating: "s", count: count))
        return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN \(sql)", arguments: arguments).map { $0["detail"] }
    }
}

@Suite("SQLite event ids")
struct SQLiteEventIDTests {
    @Test("Rows written under AUTOINCREMENT are kept, and no id it gave, deleted or not, is given again")
    func migrationKeepsRowsAndFloor() throws {
        // Given events written by the version before, the newest of them deleted
        let queue = try DatabaseQueue()
        try SQLiteQueueStore.migrator.migrate(queue, upTo: "createOutcomes")
        try queue.write { db in
            for ticket in ["a", "b", "c"] {
                try db.execute(sql: "INSERT INTO events (session, ticket, type, at) VALUES ('s', ?, 'enqueued', 0)", arguments: [ticket])
            }
            try db.execute(sql: "DELETE FROM events WHERE ticket = 'c'")
        }
        // When the store's migrations run
        try SQLiteQueueStore.migrator.migrate(queue)
        // Then
        let (tickets, lastID, table) = try queue.read { db in
            (
                try String.fetchAll(db, sql: "SELECT ticket FROM events ORDER BY id"), try EventRecord.lastID(db),
                try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'events'") ?? ""
            )
        }
        #expect(tickets == ["a", "b"])
        #expect(lastID == 3)
        #expect(!table.contains("AUTOINCREMENT"))
    }
}

@Suite("SQLite event lists")
struct SQLiteEventListTests {
    @Test("The events an item had before its row listed them are listed, in order, and its timeline reads them")
    func migrationListsEvents() throws {
        // Given an item with three events, and another with none, written by the version before
        let queue = try DatabaseQueue()
        try SQLiteQueueStore.migrator.migrate(queue, upTo: "censusOfLiveItems")
        try queue.write { db in
            for (ticket, sequence) in [("a", 1), ("b", 2)] {
                try db.execute(
                    sql: """
                        INSERT INTO items (ticket, session, content, priority, lane, dedupe_key, state, sequence, enqueued_at)
                        VALUES (?, 's', '{"alert":"app/a","params":{}}', 500, 'modal', ?, 'done', ?, 0)
                        """, arguments: [ticket, ticket, sequence])
            }
            for (id, type) in [(7, "enqueued"), (9, "delivered"), (12, "acknowledged")] {
                try db.execute(
                    sql: "INSERT INTO events (id, session, ticket, type, at) VALUES (?, 's', 'a', ?, ?)", arguments: [id, type, id])
            }
        }
        // When the store's migrations run
        try SQLiteQueueStore.migrator.migrate(queue)
        // Then
        let (lists, timeline) = try queue.read { db in
            (
                try String.fetchAll(db, sql: "SELECT events FROM items ORDER BY sequence"),
                try EventRecord.timeline(session: "s", ticket: "a", in: db)
            )
        }
        #expect(lists == [",7,9,12", ""])
        #expect(timeline.map(\.id) == [7, 9, 12])
        #expect(timeline.map(\.event.kind) == [.enqueued, .delivered, .acknowledged])
    }
}
