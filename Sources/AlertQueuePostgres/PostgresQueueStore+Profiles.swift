import AlertQueue
import PostgresNIO

/// Pacing profiles (`ProfileStore`) in `alertd.profiles`: a row per session (`s:<session>`) or
/// user (`u:<user>`) that has one, its `SessionProfile` as JSON text. A replace is one upsert,
/// so two instances writing one owner take turns; the last write wins.
extension PostgresQueueStore {
    public func setProfile(_ profile: SessionProfile?, for owner: ProfileOwner) async throws {
        guard let profile, !profile.isEmpty else {
            try await perform { connection in
                try await connection.query("DELETE FROM alertd.profiles WHERE owner = \(owner.key)", logger: self.logger)
            }
            return
        }
        let text = try profile.storedText()
        try await perform { connection in
            try await connection.query(
                """
                INSERT INTO alertd.profiles (owner, profile) VALUES (\(owner.key), \(text))
                ON CONFLICT (owner) DO UPDATE SET profile = EXCLUDED.profile
                """, logger: self.logger)
        }
    }

    public func profile(of owner: ProfileOwner) async throws -> SessionProfile? {
        try await perform { connection in
            let rows = try await connection.query(
                "SELECT profile FROM alertd.profiles WHERE owner = \(owner.key)", logger: self.logger
            ).collect()
            return try rows.first.map { try SessionProfile(storedText: $0.decode(String.self)) }
        }
    }

    public func effectiveProfile(session: String) async throws -> SessionProfile {
        try await perform { connection in try await self.effectiveProfile(session: session, on: connection) }
    }

    /// The session's profile over its user's, in one statement (one snapshot) on `connection`,
    /// so a step can read it in its own transaction; `.none` when neither has one.
    func effectiveProfile(session: String, on connection: PostgresConnection) async throws -> SessionProfile {
        let rows = try await connection.query(
            """
            SELECT (SELECT profile FROM alertd.profiles WHERE owner = \(ProfileOwner.session(session).key)),
                (SELECT p.profile FROM alertd.sessions_known k JOIN alertd.profiles p ON p.owner = 'u:' || k.user_id
                 WHERE k.session = \(session))
            """, logger: logger
        ).collect()
        guard let row = rows.first else { return .none }
        let (own, users) = try row.decode((String?, String?).self)
        let session = try own.map(SessionProfile.init(storedText:)) ?? .none
        return try users.map { session.over(try SessionProfile(storedText: $0)) } ?? session
    }
}
