import AlertSpec
import Foundation
import Testing

@testable import AlertQueue

/// What is particular to the SQLite store, beyond the shared contract.
@Suite("SQLite queue store")
struct SQLiteQueueStoreTests {
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

    @Test("The file store writes ahead to a WAL file")
    func walMode() async throws {
        // Given
        let directory = FileManager.default.temporaryDirectory.appending(path: "alertd-wal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "queue.sqlite").path
        let store = try SQLiteQueueStore(path: path)
        // When
        _ = try await store.enqueue(alert("app/a"), now: t0)
        // Then
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        try store.close()
        #expect(await !store.isReachable())
    }

    @Test("Opening a file that is not a database fails")
    func notADatabase() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "alertd-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "queue.sqlite").path
        try Data(repeating: 0x41, count: 4096).write(to: URL(filePath: path))
        #expect(throws: (any Error).self) { _ = try SQLiteQueueStore(path: path) }
    }

    @Test("Tickets are 22 URL-safe characters from 16 bytes")
    func tickets() {
        #expect(QueueTicket.make(from: Array(repeating: 0xFF, count: 16)) == "_____________________w")
        #expect(QueueTicket.make(from: Array(repeating: 0xFB, count: 16)) == "-_v7-_v7-_v7-_v7-_v7-w")
        let tickets = (0..<100).map { _ in QueueTicket.random() }
        #expect(Set(tickets).count == 100)
        #expect(tickets.allSatisfy(QueueTicket.isWellFormed))
        #expect(!QueueTicket.isWellFormed("short"))
        #expect(!QueueTicket.isWellFormed("AAAAAAAAAAAAAAAAAAAA+/"))
    }
}
