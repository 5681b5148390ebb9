import Dispatch
import Foundation
import GRDB
import Locking
import TestExecutors
import Testing

import AlertQueue
import AlertSpec
@testable import AlertQueueSQLite

/// The event rows a batch's writes stage for its commit (`StagedEvents`): inserted once the last
/// write ran, gone with a write that is undone, and in the table for a write that reads it.
@Suite("SQLite staged events")
struct SQLiteStagedEventsTests {
    struct Refused: Error {}

    private static func event(_ x: Int) -> ItemEvent {
        ItemEvent(
            kind: .enqueued, session: "s", ticket: "t\(x)", at: Date(timeIntervalSince1970: 1_000 + Double(x)),
            detail: ["by": .string("admin")])
    }

    /// A batcher on a fresh database with the `events` table, and `t`, whose write holds the
    /// writer (a row 0 inserted) until released.
    private func heldBatcher() async throws -> (DatabaseQueue, WriteBatcher, Task<Void, any Error>, DispatchSemaphore) {
        let queue = try DatabaseQueue()
        try await queue.write { db in
            try db.execute(sql: "CREATE TABLE t (x INTEGER PRIMARY KEY)")
            try db.execute(
                sql: """
                    CREATE TABLE events (
                        id INTEGER PRIMARY KEY, session TEXT NOT NULL, ticket TEXT NOT NULL, type TEXT NOT NULL,
                        at DOUBLE NOT NULL, detail TEXT NOT NULL)
                    """)
        }
        let batcher = WriteBatcher(writer: queue)
        let holding = Locked(false)
        let release = DispatchSemaphore(value: 0)
        let first = Task(executorPreference: OwnThread()) {
            try await batcher.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (0)")
                holding.withLock { $0 = true }
                _ = release.wait(timeout: .now() + 20)
            }
        }
        let deadline = ContinuousClock.now + .seconds(15)
        while !holding.withLock({ $0 }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        return (queue, batcher, first, release)
    }

    private func waitForBacklog(_ batcher: WriteBatcher, _ count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(15)
        while batcher.backlog < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        #expect(batcher.backlog == count)
    }

    @Test("A batch commits its writes' staged events, as written, but not those of the write that failed", arguments: [false, true])
    func failedWriteTakesItsEvents(changedRowsFirst: Bool) async throws {
        // Given: four writes waiting in one batch, each staging an event; the second fails, having
        // inserted a row (the batch runs again in savepoints) or having changed nothing
        let (queue, batcher, first, release) = try await heldBatcher()
        let waiting = (1...4).map { x in
            Task {
                try await batcher.write { db in
                    batcher.transactionEnd.events.stage(Self.event(x), id: Int64(x))
                    if x == 2, changedRowsFirst { try db.execute(sql: "INSERT INTO t VALUES (2)") }
                    if x == 2 { throw Refused() }
                }
            }
        }
        try await waitForBacklog(batcher, 4)
        // When: the batch runs
        release.signal()
        try await first.value
        var refused: [Int] = []
        for (index, write) in waiting.enumerated() {
            do { try await write.value } catch is Refused { refused.append(index + 1) }
        }
        // Then: the events of the three others are in the table, as staged; the failed one's not
        #expect(refused == [2])
        let rows = try await queue.read { db in
            try Row.fetchAll(db, sql: "SELECT id, session, ticket, type, at, detail FROM events ORDER BY id")
        }
        #expect(rows.map { $0[0] as Int64 } == [1, 3, 4])
        let third = try #require(rows.dropFirst().first)
        #expect(third[1] as String == "s")
        #expect(third[2] as String == "t3")
        #expect(third[3] as String == "enqueued")
        #expect(third[4] as Double == 1_003)
        #expect(third[5] as String == Self.event(3).detailJSON)
        // And: nothing stays staged for the next transaction
        try await batcher.write { db in try db.execute(sql: "INSERT INTO t VALUES (5)") }
        #expect(try await queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM events") } == 3)
    }

    @Test("A write that reads the events sees the batch's earlier ones; undone, it leaves them to the commit")
    func readerInTheBatch() async throws {
        // Given: three writes waiting in one batch: two stage an event; the third writes the
        // staged events, counts the table's, then fails after changing rows (it is undone in its
        // savepoint, and the rows it wrote with it)
        let (queue, batcher, first, release) = try await heldBatcher()
        let order = Locked([Int]())
        let seen = Locked([Int]())
        let waiting = (1...3).map { x in
            Task {
                try await batcher.write { db in
                    if x < 3 {
                        order.withLock { $0.append(x) }
                        batcher.transactionEnd.events.stage(Self.event(x), id: Int64(x))
                        return
                    }
                    try batcher.transactionEnd.events.write(in: db)
                    let ids = try Int.fetchAll(db, sql: "SELECT id FROM events ORDER BY id")
                    seen.withLock { $0 = ids }
                    order.withLock { $0.append(x) }
                    try db.execute(sql: "INSERT INTO t VALUES (3)")
                    throw Refused()
                }
            }
        }
        try await waitForBacklog(batcher, 3)
        // When: the batch runs
        release.signal()
        try await first.value
        try await waiting[0].value
        try await waiting[1].value
        await #expect(throws: Refused.self) { try await waiting[2].value }
        // Then: the reader saw exactly the events staged before it (the batch's order is the
        // writes' arrival, which tasks do not fix), and both events were committed
        let ran = order.withLock { $0 }
        let before = ran.prefix { $0 != 3 }.sorted()
        #expect(seen.withLock { $0 } == before)
        #expect(try await queue.read { db in try Int.fetchAll(db, sql: "SELECT id FROM events ORDER BY id") } == [1, 2])
        #expect(try await queue.read { db in try Int.fetchAll(db, sql: "SELECT x FROM t ORDER BY x") } == [0])
    }

    @Test("A batch of more events than one INSERT takes writes every one, as staged")
    func manyEvents() async throws {
        // Given: one write staging 45 events (INSERTs of 32, 8, 4 and 1 rows), with texts of
        // different lengths
        let (queue, batcher, first, release) = try await heldBatcher()
        release.signal()
        try await first.value
        let events = (1...45).map { (x: Int) -> ItemEvent in
            let kind: ItemEvent.Kind = x % 2 == 0 ? .delivered : .acknowledged
            var detail: [String: ParameterValue] = [:]
            if x % 3 != 0 {
                detail["delivery"] = .integer(x)
                detail["by"] = .string(String(repeating: "é", count: x))
            }
            return ItemEvent(
                kind: kind, session: String(repeating: "s", count: x % 7 + 1), ticket: "ticket-\(x)",
                at: Date(timeIntervalSince1970: Double(x) / 4), detail: detail)
        }
        // When: it commits
        try await batcher.write { _ in
            for (index, event) in events.enumerated() { batcher.transactionEnd.events.stage(event, id: Int64(index + 10)) }
        }
        // Then: each row holds its own event
        let rows = try await queue.read { db in
            try Row.fetchAll(db, sql: "SELECT id, session, ticket, type, at, detail FROM events ORDER BY id")
        }
        #expect(rows.count == 45)
        for (row, (index, event)) in zip(rows, events.enumerated()) {
            #expect(row[0] as Int64 == Int64(index + 10))
            #expect(row[1] as String == event.session)
            #expect(row[2] as String == event.ticket)
            #expect(row[3] as String == event.kind.rawValue)
            #expect(row[4] as Double == event.at.timeIntervalSince1970)
            #expect(row[5] as String == (event.detail.isEmpty ? "{}" : event.detailJSON))
        }
    }
}
