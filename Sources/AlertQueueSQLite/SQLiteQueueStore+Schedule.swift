import AlertQueue
import Foundation
import GRDB

extension SQLiteQueueStore {
    /// The hold's end or the first scheduled item's time after `now`, in one read
    /// (`WindowSQL.nextTimedChange`), or sooner the time a queued item's pacing lets it be shown:
    /// when a waiting poll looks again.
    public func nextTimedChange(session: String, now: Date) async throws -> Date? {
        let at = try read { db in
            try Double.fetchOne(db.cachedStatement(sql: WindowSQL.nextTimedChange), arguments: [session, now.timeIntervalSince1970])
        }.map(Date.init(timeIntervalSince1970:))
        guard try read({ db in try Bool.fetchOne(db.cachedStatement(sql: Self.pacedSQL), arguments: [session]) }) == true else { return at }
        let lift = try await writer.read { db in
            let rules = try PacingRecord.pacedQueued(session: session, in: db)
            let history = try PacingRecord.history(of: Set(rules.map(\.alert)), session: session, now: now, in: db)
            return PacingRecord.nextLift(of: rules, history: history, now: now)
        }
        return [at, lift].compactMap(\.self).min()
    }

    /// Whether the session has a live item with a pacing rule, through `items_live_dedupe`.
    private static let pacedSQL =
        "SELECT EXISTS (SELECT 1 FROM items WHERE session = ? AND state IN ('queued', 'presenting') AND pacing NOTNULL)"
}
