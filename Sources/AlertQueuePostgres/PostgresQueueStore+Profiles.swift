import AlertQueue
import PostgresNIO

/// Pacing profiles (`ProfileStore`) in `alertd.profiles`: a row per session (`s:<session>`) or
/// user (`u:<user>`) that has one, its `SessionProfile` as JSON text. A replace is one upsert,
/// so two instances writing one owner take turns; the last write wins.
extension PostgresQueueStore {
    /// Other instances' waiting polls of the sessions it applies to are told (NOTIFY): a profile
    /// that loosens may let a waiting item through.
    public func setProfile(_ profile: SessionProfile?, for owner: ProfileOwner) async throws {
        let text = try profile.flatMap { $0.isEmpty ? nil : try $0.storedText() }
        let sessions = try await perform { connection in
            if let text {
                try await connection.query(
                    """
                    INSERT INTO alertd.profiles (owner, profile) VALUES (\(owner.key), \(text))
                    ON CONFLICT (owner) DO UPDATE SET profile = EXCLUDED.profile
                    """, logger: self.logger)
            } else {
                try await connection.query("DELETE FROM alertd.profiles WHERE owner = \(owner.key)", logger: self.logger)
            }
            return try await self.sessions(under: owner, on: connection)
        }
        notifier.gather(sessions)
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

    /// The sessions a profile of `owner` applies to: the session, or the user's.
    private func sessions(under owner: ProfileOwner, on connection: PostgresConnection) async throws -> [String] {
        switch owner {
        case .session(let session): return [session]
        case .user(let user):
            return try await connection.query(
                "SELECT session FROM alertd.sessions_known WHERE user_id = \(user)", logger: logger
            ).collect().map { try $0.decode(String.self) }
        }
    }
}
