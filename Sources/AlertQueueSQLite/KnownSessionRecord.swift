import AlertQueue
import Foundation
import GRDB

/// The session registry's tables and statements (`SessionDirectory`): `sessions_known`, a row
/// per session registered or seen (its user, when it was last seen and first registered, in
/// seconds since 1970), and `session_topics`, a row per topic a session joined, keyed by topic
/// first so that a topic's sessions are one range of the primary key.
enum KnownSessionRecord {
    static let schema = """
        CREATE TABLE sessions_known (
            session TEXT PRIMARY KEY NOT NULL,
            user_id TEXT,
            last_seen REAL NOT NULL,
            registered REAL NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX sessions_known_user ON sessions_known(user_id, last_seen) WHERE user_id NOTNULL;
        CREATE INDEX sessions_known_last_seen ON sessions_known(last_seen);
        CREATE TABLE session_topics (
            topic TEXT NOT NULL,
            session TEXT NOT NULL,
            PRIMARY KEY (topic, session)
        ) WITHOUT ROWID;
        CREATE INDEX session_topics_session ON session_topics(session);
        """

    /// Creates or changes the session's row: its user as `user` says, its topics replaced when
    /// given, its last-seen time moved to `now` when `seen` (and later); a new row is seen at `now`.
    static func write(
        session: String, user: SessionUserChange, topics: [String]?, seen: Bool, now: Date, in db: Database
    ) throws -> KnownSession {
        try db.cachedStatement(
            sql: """
                INSERT INTO sessions_known (session, user_id, last_seen, registered) VALUES (:session, :user, :now, :now)
                ON CONFLICT(session) DO UPDATE SET
                    user_id = CASE WHEN :changesUser THEN excluded.user_id ELSE user_id END,
                    last_seen = CASE WHEN :seen THEN max(last_seen, excluded.last_seen) ELSE last_seen END
                """
        ).execute(arguments: [
            "session": session, "user": user.user, "now": now.timeIntervalSince1970, "changesUser": user.changes, "seen": seen,
        ])
        if let topics {
            try db.cachedStatement(sql: "DELETE FROM session_topics WHERE session = ?").execute(arguments: [session])
            let insert = try db.cachedStatement(sql: "INSERT INTO session_topics (topic, session) VALUES (?, ?)")
            for topic in KnownSession.normalizedTopics(topics) { try insert.execute(arguments: [topic, session]) }
        }
        guard let known = try fetch(session: session, in: db) else { throw DatabaseError(message: "registered row missing") }
        return known
    }

    /// A row with its topics, read in one statement (one snapshot without a transaction).
    static let selection = """
        SELECT k.session, k.user_id, k.last_seen,
            (SELECT json_group_array(t.topic) FROM (SELECT topic FROM session_topics WHERE session = k.session ORDER BY topic) t)
        FROM sessions_known k
        """

    static func fetch(session: String, in db: Database) throws -> KnownSession? {
        try Row.fetchOne(db.cachedStatement(sql: selection + " WHERE k.session = ?"), arguments: [session]).map(known)
    }

    static func fetch(user: String, in db: Database) throws -> [KnownSession] {
        try Row.fetchAll(
            db.cachedStatement(sql: selection + " WHERE k.user_id = ? ORDER BY k.last_seen DESC, k.session"), arguments: [user]
        ).map(known)
    }

    private static func known(_ row: Row) throws -> KnownSession {
        let topicsJSON: String = row[3]
        let topics = try JSONDecoder().decode([String].self, from: Data(topicsJSON.utf8))
        return KnownSession(session: row[0], user: row[1], topics: topics, lastSeen: Date(timeIntervalSince1970: row[2]))
    }

    /// Each session's time, upserted: a new row, or a later time than the row's.
    static func markSeen(_ times: [String: Date], in db: Database) throws {
        let upsert = try db.cachedStatement(
            sql: """
                INSERT INTO sessions_known (session, user_id, last_seen, registered) VALUES (?1, NULL, ?2, ?2)
                ON CONFLICT(session) DO UPDATE SET last_seen = max(last_seen, excluded.last_seen)
                """)
        for (session, time) in times { try upsert.execute(arguments: [session, time.timeIntervalSince1970]) }
    }

    /// The session's last-seen time, nil without a row.
    static func lastSeen(session: String, in db: Database) throws -> Double? {
        try Double.fetchOne(db.cachedStatement(sql: "SELECT last_seen FROM sessions_known WHERE session = ?"), arguments: [session])
    }

    /// Deletes the session's row and topics (part of an erase).
    static func delete(session: String, in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM session_topics WHERE session = ?").execute(arguments: [session])
        try db.cachedStatement(sql: "DELETE FROM sessions_known WHERE session = ?").execute(arguments: [session])
    }
}
