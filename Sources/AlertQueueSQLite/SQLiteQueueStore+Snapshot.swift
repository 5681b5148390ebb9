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
                return SessionSnapshot(session: session, now: now, items: items, holdUntil: hold, finished: ended)
            }
        } catch let error as DatabaseError {
            throw QueueError.sqlite(error) ?? error
        }
    }

    /// How far back, in items of the whole store, the finished items of a session are looked
    /// for: no index reaches a session's done and cancelled items (the listing's indexes leave
    /// them out, so writes do not pay for them), so the walk back through `sequence` is bounded.
    static let finishedLookBack: Int64 = 10_000

    /// The session's done, cancelled and expired items among the store's latest
    /// `finishedLookBack`, most recently queued first.
    private static func finished(_ db: Database, session: String, limit: Int, contents: ContentCache) throws -> [QueueItem] {
        var items: [QueueItem] = []
        try RawBinding.query(finishedSQL, in: db) { statement in
            RawBinding.text(session, to: statement, at: 1)
            sqlite3_bind_int64(statement, 2, finishedLookBack)
            sqlite3_bind_int64(statement, 3, Int64(limit))
        } row: { row in
            items.append(try ItemRecord.item(row: row, contents: contents))
        }
        return items
    }

    private static let finishedSQL = """
        SELECT \(ItemRecord.selection) FROM items
        WHERE session = ? AND state IN ('done', 'cancelled', 'expired')
            AND sequence > (SELECT coalesce(max(sequence), 0) FROM items) - ?
        ORDER BY sequence DESC LIMIT ?
        """
}
