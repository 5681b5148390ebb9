import AlertQueue
import Foundation
import Logging
import PostgresNIO

/// A campaign's audience, read in pages in a fixed order from the campaign's cursor (the position
/// reached in an explicit list, else the last session reached, in session order), and asked
/// which of some sessions it holds: one statement each. A topic's and a list's pages are read
/// in their key's order (`audiencePagesFunctions`).
struct PostgresAudience {
    let campaign: Campaign
    let connection: PostgresConnection
    let logger: Logger

    /// The next `limit` sessions after `cursor`, and the cursor after them.
    func page(after cursor: String?, limit: Int) async throws -> ([String], next: String?) {
        switch campaign.audience {
        case .sessions:
            let from = cursor.flatMap(Int.init) ?? 0
            let sessions = try await strings("SELECT s FROM alertd.list_page(\(campaign.id), \(from)::integer, \(limit)::integer) AS s")
            return (sessions, String(from + sessions.count))
        case .users, .topic, .seenWithin:
            let sessions = try await strings(keysetPage(after: cursor ?? "", limit: limit))
            return (sessions, sessions.last ?? cursor)
        }
    }

    /// Those of `sessions` the audience holds.
    func members(of sessions: [String]) async throws -> [String] {
        switch campaign.audience {
        case .sessions:
            let held = Set(try await strings(
                """
                SELECT session FROM alertd.campaign_sessions
                WHERE campaign = \(campaign.id) AND session = ANY(\(BinaryArray(sessions))::text[])
                """))
            return sessions.filter(held.contains)
        case .users, .topic, .seenWithin:
            let held = Set(try await strings(membership(of: sessions)))
            return sessions.filter(held.contains)
        }
    }

    /// Those of `sessions` without a copy of the campaign yet (`items_campaign`).
    func withoutCopies(_ sessions: [String]) async throws -> [String] {
        guard !sessions.isEmpty else { return [] }
        let copied = Set(try await strings(
            """
            SELECT session FROM alertd.items
            WHERE campaign_id = \(campaign.id) AND campaign_id IS NOT NULL AND session = ANY(\(BinaryArray(sessions))::text[])
            """))
        return sessions.filter { !copied.contains($0) }
    }

    private func strings(_ query: PostgresQuery) async throws -> [String] {
        try await connection.query(query, logger: logger).collect().map { try $0.decode(String.self) }
    }

    /// The audience's sessions after `cursor`, in session order, from the session registry.
    private func keysetPage(after cursor: String, limit: Int) -> PostgresQuery {
        switch campaign.audience {
        case .users(let users):
            """
            SELECT session FROM alertd.sessions_known WHERE user_id = ANY(\(BinaryArray(users))::text[]) AND session > \(cursor)
            ORDER BY session LIMIT \(limit)
            """
        case .topic(let topic):
            "SELECT s FROM alertd.topic_page(\(topic), \(cursor), \(limit)::integer) AS s"
        case .seenWithin(let seconds):
            """
            SELECT session FROM alertd.sessions_known WHERE last_seen >= \(cutoff(seconds)) AND session > \(cursor)
            ORDER BY session LIMIT \(limit)
            """
        case .sessions:
            preconditionFailure("an explicit audience is paged by position")
        }
    }

    /// Those of `sessions` the audience holds, from the session registry.
    private func membership(of sessions: [String]) -> PostgresQuery {
        let asked = BinaryArray(sessions)
        switch campaign.audience {
        case .users(let users):
            return """
                SELECT session FROM alertd.sessions_known
                WHERE session = ANY(\(asked)::text[]) AND user_id = ANY(\(BinaryArray(users))::text[])
                """
        case .topic(let topic):
            return "SELECT session FROM alertd.session_topics WHERE topic = \(topic) AND session = ANY(\(asked)::text[])"
        case .seenWithin(let seconds):
            return "SELECT session FROM alertd.sessions_known WHERE session = ANY(\(asked)::text[]) AND last_seen >= \(cutoff(seconds))"
        case .sessions:
            preconditionFailure("an explicit audience is asked in campaign_sessions")
        }
    }

    /// Seen at or after this (seconds since 1970): `seconds` before the campaign was made.
    private func cutoff(_ seconds: Double) -> Double { campaign.createdAt.timeIntervalSince1970 - seconds }
}
