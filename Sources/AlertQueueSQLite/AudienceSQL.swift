import AlertQueue
import Foundation
import GRDB

/// A campaign's audience, read in pages in a fixed order, from the campaign's cursor (the
/// position reached in an explicit list, else the last session reached, in session order), and
/// asked whether it holds a session.
struct AudienceSQL {
    let campaign: Campaign
    let db: Database

    /// The next `limit` sessions after `cursor`, and the cursor after them.
    func page(after cursor: String?, limit: Int) throws -> ([String], next: String?) {
        switch campaign.audience {
        case .sessions:
            let from = cursor.flatMap(Int.init) ?? 0
            let sessions = try String.fetchAll(
                db.cachedStatement(
                    sql: "SELECT session FROM campaign_sessions WHERE campaign = ? AND position >= ? ORDER BY position LIMIT ?"),
                arguments: [campaign.id, from, limit])
            return (sessions, String(from + sessions.count))
        case .users, .topic, .seenWithin:
            let sessions = try String.fetchAll(
                db.cachedStatement(sql: keyset.sql), arguments: StatementArguments(keyset.arguments + [cursor ?? "", limit]))
            return (sessions, sessions.last ?? cursor)
        }
    }

    /// Whether the audience holds `session`.
    func contains(_ session: String) throws -> Bool {
        switch campaign.audience {
        case .sessions:
            return try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM campaign_sessions WHERE campaign = ? AND session = ?)"),
                arguments: [campaign.id, session]) ?? false
        case .users, .topic, .seenWithin:
            return try Bool.fetchOne(db.cachedStatement(sql: member.sql), arguments: StatementArguments(member.arguments + [session])) ?? false
        }
    }

    /// The audience's sessions after a session (the last `?`s: the cursor, then the limit), in
    /// session order, from the session registry (`KnownSessionRecord`).
    private var keyset: (sql: String, arguments: [any DatabaseValueConvertible]) {
        switch campaign.audience {
        case .users(let users):
            ("""
            SELECT session FROM sessions_known WHERE user_id IN (SELECT value FROM json_each(?)) AND session > ?
            ORDER BY session LIMIT ?
            """, [Self.jsonList(users)])
        case .topic(let topic):
            ("SELECT session FROM session_topics WHERE topic = ? AND session > ? ORDER BY session LIMIT ?", [topic])
        case .seenWithin(let seconds):
            ("SELECT session FROM sessions_known WHERE last_seen >= ? AND session > ? ORDER BY session LIMIT ?", [cutoff(seconds)])
        case .sessions:
            preconditionFailure("an explicit audience is paged by position")
        }
    }

    /// Whether the audience holds a session (the last `?`).
    private var member: (sql: String, arguments: [any DatabaseValueConvertible]) {
        switch campaign.audience {
        case .users(let users):
            ("SELECT EXISTS (SELECT 1 FROM sessions_known WHERE user_id IN (SELECT value FROM json_each(?)) AND session = ?)",
             [Self.jsonList(users)])
        case .topic(let topic):
            ("SELECT EXISTS (SELECT 1 FROM session_topics WHERE topic = ? AND session = ?)", [topic])
        case .seenWithin(let seconds):
            ("SELECT EXISTS (SELECT 1 FROM sessions_known WHERE last_seen >= ? AND session = ?)", [cutoff(seconds)])
        case .sessions:
            preconditionFailure("an explicit audience is asked in campaign_sessions")
        }
    }

    /// Seen at or after this (seconds since 1970): `seconds` before the campaign was made.
    private func cutoff(_ seconds: Double) -> Double { campaign.createdAt.timeIntervalSince1970 - seconds }

    private static func jsonList(_ ids: [String]) -> String {
        String(decoding: (try? JSONEncoder().encode(ids)) ?? Data("[]".utf8), as: UTF8.self)
    }
}
