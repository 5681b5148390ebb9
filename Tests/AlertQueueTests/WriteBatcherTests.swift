import Dispatch
import Foundation
import GRDB
import Locking
import TestExecutors
import Testing

import AlertQueue
@testable import AlertQueueSQLite
import TestClocks

/// The group commit under the SQLite store: writes that wait share one transaction, and one that
/// fails undoes only itself.
@Suite("Write batcher")
struct WriteBatcherTests {
    struct Refused: Error {}

    @Test(
        "Writes that waited for a running one commit together, and the one that throws is undone alone",
        arguments: [false, true])
    func failedWriteUndoneAlone(changedRowsFirst: Bool) async throws {
        // Given: a write that holds the writer until four more wait for it
        let queue = try DatabaseQueue()
        let batcher = WriteBatcher(writer: queue)
        let (first, release) = try await holdWriter(batcher, queue)
        let deadline = ContinuousClock.now + .seconds(15)
        // When: the waiting writes run as one batch, and the second throws, after its insert or
        // before it
        let runs = Locked([Int]())
        let waiting = (1...4).map { x in
            Task {
                try await batcher.write { db in
                    runs.withLock { $0.append(x) }
                    if x == 2, !changedRowsFirst { throw Refused() }
                    try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [x])
                    if x == 2 { throw Refused() }
                }
            }
        }
        while batcher.backlog < 4, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        #expect(batcher.backlog == 4)
        release.signal()
        try await first.value
        var refused: [Int] = []
        for (index, write) in waiting.enumerated() {
            do { try await write.value } catch is Refused { refused.append(index + 1) }
        }
        // Then: only its insert is missing. A write that failed having changed nothing needed no
        // undoing; one that had changed rows made the batch run again, each write in a savepoint.
        #expect(refused == [2])
        let rows = try await queue.read { db in try Int.fetchAll(db, sql: "SELECT x FROM t ORDER BY x") }
        #expect(rows == [0, 1, 3, 4])
        #expect(batcher.backlog == 0)
        // (The batch runs its writes in the order they arrived, which tasks do not fix.)
        let ran = runs.withLock { $0 }
        if changedRowsFirst {
            let stopped = try #require(ran.firstIndex(of: 2))
            let again = Array(ran[(stopped + 1)...])
            #expect(again.sorted() == [1, 2, 3, 4])
            #expect(Array(ran[...stopped]) == Array(again.prefix(stopped + 1)))
        } else {
            #expect(ran.sorted() == [1, 2, 3, 4])
        }
    }

    /// Creates table `t` and starts a write that inserts 0 and holds the writer until `release`
    /// is signalled, so that the writes started meanwhile wait and run as one batch.
    private func holdWriter(_ batcher: WriteBatcher, _ queue: DatabaseQueue) async throws -> (Task<Void, any Error>, DispatchSemaphore) {
        try await queue.write { db in try db.execute(sql: "CREATE TABLE t (x INTEGER PRIMARY KEY)") }
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
        return (first, release)
    }

    /// A WAL-mode file whose writer flushes every commit (FULL), with a table `t`; and its removal.
    static func flushingFile() async throws -> (DatabasePool, @Sendable () -> Void) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let pool = try DatabasePool(path: folder.appendingPathComponent("db.sqlite").path)
        try await pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "CREATE TABLE t (x INTEGER PRIMARY KEY)")
        }
        return (pool, { try? FileManager.default.removeItem(at: folder) })
    }

    @Test("A background write runs after the live writes that waited with it, alone, and commits without a flush")
    func backgroundWriteGivesWay() async throws {
        // Given: a file's writer that flushes every commit (FULL), held; a background write
        // waiting, then three live writes
        let (pool, remove) = try await Self.flushingFile()
        defer { remove() }
        let batcher = WriteBatcher(writer: pool)
        let holding = Locked(false)
        let release = DispatchSemaphore(value: 0)
        let first = Task(executorPreference: OwnThread()) {
            try await batcher.write { _ in
                holding.withLock { $0 = true }
                _ = release.wait(timeout: .now() + 20)
            }
        }
        let deadline = ContinuousClock.now + .seconds(15)
        while !holding.withLock({ $0 }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        // Each write notes its value and the connection's `synchronous` (which SQLite keeps for
        // a whole transaction).
        let runs = Locked([(x: Int, synchronous: Int)]())
        let note: @Sendable (Int, Database) throws -> Void = { x, db in
            let synchronous = try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [x])
            runs.withLock { $0.append((x, synchronous)) }
        }
        let background = Task { try await batcher.writeInBackground { db in try note(0, db) } }
        try await Task.sleep(for: .milliseconds(50))
        let live = (1...3).map { x in Task { try await batcher.write { db in try note(x, db) } } }
        while batcher.backlog < 3, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        // When: the writer is free
        release.signal()
        try await first.value
        try await background.value
        for write in live { try await write.value }
        // Then: the live writes ran first, flushed (FULL is 2); the background one after them,
        // in a transaction of its own, unflushed (NORMAL is 1); and the next live write flushes
        let ran = runs.withLock { $0 }
        #expect(ran.map(\.x).sorted() == [0, 1, 2, 3])
        #expect(ran.last?.x == 0)
        #expect(ran.last?.synchronous == 1)
        #expect(ran.dropLast().allSatisfy { $0.synchronous == 2 })
        try await batcher.write { db in try note(4, db) }
        #expect(runs.withLock { $0.last?.synchronous } == 2)
    }

    @Test("Every background write commits without a flush, and every live write between them with one")
    func backgroundWritesInTurn() async throws {
        // Given: a file's writer that flushes every commit (FULL)
        let (pool, remove) = try await Self.flushingFile()
        defer { remove() }
        let batcher = WriteBatcher(writer: pool)
        // When: background writes one after the other, then live and background writes in turn
        let level: @Sendable (Int, Database) throws -> Int = { x, db in
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [x])
            return try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1
        }
        var background: [Int] = []
        var live: [Int] = []
        for x in 0..<4 { background.append(try await batcher.writeInBackground { db in try level(x, db) }) }
        for x in 4..<8 {
            live.append(try await batcher.write { db in try level(x * 2, db) })
            background.append(try await batcher.writeInBackground { db in try level(x * 2 + 1, db) })
        }
        // Then: each background write ran at NORMAL (1), each live one at FULL (2)
        #expect(background == Array(repeating: 1, count: 8))
        #expect(live == Array(repeating: 2, count: 4))
    }

    @Test("A write after SQLite ended the batch's transaction fails the batch, and nothing of it commits")
    func transactionEndedUnderTheBatch() async throws {
        // Given: three writes waiting for the writer, the first of which ends the transaction as
        // SQLite does by itself after some errors (a full disk, an I/O error), and throws
        let queue = try DatabaseQueue()
        let batcher = WriteBatcher(writer: queue)
        let (first, release) = try await holdWriter(batcher, queue)
        let waiting = (1...3).map { x in
            Task {
                try await batcher.write { db in
                    if x == 1 {
                        try db.execute(sql: "ROLLBACK")
                        throw Refused()
                    }
                    try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [x])
                }
            }
        }
        let deadline = ContinuousClock.now + .seconds(15)
        while batcher.backlog < 3, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        #expect(batcher.backlog == 3)
        // When: the batch runs
        release.signal()
        try await first.value
        // Then: no write ran outside the transaction: each is answered with a failure, and only
        // the row committed before the batch is there
        var failures = 0
        for write in waiting {
            do { try await write.value } catch { failures += 1 }
        }
        #expect(failures == 3)
        let rows = try await queue.read { db in try Int.fetchAll(db, sql: "SELECT x FROM t ORDER BY x") }
        #expect(rows == [0])
        // And the writer goes on
        try await batcher.write { db in try db.execute(sql: "INSERT INTO t VALUES (9)") }
        #expect(try await queue.read { db in try Int.fetchAll(db, sql: "SELECT x FROM t ORDER BY x") } == [0, 9])
    }

    @Test("A write that throws alone leaves nothing behind, and the next write runs")
    func failedWriteAlone() async throws {
        let queue = try DatabaseQueue()
        try await queue.write { db in try db.execute(sql: "CREATE TABLE t (x INTEGER PRIMARY KEY)") }
        let batcher = WriteBatcher(writer: queue)
        await #expect(throws: Refused.self) {
            try await batcher.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                throw Refused()
            }
        }
        try await batcher.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(try await queue.read { db in try Int.fetchAll(db, sql: "SELECT x FROM t") } == [2])
    }

    @Test("No write runs on its caller's thread, not even when the writer is idle")
    func neverOnTheCallersThread() async throws {
        let queue = try DatabaseQueue()
        let batcher = WriteBatcher(writer: queue)
        let threads = try await Task(executorPreference: OwnThread()) {
            (caller: pthread_self(), writer: try await batcher.write { _ in pthread_self() })
        }.value
        #expect(pthread_equal(threads.caller, threads.writer) == 0)
    }

    @Test("Past the timeout, a waiting write is answered 'timeout' and never written; the stalled one is answered too")
    func writesPastTheTimeout() async throws {
        // Given: a writer held by a write (a stalled commit), and a write waiting behind it
        let clock = ManualClock()
        let queue = try DatabaseQueue()
        let batcher = WriteBatcher(writer: queue, clock: clock, timeout: .seconds(5))
        let (first, release) = try await holdWriter(batcher, queue)
        let waiting = Task { try await batcher.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") } }
        let deadline = ContinuousClock.now + .seconds(15)
        while batcher.backlog < 1, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        #expect(batcher.stalledSince == nil)
        // When: the timeout passes
        clock.advance(by: 5)
        // Then: both are answered with a timeout at once, the writer still held; readiness sees
        // the stall
        for write in [first, waiting] {
            await #expect { try await write.value } throws: { ($0 as? QueueError)?.storeFailure == .timeout }
        }
        #expect(batcher.backlog == 0)
        #expect(batcher.stalledSince != nil)
        // And once the writer is free, the held write commits (its answer had gone out), the
        // waiting one never does, and the writer goes on
        release.signal()
        try await batcher.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(try await queue.read { db in try Int.fetchAll(db, sql: "SELECT x FROM t ORDER BY x") } == [0, 2])
        #expect(batcher.stalledSince == nil)
    }

    @Test("A check after the commit that fails answers every write of the batch with its error")
    func verifiedAfterCommit() async throws {
        struct Moved: Error {}
        let queue = try DatabaseQueue()
        try await queue.write { db in try db.execute(sql: "CREATE TABLE t (x INTEGER PRIMARY KEY)") }
        let moved = Locked(false)
        let batcher = WriteBatcher(writer: queue) { moved.withLock { $0 } ? Moved() : nil }
        try await batcher.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        moved.withLock { $0 = true }
        await #expect(throws: Moved.self) { try await batcher.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") } }
    }

    @Test("A batch whose transaction cannot begin answers every one of its writes")
    func batchThatCannotBegin() async throws {
        // Given: a closed database, where no transaction begins
        let queue = try DatabaseQueue()
        let batcher = WriteBatcher(writer: queue)
        try queue.close()
        // When: writes that wait for the writer, as enqueues do (in tasks left to themselves, so
        // that a write never answered fails the test below instead of hanging it; on a thread of
        // their own, as Swift's shared pool may be kept busy by tests running beside this one)
        let answers = Locked<[Result<Void, any Error>]>([])
        for _ in 0..<3 {
            Task(executorPreference: OwnThread()) {
                let answer: Result<Void, any Error>
                do {
                    answer = .success(try await batcher.write { _ in })
                } catch {
                    answer = .failure(error)
                }
                answers.withLock { $0.append(answer) }
            }
        }
        // Then: each is answered with the database's error, none is left waiting
        let deadline = ContinuousClock.now + .seconds(20)
        while answers.withLock({ $0.count }) < 3, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        let answered = answers.withLock { $0 }
        #expect(answered.count == 3)
        #expect(answered.allSatisfy { if case .failure(let error) = $0 { error is DatabaseError } else { false } })
        #expect(batcher.backlog == 0)
    }
}

/// Commits flushed off the writer's thread (`WALSync`).
@Suite("Write batcher: flushes off the writer")
struct WriteBatcherSyncTests {
    /// A WAL-mode file with a table `t`, and a batcher whose flushes go through `flush`.
    private func batcher(flush: @escaping @Sendable (Int32) -> Int32) throws -> (WriteBatcher, DatabasePool, () -> Void) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("db.sqlite").path
        let pool = try DatabasePool(path: path)
        try pool.write { db in try db.execute(sql: "CREATE TABLE t (x INTEGER PRIMARY KEY)") }
        let batcher = WriteBatcher(writer: pool, sync: WALSync(databasePath: path, flush: flush))
        return (batcher, pool, { try? FileManager.default.removeItem(at: folder) })
    }

    @Test("A live write is answered once a flush after its commit ended; meanwhile the writer commits the next ones")
    func answeredAfterFlush() async throws {
        // Given: flushes held until released
        let release = DispatchSemaphore(value: 0)
        let flushes = Locked(0)
        let (batcher, pool, remove) = try batcher { _ in
            flushes.withLock { $0 += 1 }
            _ = release.wait(timeout: .now() + 20)
            return 0
        }
        defer { remove() }
        let answered = Locked<[Int]>([])
        // When: a live write commits, its flush held; then a background write and another live one
        let first = Task { try await batcher.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }; answered.withLock { $0.append(1) } }
        let deadline = ContinuousClock.now + .seconds(15)
        while flushes.withLock({ $0 }) == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        try await batcher.writeInBackground { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        let second = Task { try await batcher.write { db in try db.execute(sql: "INSERT INTO t VALUES (3)") }; answered.withLock { $0.append(3) } }
        while try await pool.read({ db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") }) ?? 0 < 3, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(2))
        }
        // Then: all three committed, the background one answered, the live ones not before their flushes
        #expect(answered.withLock { $0 }.isEmpty)
        release.signal()
        try await first.value
        release.signal()
        try await second.value
        #expect(answered.withLock { $0 }.sorted() == [1, 3])
        #expect(flushes.withLock { $0 } == 2)
    }

    @Test("A failed flush fails the live writes it covers, with an I/O error; background writes are answered at their commit")
    func failedFlushFailsWrites() async throws {
        let (batcher, _, remove) = try batcher { _ in -1 }
        defer { remove() }
        try await batcher.writeInBackground { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        await #expect {
            try await batcher.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        } throws: { error in
            (error as? QueueError)?.storeFailure == .ioError
        }
    }
}
