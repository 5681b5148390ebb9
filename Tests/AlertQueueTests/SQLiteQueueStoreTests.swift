import AlertSpec
import Foundation
import GRDB
import TestClocks
import TestExecutors
import Testing

import AlertQueue
@testable import AlertQueueSQLite

/// What is particular to the SQLite store, beyond the shared contract.
@Suite("SQLite queue store")
struct SQLiteQueueStoreTests {
    @Test(
        "A file store's writer commits without a flush; with durability full the WAL is flushed off its thread",
        arguments: [(SQLiteDurability.full, 1), (.process, 1)])
    func writerKeepsItsDurability(_ durability: SQLiteDurability, synchronous: Int) async throws {
        // Given a file store (GRDB turns WAL on after the configuration's own setup)
        let (path, remove) = try temporaryDatabasePath()
        defer { remove() }
        let store = try SQLiteQueueStore(path: path, durability: durability)
        defer { try? store.close() }
        // When
        let level = try await store.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        // Then: 1 is NORMAL
        #expect(level == synchronous)
        #expect((store.sync != nil) == (durability == .full))
    }

    @Test("A file store keeps statement journals in memory, on the writer and its readers")
    func statementJournalsInMemory() async throws {
        let (path, remove) = try temporaryDatabasePath()
        defer { remove() }
        let store = try SQLiteQueueStore(path: path)
        defer { try? store.close() }
        // 2 is MEMORY: a statement's journal past 64 KiB would otherwise spill to a file
        #expect(try await store.write { db in try Int.fetchOne(db, sql: "PRAGMA temp_store") } == 2)
        #expect(try await store.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA temp_store") } == 2)
    }

    @Test("When an enqueue misses a live duplicate, the unique index catches it and the live item is returned")
    func uniqueIndexCatchesDuplicate() async throws {
        // Given
        let store = try SQLiteQueueStore.inMemory()
        let first = try await store.enqueue(alert("app/a", key: "k"), now: t0)
        // When: an enqueue that does not see the live items, as a racing writer would not
        let blind = try await store.enqueueUnseen(alert("app/b", key: "k"), now: at(1))
        // Then
        #expect(!blind.created)
        #expect(blind.item == first.item)
        #expect(try await store.items(session: session, now: at(1)).map(\.ticket) == [first.item.ticket])
    }

    @Test("When an enqueue misses nothing, the blind path still queues a new key")
    func blindEnqueueOfNewKey() async throws {
        let store = try SQLiteQueueStore.inMemory()
        let result = try await store.enqueueUnseen(alert("app/a"), now: t0)
        #expect(result.created)
        #expect(try await store.items(session: session, now: t0).count == 1)
    }

    @Test("An enqueue a poll waits for is delivered in its own step, committed with it")
    func enqueueDeliversInItsStep() async throws {
        // Given
        let (path, remove) = try temporaryDatabasePath()
        defer { remove() }
        let store = try SQLiteQueueStore(path: path)
        // When: an enqueue into an empty session, for a waiting poll
        let (enqueued, delivered) = try await store.enqueueAndTakeNext(alert("app/a"), now: t0)
        try store.close()
        // Then: the step itself delivered the new item (no `next` was asked), and a store opened
        // again on the file finds it presenting, delivered once
        #expect(delivered?.ticket == enqueued.item.ticket)
        let reopened = try SQLiteQueueStore(path: path)
        defer { try? reopened.close() }
        let stored = try await reopened.item(session: session, ticket: enqueued.item.ticket)
        #expect(stored?.state == .presenting)
        #expect(stored?.deliveries == 1)
        #expect(stored == delivered)
    }

    @Test("When an enqueue a poll waits for misses a live duplicate, it delivers nothing, and the live item stays as it was")
    func uniqueIndexCatchesDuplicateOfDeliveringEnqueue() async throws {
        // Given: a modal presenting, and a modal with key k queued behind it
        let store = try SQLiteQueueStore.inMemory()
        _ = try await store.enqueue(alert("app/one"), now: t0)
        let one = try #require(try await store.next(session: session, now: t0))
        let queued = try await store.enqueue(alert("app/k-toast-first", lane: .toast, key: "k"), now: at(1))
        _ = try #require(try await store.next(session: session, now: at(1)))
        let behind = try await store.enqueue(alert("app/two", key: "k2"), now: at(2))
        // When: a toast with key k that does not see the live items: its first try would deliver
        // it (nothing loaded is presenting), but its insert breaks the unique index
        let (blind, delivered) = try await store.enqueueAndTakeNextUnseen(alert("app/k-toast-again", lane: .toast, key: "k"), now: at(3))
        // Then: the live item is returned as the duplicate, nothing is delivered, nothing changed
        #expect(!blind.created)
        #expect(blind.item.ticket == queued.item.ticket)
        #expect(delivered == nil)
        let listed = try await store.items(session: session, now: at(3))
        #expect(listed.map(\.ticket) == [one.ticket, queued.item.ticket, behind.item.ticket])
        #expect(listed.map(\.state) == [.presenting, .presenting, .queued])
    }

    @Test("Enqueues through two stores on one file, in turn, are delivered in the order they came")
    func sequencesAcrossStores() async throws {
        // Given: two stores on one file
        let (path, remove) = try temporaryDatabasePath()
        defer { remove() }
        let stores = [try SQLiteQueueStore(path: path), try SQLiteQueueStore(path: path)]
        defer { for store in stores { try? store.close() } }
        // When: the stores take turns, two enqueues each
        var tickets: [String] = []
        for (index, turn) in [0, 1, 1, 0, 0, 1, 1, 0].enumerated() {
            tickets.append(try await stores[turn].enqueue(alert("app/a\(index)"), now: at(Double(index))).item.ticket)
        }
        // Then: the listing, in delivery order, is the enqueue order, and the sequences increase
        let listed = try await stores[0].items(session: session, now: at(8))
        #expect(listed.map(\.ticket) == tickets)
        #expect(listed.map(\.sequence) == listed.map(\.sequence).sorted())
        #expect(Set(listed.map(\.sequence)).count == 8)
    }

    @Test("Enqueues that share a batch take distinct sequences, and a later enqueue comes after them all")
    func sequencesWithinBatches() async throws {
        // Given
        let (path, remove) = try temporaryDatabasePath()
        defer { remove() }
        let store = try SQLiteQueueStore(path: path)
        defer { try? store.close() }
        // When: 64 enqueues at once (they share batches), then one more
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<64 {
                group.addTask { _ = try await store.enqueue(alert("app/a", in: "s\(index)"), now: t0) }
            }
            try await group.waitForAll()
        }
        let last = try await store.enqueue(alert("app/a", in: "s0", key: "last"), now: at(1))
        // Then
        var sequences: [Int64] = []
        for index in 0..<64 {
            sequences += try await store.items(session: "s\(index)", now: at(1)).map(\.sequence)
        }
        #expect(Set(sequences).count == 65)
        #expect(last.item.sequence == sequences.max())
    }

    @Test("The file store writes ahead to a WAL file")
    func walMode() async throws {
        // Given
        let (path, remove) = try temporaryDatabasePath()
        defer { remove() }
        let store = try SQLiteQueueStore(path: path)
        // When
        _ = try await store.enqueue(alert("app/a"), now: t0)
        // Then
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        try store.close()
        #expect(await !store.isReachable())
    }

    @Test("A closed store removes its WAL, and answers a late write or read with unavailable, not a crash")
    func closedStore() async throws {
        // Given a file store with a reader open, as a poll leaves one
        let (path, remove) = try temporaryDatabasePath()
        defer { remove() }
        let store = try SQLiteQueueStore(path: path)
        _ = try await store.enqueue(alert("app/a"), now: t0)
        _ = try await store.snapshot(session: "s", now: t0, finished: 0)
        // When it closes
        try store.close()
        // Then the file stands alone
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        // and what comes late is refused as a store that cannot be reached
        for (name, late) in [
            ("enqueue", { _ = try await store.enqueue(alert("app/b"), now: t0) }),
            ("next", { _ = try await store.next(session: "s", now: t0) }),
            ("snapshot", { _ = try await store.snapshot(session: "s", now: t0, finished: 0) }),
        ] as [(String, () async throws -> Void)] {
            let error = await #expect(throws: QueueError.self, "\(name)") { try await late() }
            #expect(error?.kind == .unavailable, "\(name): \(String(describing: error))")
        }
    }

    @Test("Commits leave the WAL alone; a background checkpoint moves its pages into the file")
    func backgroundCheckpoint() async throws {
        // Given: a file store that checkpoints from 50 pages, its migrations committed to the WAL
        let (path, remove) = try temporaryDatabasePath()
        defer { remove() }
        let clock = ManualClock()
        let store = try SQLiteQueueStore(path: path, settings: QueueSettings(), clock: clock, minimumFrames: 50)
        defer { try? store.close() }
        let before = try Self.size(path)
        // When: far fewer pages than SQLite's own checkpoint would wait for (1,000)
        for index in 0..<100 {
            _ = try await store.enqueue(alert("app/a", in: "session-\(index)"), now: t0)
        }
        // Then: the commits left the file alone
        #expect(try Self.size(path) == before)
        // And the next checkpoint interval moves the pages into the file
        clock.advance(by: 0.1)
        #expect(try Self.size(path) > before)
        #expect(try await store.items(session: "session-99", now: t0).count == 1)
    }

    @Test("A WAL of few pages is not checkpointed, so a light load's commits never wait for it to start again")
    func fewPagesStayInTheWAL() async throws {
        // Given: a file store with the default threshold (4,096 pages)
        let (path, remove) = try temporaryDatabasePath()
        defer { remove() }
        let clock = ManualClock()
        let store = try SQLiteQueueStore(path: path, clock: clock)
        defer { try? store.close() }
        _ = try await store.enqueue(alert("app/a", in: "first"), now: t0)
        let (size, round) = (try Self.size(path), try Self.walRound(path))
        // When: a few writes, each followed by a checkpoint interval (100 ms)
        for index in 0..<5 {
            _ = try await store.enqueue(alert("app/a", in: "session-\(index)"), now: t0)
            clock.advance(by: 0.1)
        }
        clock.advance(by: 0.3)
        // Then: nothing was copied into the file, and the WAL never started again (each start
        // makes its next commit sync the new WAL header to disk)
        #expect(try Self.size(path) == size)
        #expect(try Self.walRound(path) == round)
        #expect(try await store.items(session: "session-4", now: t0).count == 1)
    }

    @Test("Past its limit, the WAL starts again from its beginning, however steady the writes")
    func walStartsAgain() async throws {
        // Given: a store whose WAL should start again past 40 pages
        let (path, remove) = try temporaryDatabasePath()
        defer { remove() }
        let store = try SQLiteQueueStore(path: path, settings: QueueSettings(), minimumFrames: 10, restartFrames: 40)
        defer { try? store.close() }
        _ = try await store.enqueue(alert("app/a", in: "first"), now: t0)
        let firstRound = try Self.walRound(path)
        // When: writes that never pause for three seconds (on a thread of their own: each
        // enqueue waits for the writer's thread and resumes on its caller's executor, and Swift's
        // shared pool may be kept busy by tests running beside this one)
        let index = try await Task(executorPreference: OwnThread()) {
            let end = ContinuousClock.now + .seconds(3)
            var index = 0
            while ContinuousClock.now < end {
                _ = try await store.enqueue(alert("app/a", in: "session-\(index)"), now: t0)
                index += 1
            }
            return index
        }.value
        // Then: the WAL started again (its header counts the rounds); a passive checkpoint
        // alone never lets it, as writes keep appending while it copies
        #expect(try Self.walRound(path) > firstRound, "after \(index) enqueues")
        #expect(try await store.items(session: "session-\(index - 1)", now: t0).count == 1)
    }

    /// The WAL header's checkpoint sequence number (bytes 12-15, big-endian): one more each
    /// time the WAL starts again from its beginning.
    private static func walRound(_ path: String) throws -> UInt32 {
        let header = try Data(contentsOf: URL(filePath: path + "-wal")).prefix(16)
        return header.suffix(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func size(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    }

    @Test("Opening a file that is not a database fails")
    func notADatabase() throws {
        let (path, remove) = try temporaryDatabasePath()
        defer { remove() }
        try Data(repeating: 0x41, count: 4096).write(to: URL(filePath: path))
        #expect(throws: (any Error).self) { _ = try SQLiteQueueStore(path: path) }
    }
}
