import Foundation
import PostgresNIO
import Testing

@testable import AlertQueuePostgres

/// The store's connection pool: every connection kept open, and idle ones pinged.
@Suite("PostgreSQL queue store pool")
struct PostgresPoolTests {
    @Test("Every connection of the pool is opened and pinged every keep-alive interval")
    func idleConnectionsArePinged() async throws {
        // Given: a store with three connections, pinged every second, and nothing to do
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        var options = PostgresTestDatabase.patient
        options.maximumConnections = 3
        options.minimumConnections = 3
        options.keepAliveInterval = .seconds(1)
        let store = try database.open(options: options)
        try await store.migrate()
        let observer = try await PostgresConnection.connect(
            configuration: store.endpoint.connectionConfiguration(), id: 9_998, logger: store.logger)
        defer { Task { try? await observer.close() } }
        // When: a few intervals pass; then all three connections' last statement is the ping,
        // and the pings go on (`pinged`: how many of the pool's connections last ran the ping,
        // and when the latest began)
        let pinged: PostgresQuery = """
            SELECT count(*)::int, coalesce(max(extract(epoch FROM query_start)), 0)::float8 FROM pg_stat_activity
            WHERE datname = current_database() AND application_name = 'alertd' AND query = 'SELECT 1'
            """
        func pings() async throws -> (count: Int, last: Double) {
            try await Task.sleep(for: .milliseconds(200))
            var seen = (count: 0, last: 0.0)
            for try await row in try await observer.query(pinged, logger: store.logger).decode((Int, Double).self) {
                seen = (row.0, row.1)
            }
            return seen
        }
        var seen = try await pings()
        for _ in 0..<100 where seen.count < 3 { seen = try await pings() }
        #expect(seen.count == 3)
        var later = try await pings().last
        for _ in 0..<50 where later <= seen.last { later = try await pings().last }
        #expect(later > seen.last)
    }
}
