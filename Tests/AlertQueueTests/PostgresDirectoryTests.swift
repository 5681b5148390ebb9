import Foundation
import Testing

@testable import AlertQueue
@testable import AlertQueuePostgres

/// The session registry with several instances on one PostgreSQL database: flushes of seen
/// times that race, each instance's times in its own order, end with each session's latest.
@Suite("PostgreSQL session registry")
struct PostgresDirectoryTests {
    @Test("Three instances flushing the same sessions at once, in any order, leave each session's latest time")
    func racingFlushesKeepTheLatest() async throws {
        // Given three instances, each having seen the same 50 sessions at different times
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let stores = try (0..<3).map { _ in try database.open() }
        let sessions = (0..<50).map { "s\($0)" }
        let batches: [[String: Date]] = (0..<3).map { instance in
            Dictionary(uniqueKeysWithValues: sessions.enumerated().map { index, session in
                (session, at(Double((index + instance * 17) % 3)))  // each instance latest for a third
            })
        }
        // When they all flush at once, twice
        try await withThrowingTaskGroup(of: Void.self) { group in
            for round in 0..<2 {
                for (store, batch) in zip(stores, batches) {
                    group.addTask { try await store.markSeen(round == 0 ? batch : batch.mapValues { $0.addingTimeInterval(-1) }) }
                }
            }
            try await group.waitForAll()
        }
        // Then every session holds the latest time any instance saw
        for (index, session) in sessions.enumerated() {
            let latest = batches.map { $0[session]! }.max()
            #expect(try await stores[index % 3].knownSession(session)?.lastSeen == latest, "\(session)")
        }
        #expect(try await stores[0].idleSessions(seenBefore: at(3), limit: 100).count == 50)
    }
}
