import AlertSpec
import Foundation
import GRDB
import TestClocks
import Testing

import AlertQueue
@testable import AlertQueueSQLite

/// What a large purge leaves of a SQLite file: a WAL cut back to its limit, free pages handed
/// back to the file system (new files), or kept for new rows (files made before).
@Suite("SQLite retention")
struct SQLiteRetentionTests {
    @Test("After a large purge the WAL is cut back to its limit and the free pages go back to the file system")
    func purgeGivesBackRoom() async throws {
        // Given: a new file whose WAL is checkpointed from 10 pages, started again past 40 and cut
        // back to 64 KiB; 800 items of a KiB each, cancelled, then checkpointed
        let (path, remove) = try temporaryDatabasePath()
        defer { remove() }
        let clock = ManualClock()
        let limit = 64 << 10
        let store = try SQLiteQueueStore(
            path: path, settings: QueueSettings(maxQueueLength: 10), durability: .process, clock: clock, minimumFrames: 10,
            restartFrames: 40, journalSizeLimit: limit, vacuumPages: 100_000)
        defer { try? store.close() }
        #expect(try Self.pragma("auto_vacuum", path) == 2)  // INCREMENTAL
        let padding = String(repeating: "x", count: 1_000)
        for index in 0..<800 {
            let item = alert("app/a", in: "s\(index)", parameters: ["text": .string(padding)])
            let ticket = try await store.enqueue(item, now: t0).item.ticket
            _ = try await store.cancel(session: "s\(index)", ticket: ticket, now: at(1))
        }
        let grown = try Self.size(path + "-wal")
        try await Self.settle(store, clock)
        let pagesBefore = try Self.pragma("page_count", path)
        #expect(grown > 4 * limit)
        #expect(try Self.size(path + "-wal") <= limit, "WAL of \(grown) bytes before")

        // When: every item is purged
        let purged = try await store.purgeAll(finishedBefore: at(100), limit: 500)
        try await Self.settle(store, clock)

        // Then: the WAL is back within its limit, and the file shrank by the pages freed
        #expect(purged.items == 800 && purged.events == 1_600)
        #expect(try Self.size(path + "-wal") <= limit)
        #expect(try Self.pragma("freelist_count", path) == 0)
        #expect(try Self.pragma("page_count", path) < pagesBefore / 2, "\(pagesBefore) pages before")
    }

    @Test("A file made without auto-vacuum keeps it, and its purges keep the free pages for new rows")
    func existingFileKeepsItsVacuumMode() async throws {
        // Given: a file that already held a table before the store first opened it
        let (path, remove) = try temporaryDatabasePath()
        defer { remove() }
        let old = try DatabaseQueue(path: path)
        try await old.write { db in try db.execute(sql: "CREATE TABLE earlier (x)") }
        try old.close()
        let store = try SQLiteQueueStore(path: path, settings: QueueSettings(), durability: .process)
        defer { try? store.close() }
        for index in 0..<200 {
            let ticket = try await store.enqueue(alert("app/a", in: "s\(index)"), now: t0).item.ticket
            _ = try await store.cancel(session: "s\(index)", ticket: ticket, now: at(1))
        }
        // When
        let purged = try await store.purgeAll(finishedBefore: at(100))
        // Then: nothing failed, and the mode is as it was
        #expect(purged.items == 200)
        #expect(try Self.pragma("auto_vacuum", path) == 0)
    }

    /// Runs checkpoints, then two writes: the first catches the WAL up and starts it again, and
    /// its commit cuts the file back (`journal_size_limit`).
    private static func settle(_ store: SQLiteQueueStore, _ clock: ManualClock) async throws {
        for _ in 0..<2 {
            clock.advance(by: 0.1)
            try await store.hold(session: "settle", until: at(1))
        }
    }

    private static func pragma(_ name: String, _ path: String) throws -> Int {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA \(name)") ?? -1 }
    }

    private static func size(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    }
}
