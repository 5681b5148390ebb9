import AlertQueue
import AlertSpec
import Foundation
import GRDB
import Locking

/// What SQLite keeps of an item's pacing: its rule (`items.pacing`, its JSON, NULL for none),
/// and the questions a step asks of its session's paced items. The deliveries the rules count
/// are `PacingShown`'s.
enum PacingRecord {
    static let schema = """
        ALTER TABLE items ADD COLUMN pacing TEXT;
        CREATE TABLE pacing_shown (scope TEXT NOT NULL, alert TEXT NOT NULL, at DOUBLE NOT NULL);
        CREATE INDEX pacing_shown_key ON pacing_shown(scope, alert, at);
        """

    /// The rule as the column keeps it: nil for none.
    static func json(_ pacing: Pacing) throws -> String? {
        guard !pacing.isNone else { return nil }
        if let known = texts.withLock({ $0.json[pacing] }) { return known }
        let text = String(decoding: try JSONEncoder().encode(pacing), as: UTF8.self)
        texts.withLock { $0.remember(pacing, text) }
        return text
    }

    /// The rule of a column's text (nil: none).
    static func pacing(_ text: String?) throws -> Pacing {
        guard let text else { return .none }
        if let known = texts.withLock({ $0.rule[text] }) { return known }
        let pacing = try JSONDecoder().decode(Pacing.self, from: Data(text.utf8))
        texts.withLock { $0.remember(pacing, text) }
        return pacing
    }

    /// Rules and their JSON both ways: a catalog declares a few rules that every item of its
    /// alerts carries, and Foundation's JSON coders cost an enqueue or a read more than the row.
    private struct Texts {
        var json: [Pacing: String] = [:]
        var rule: [String: Pacing] = [:]

        mutating func remember(_ pacing: Pacing, _ text: String) {
            if json.count >= 1_024 { (json, rule) = ([:], [:]) }  // rules made per enqueue: start again
            (json[pacing], rule[text]) = (text, pacing)
        }
    }

    private static let texts = Locked(Texts())

    /// Whether `items` hold a queued item with a rule: only then does a step read the history.
    static func paces(_ items: [QueueItem]) -> Bool {
        items.contains { $0.state == .queued && !$0.pacing.isNone }
    }

    /// The alerts and rules of the session's queued paced items, each pair once however many
    /// items share it: what the time a rule lifts is judged on.
    static func pacedQueued(session: String, in db: Database) throws -> [(alert: String, pacing: Pacing)] {
        try Row.fetchAll(db.cachedStatement(sql: pacedQueuedSQL), arguments: [session]).map { row in
            (row[0], try pacing(row[1]))
        }
    }

    /// An item's `QueueItem.pacedAlert`, in SQL.
    private static let pacedQueuedSQL = """
        SELECT DISTINCT coalesce(json_extract(content, '$.alert'), 'adhoc:' || dedupe_key), pacing
        FROM items WHERE session = ? AND state IN ('queued', 'presenting') AND state = 'queued' AND pacing NOTNULL
        """

    /// Whether a queued item of `items` is held back now: by its rule, or by the session-wide
    /// rules of `profile` (the effective one).
    static func holdsBack(_ items: [QueueItem], history: PacingHistory, profile: SessionProfile, bypassPriority: Int, now: Date) -> Bool {
        items.contains { item in
            guard item.state == .queued else { return false }
            if !item.pacing.isNone, item.pacing.verdict(alert: item.pacedAlert, history: history, now: now) != .allowed { return true }
            return profile.hold(item, history: history, bypassPriority: bypassPriority, now: now) != nil
        }
    }

    /// The earliest time one of `rules` that holds its alert back lifts.
    static func nextLift(of rules: [(alert: String, pacing: Pacing)], history: PacingHistory, now: Date) -> Date? {
        rules.compactMap { rule -> Date? in
            guard case .capped(_, let until) = rule.pacing.verdict(alert: rule.alert, history: history, now: now) else { return nil }
            return until
        }.min()
    }

    /// `QueueStore.purgePacing`'s statement: rows before `?1` with a newer one of their key.
    static let purgeSQL = """
        DELETE FROM pacing_shown AS p
        WHERE p.at < ?1 AND EXISTS (SELECT 1 FROM pacing_shown AS q WHERE q.scope = p.scope AND q.alert = p.alert AND q.at > p.at)
        """
}

extension SQLiteQueueStore {
    public func purgePacing(before cutoff: Date) async throws -> Int {
        try await write(background: true) { db in
            try db.execute(sql: PacingRecord.purgeSQL, arguments: [cutoff.timeIntervalSince1970])
            return db.changesCount
        }
    }
}
