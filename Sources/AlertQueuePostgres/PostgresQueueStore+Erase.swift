import AlertQueue
import PostgresNIO

extension PostgresQueueStore {
    /// One transaction: the session's row is locked first (writes of the session wait behind
    /// it), then its events and items go (the `live_counts` triggers take each live item out of
    /// its count), then any count left and the row itself, with its hold, and its registry row
    /// and topics (`SessionDirectory`), and its pacing profile. Every table keyed by session is here. Other instances' polls hear of it by NOTIFY; the sweep cannot name a
    /// session whose row is gone, and a poll it misses answers 204 at its deadline anyway.
    public func erase(session: String) async throws -> Erasure {
        try await write(session: session) { connection in
            try await connection.transaction(logger: self.logger) { connection in
                try await connection.query(
                    "SELECT 1 FROM alertd.sessions WHERE session = \(session) FOR UPDATE", logger: self.logger)
                return (try await self.eraseRows(of: session, on: connection), changed: true)
            }
        }
    }

    /// The erase's statements, in the caller's transaction, once the session's row is locked.
    func eraseRows(of session: String, on connection: PostgresConnection) async throws -> Erasure {
        let events = try await count(
            "WITH gone AS (DELETE FROM alertd.events WHERE session = \(session) RETURNING 1) SELECT count(*) FROM gone",
            on: connection)
        let items = try await count(
            "WITH gone AS (DELETE FROM alertd.items WHERE session = \(session) RETURNING 1) SELECT count(*) FROM gone",
            on: connection)
        try await connection.query("DELETE FROM alertd.live_counts WHERE session = \(session)", logger: logger)
        try await connection.query("DELETE FROM alertd.withdrawals WHERE session = \(session)", logger: logger)
        try await connection.query("DELETE FROM alertd.sessions WHERE session = \(session)", logger: logger)
        try await connection.query("DELETE FROM alertd.session_topics WHERE session = \(session)", logger: logger)
        try await connection.query("DELETE FROM alertd.sessions_known WHERE session = \(session)", logger: logger)
        try await connection.query("DELETE FROM alertd.campaign_sessions WHERE session = \(session)", logger: logger)
        try await connection.query("DELETE FROM alertd.pacing_shown WHERE scope = 's:' || \(session)", logger: logger)
        try await connection.query(
            "DELETE FROM alertd.profiles WHERE owner = \(ProfileOwner.session(session).key)", logger: logger)
        return Erasure(items: items, events: events)
    }

    /// The one integer `query` answers.
    private func count(_ query: PostgresQuery, on connection: PostgresConnection) async throws -> Int {
        let rows = try await connection.query(query, logger: logger).collect()
        return try rows.first?.decode(Int.self) ?? 0
    }
}
