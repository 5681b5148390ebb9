import AlertQueue
import Foundation
import PostgresNIO

/// The session registry (`SessionDirectory`) in `alertd.sessions_known` and
/// `alertd.session_topics`, beside `alertd.sessions` (the queue's lock and hold row, which an
/// erase deletes and the next write makes again): a registration is one transaction whose
/// upsert locks the session's registry row first, so two instances registering one session take
/// turns; a flush of seen times is one statement. Times are the caller's (the instances'
/// clocks), whatever `options.clock` says: the idle cutoff is judged by the same clocks.
extension PostgresQueueStore {
    public func register(session: String, user: String?, topics: [String]?, now: Date) async throws -> KnownSession {
        try await registryWrite(session: session, user: SessionUserChange(registering: user), topics: topics, seen: true, now: now)
    }

    public func setUser(session: String, user: String?, now: Date) async throws -> KnownSession {
        try await registryWrite(session: session, user: SessionUserChange(setting: user), topics: nil, seen: false, now: now)
    }

    public func setTopics(session: String, topics: [String], now: Date) async throws -> KnownSession {
        try await registryWrite(session: session, user: .keep, topics: topics, seen: false, now: now)
    }

    public func knownSession(_ session: String) async throws -> KnownSession? {
        try await perform { connection in
            try await self.known("\(unescaped: Self.knownSelection) WHERE k.session = \(session)", on: connection).first
        }
    }

    public func sessions(ofUser user: String) async throws -> [KnownSession] {
        try await perform { connection in
            try await self.known(
                "\(unescaped: Self.knownSelection) WHERE k.user_id = \(user) ORDER BY k.last_seen DESC, k.session", on: connection)
        }
    }

    /// One statement, its rows in session order (so two instances' flushes lock rows in the
    /// same order and cannot deadlock).
    public func markSeen(_ times: [String: Date]) async throws {
        guard !times.isEmpty else { return }
        let sessions = Array(times.keys)
        let seen = sessions.map { times[$0]!.timeIntervalSince1970 }
        _ = try await perform { connection in
            try await connection.query(
                """
                INSERT INTO alertd.sessions_known AS k (session, user_id, last_seen, registered)
                SELECT u.session, NULL, u.seen, u.seen
                FROM unnest(\(BinaryArray(sessions))::text[], \(BinaryArray(seen))::float8[]) AS u(session, seen) ORDER BY u.session
                ON CONFLICT (session) DO UPDATE SET last_seen = greatest(k.last_seen, EXCLUDED.last_seen)
                """, logger: self.logger)
        }
    }

    public func idleSessions(seenBefore cutoff: Date, limit: Int) async throws -> [String] {
        try await perform { connection in
            try await connection.query(
                """
                SELECT session FROM alertd.sessions_known WHERE last_seen < \(cutoff.timeIntervalSince1970)::float8
                ORDER BY last_seen LIMIT \(max(1, limit))
                """, logger: self.logger
            ).collect().map { try $0.decode(String.self) }
        }
    }

    /// As `erase`, after checking (the registry row locked) that the session is still idle.
    public func forget(session: String, seenBefore cutoff: Date) async throws -> Erasure? {
        try await write(session: session) { connection in
            try await connection.transaction(logger: self.logger) { connection in
                try await connection.query(
                    "SELECT 1 FROM alertd.sessions WHERE session = \(session) FOR UPDATE", logger: self.logger)
                let seen = try await connection.query(
                    "SELECT last_seen FROM alertd.sessions_known WHERE session = \(session) FOR UPDATE", logger: self.logger
                ).collect().first?.decode(Double.self)
                guard let seen, seen < cutoff.timeIntervalSince1970 else { return (nil, changed: false) }
                return (try await self.eraseRows(of: session, on: connection), changed: true)
            }
        }
    }

    // MARK: - Helpers

    /// A registry row with its topics.
    static let knownSelection = """
        SELECT k.session, k.user_id, k.last_seen,
            array(SELECT t.topic FROM alertd.session_topics t WHERE t.session = k.session ORDER BY t.topic)
        FROM alertd.sessions_known k
        """

    private func known(_ query: PostgresQuery, on connection: PostgresConnection) async throws -> [KnownSession] {
        try await connection.query(query, logger: logger).collect().map { row in
            let (session, user, seen, topics) = try row.decode((String, String?, Double, [String]).self)
            return KnownSession(session: session, user: user, topics: topics, lastSeen: Date(timeIntervalSince1970: seen))
        }
    }

    /// One transaction: the row upserted (and so locked), its topics replaced when given, and read back.
    private func registryWrite(
        session: String, user: SessionUserChange, topics: [String]?, seen: Bool, now: Date
    ) async throws -> KnownSession {
        let time = now.timeIntervalSince1970
        return try await perform { connection in
            try await connection.transaction(logger: self.logger) { connection in
                try await connection.query(
                    """
                    INSERT INTO alertd.sessions_known AS k (session, user_id, last_seen, registered)
                    VALUES (\(session), \(user.user)::text, \(time)::float8, \(time)::float8)
                    ON CONFLICT (session) DO UPDATE SET
                        user_id = CASE WHEN \(user.changes)::boolean THEN EXCLUDED.user_id ELSE k.user_id END,
                        last_seen = CASE WHEN \(seen)::boolean THEN greatest(k.last_seen, EXCLUDED.last_seen) ELSE k.last_seen END
                    """, logger: self.logger)
                if let topics {
                    try await connection.query("DELETE FROM alertd.session_topics WHERE session = \(session)", logger: self.logger)
                    try await connection.query(
                        """
                        INSERT INTO alertd.session_topics (topic, session)
                        SELECT t, \(session) FROM unnest(\(BinaryArray(KnownSession.normalizedTopics(topics)))::text[]) AS t
                        """, logger: self.logger)
                }
                let rows = try await self.known("\(unescaped: Self.knownSelection) WHERE k.session = \(session)", on: connection)
                guard let known = rows.first else { throw PostgresStoreError.unreadableRow("no registry row after its upsert") }
                return known
            }
        }
    }
}
