import AlertQueue
import AlertQueueSQLite
import AlertServer
import Foundation
import Locking
import TestExecutors
import Testing

/// `SeenSessions` on its own: times gathered in memory, the later one kept, written in one
/// batch by a flush or by the loop, and kept for the next flush when the store fails.
@Suite("Seen sessions")
struct SeenSessionsTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a flush writes the latest time of each session seen since the last, once")
    func flushWritesLatest() async throws {
        // Given
        let store = try SQLiteQueueStore.inMemory()
        let seen = SeenSessions(directory: store)
        seen.saw("a", at: t0.addingTimeInterval(5))
        seen.saw("a", at: t0)
        seen.saw("b", at: t0)
        // Then, before the flush, the times are known here only
        #expect(seen.lastSeen("a", stored: t0) == t0.addingTimeInterval(5))
        #expect(try await store.knownSession("a") == nil)
        // When
        #expect(try await seen.flush() == 2)
        // Then
        #expect(try await store.knownSession("a")?.lastSeen == t0.addingTimeInterval(5))
        #expect(try await store.knownSession("b")?.lastSeen == t0)
        #expect(try await seen.flush() == 0)
    }

    @Test("the loop flushes every interval until cancelled")
    func loopFlushes() async throws {
        let store = try SQLiteQueueStore.inMemory()
        let seen = SeenSessions(directory: store, interval: .milliseconds(10))
        // On a thread of its own: the whole suite's blocking clients may hold every thread of the pool
        let task = Task(executorPreference: OwnThread()) { await seen.run() }
        seen.saw("a", at: t0)
        // A bounded wait for the next flush (usually one interval; at most 30 s on a crowded machine)
        let deadline = ContinuousClock.now + .seconds(30)
        while try await store.knownSession("a") == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        task.cancel()
        await task.value
        #expect(try await store.knownSession("a")?.lastSeen == t0)
    }

    @Test("times a failed flush could not write are kept for the next")
    func failedFlushKeeps() async throws {
        let store = FailingDirectory()
        let seen = SeenSessions(directory: store)
        seen.saw("a", at: t0)
        await #expect(throws: QueueError.self) { try await seen.flush() }
        #expect(seen.lastSeen("a", stored: .distantPast) == t0)
        store.failing.withLock { $0 = false }
        #expect(try await seen.flush() == 1)
        #expect(store.written.withLock { $0 } == [["a": t0]])
    }
}

/// A directory whose `markSeen` fails while `failing`, and records what it wrote otherwise.
private final class FailingDirectory: SessionDirectory {
    let failing = Locked(true)
    let written = Locked<[[String: Date]]>([])

    func markSeen(_ times: [String: Date]) async throws {
        if failing.withLock({ $0 }) { throw QueueError.unavailable("test") }
        written.withLock { $0.append(times) }
    }

    func register(session: String, user: String?, topics: [String]?, now: Date) async throws -> KnownSession { fatalError() }
    func setUser(session: String, user: String?, now: Date) async throws -> KnownSession { fatalError() }
    func setTopics(session: String, topics: [String], now: Date) async throws -> KnownSession { fatalError() }
    func knownSession(_ session: String) async throws -> KnownSession? { nil }
    func sessions(ofUser user: String) async throws -> [KnownSession] { [] }
    func idleSessions(seenBefore cutoff: Date, limit: Int) async throws -> [String] { [] }
    func forget(session: String, seenBefore cutoff: Date) async throws -> Erasure? { nil }
}
