import AlertQueue
import Foundation
import GRDB
import GRDBSQLite

extension SQLiteQueueStore {
    /// Read in one snapshot transaction beside the writer, changing nothing; not through
    /// `contents`, which only the writer's thread fills (see `item(session:ticket:)`).
    public func snapshot(session: String, now: Date, finished: Int) async throws -> SessionSnapshot {
        do {
            return try await writer.read { db in
                let contents = ContentCache(limit: 0)
                let items = try ItemRecord.fetch(db, session: session, scope: .listed, contents: contents)
                let hold = try HoldRecord.until(session: session, in: db).map(Date.init(timeIntervalSince1970:))
                let ended = finished > 0 ? try Self.finished(db, session: session, limit: finished, contents: contents) : []
                let profile = try profile(session: session, in: db)
                let pacing = try PacingShown.history(
                    for: items, profile: profile.over(policy.settings.profile), session: session, now: now, in: db)
                return SessionSnapshot(
                    session: session, now: now, items: items, holdUntil: hold, finished: ended, pacing: pacing, profile: profile)
            }
        } catch let error as DatabaseError {
            throw QueueError.sqlite(error) ?? error
        }
    }

    /// The session's done, cancelled and expired items, most recently queued first, through
    /// `items_session_finished` (its WHERE is repeated so that SQLite can use it).
    private static func finished(_ db: Database, session: String, limit: Int, contents: ContentCache) throws -> [QueueItem] {
        var items: [QueueItem] = []
        try RawBinding.query(finishedSQL, in: db) { statement in
            RawBinding.text(session, to: statement, at: 1)
            sqlite3_bind_int64(statement, 2, Int64(limit))
        } row: { row in
            items.append(try ItemRecord.item(row: row, contents: contents))
        }
        return items
    }

    private static let finishedSQL = """
        SELECT \(ItemRecord.selection) FROM items
        WHERE session = ? AND state NOT IN ('queued', 'presenting') AND state <> 'dead'
        ORDER BY sequence DESC LIMIT ?
        """
}
