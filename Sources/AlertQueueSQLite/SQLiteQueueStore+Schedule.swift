import AlertQueue
import AlertSpec
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
        let profile = try read { db in try self.profile(session: session, in: db) }.over(policy.settings.profile)
        let paced = try read { db in try Bool.fetchOne(db.cachedStatement(sql: Self.pacedSQL), arguments: [session]) } == true
        guard paced || !profile.isNone else { return at }
        let bypass = policy.settings.bypassPriority
        let lift = try await writer.read { db in
            let rules = try PacingRecord.pacedQueued(session: session, in: db)
            let history = try PacingShown.history(of: rules, profile: profile, session: session, now: now, in: db)
            // The lanes whose items the session-wide rules may hold: queued, below the bypass priority.
            let lanes = profile.isNone ? [] : try String.fetchAll(db.cachedStatement(sql: Self.heldLanesSQL), arguments: [session, bypass])
            let sessionWide = lanes.compactMap(Lane.init(rawValue:)).compactMap { profile.hold(lane: $0, history: history, now: now)?.until }
            return (sessionWide + [PacingRecord.nextLift(of: rules, history: history, now: now)].compactMap(\.self)).min()
        }
        return [at, lift].compactMap(\.self).min()
    }

    /// The lanes of the session's queued modals and toasts below a priority.
    private static let heldLanesSQL = """
        SELECT DISTINCT lane FROM items
        WHERE session = ? AND state IN ('queued', 'presenting') AND state = 'queued' AND lane <> 'hud' AND priority < ?
        """

    /// Whether the session has a live item with a pacing rule, through `items_live_dedupe`.
    private static let pacedSQL =
        "SELECT EXISTS (SELECT 1 FROM items WHERE session = ? AND state IN ('queued', 'presenting') AND pacing NOTNULL)"
}
