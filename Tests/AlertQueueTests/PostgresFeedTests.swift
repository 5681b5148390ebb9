import AlertQueue
@testable import AlertQueuePostgres
import Foundation
import PostgresNIO
import Testing

/// On PostgreSQL ids are drawn before commit: the feed must not pass an event that commits late.
@Suite(.serialized) struct PostgresFeedTests {
    @Test("An event whose transaction commits late is read after it commits, never skipped")
    func lateCommitIsNotSkipped() async throws {
        // Given: one transaction writes an event and stays open while another enqueue commits
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open()
        let reader = try database.open()
        try await store.migrate()
        let (during, after) = try await store.pool.withConnection { connection in
            try await connection.query("BEGIN", logger: store.logger)
            try await connection.query(
                "INSERT INTO alertd.events (session, ticket, type, at) VALUES ('late', 't-late', 'enqueued', 0)", logger: store.logger)
            _ = try await reader.enqueue(alert("app/a", in: "early"), now: t0)
            // When the feed is read meanwhile, then after the commit
            let during = try await reader.events(after: nil, limit: 10)
            try await connection.query("COMMIT", logger: store.logger)
            let after = try await reader.settledEvents(after: during.next, limit: 10, count: 2)
            return (during, after)
        }
        // Then: nothing passed the open transaction; afterwards both, each once
        #expect(during.events.isEmpty)
        #expect(after.events.map(\.event.session) == ["late", "early"])
    }
}
