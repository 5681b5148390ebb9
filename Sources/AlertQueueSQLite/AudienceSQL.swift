import AlertQueue
import Foundation
import GRDB

/// A campaign's audience, read in pages in a fixed order, from the campaign's cursor (the
/// position reached in an explicit list, else the last session reached, in session order), and
/// asked whether it holds a session.
struct AudienceSQL {
    let campaign: Campaign
    let db: Database

    /// The next `limit` sessions after `cursor` that have no copy of the campaign yet, each
    /// with the cursor after it.
    func page(after cursor: String?, limit: Int) throws -> [(session: String, cursor: String)] {
        switch campaign.audience {
        case .sessions:
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT session, position + 1 FROM campaign_sessions c
                        WHERE campaign = ?1 AND position >= ?2 AND NOT \(Self.hasCopy("c.session"))
                        ORDER BY position LIMIT ?3
                        """),
                arguments: [campaign.id, cursor.flatMap(Int.init) ?? 0, limit])
            return rows.map { ($0[0], String($0[1] as Int)) }
        case .users, .topic, .seenWithin:
            let sessions = try String.fetchAll(
                db.cachedStatement(sql: keyset.sql), arguments: StatementArguments([campaign.id] + keyset.arguments + [cursor ?? "", limit]))
            return sessions.map { ($0, $0) }
        }
    }

    /// Whether `session` (a column) has a copy of the campaign (`?1`), through `items_campaign`.
    private static func hasCopy(_ session: String) -> String {
        "EXISTS (SELECT 1 FROM items WHERE campaign_id = ?1 AND campaign_id NOTNULL AND session = \(session))"
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
    /// session order, from the session registry (`KnownSessionRecord`), but those with a copy
    /// of the campaign (`?1`).
    private var keyset: (sql: String, arguments: [any DatabaseValueConvertible]) {
        switch campaign.audience {
        case .users(let users):
            ("""
            SELECT session FROM sessions_known k WHERE user_id IN (SELECT value FROM json_each(?2)) AND session > ?3
                AND NOT \(Self.hasCopy("k.session"))
            ORDER BY session LIMIT ?4
            """, [JSONList.of(users)])
        case .topic(let topic):
            ("""
            SELECT session FROM session_topics t WHERE topic = ?2 AND session > ?3 AND NOT \(Self.hasCopy("t.session"))
            ORDER BY session LIMIT ?4
            """, [topic])
        case .seenWithin(let seconds):
            ("""
            SELECT session FROM sessions_known k WHERE last_seen >= ?2 AND session > ?3 AND NOT \(Self.hasCopy("k.session"))
            ORDER BY session LIMIT ?4
            """, [cutoff(seconds)])
        case .sessions:
            preconditionFailure("an explicit audience is paged by position")
        }
    }

    /// Whether the audience holds a session (the last `?`).
    private var member: (sql: String, arguments: [any DatabaseValueConvertible]) {
        switch campaign.audience {
        case .users(let users):
            ("SELECT EXISTS (SELECT 1 FROM sessions_known WHERE user_id IN (SELECT value FROM json_each(?)) AND session = ?)",
             [JSONList.of(users)])
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
}
