import AlertQueue
import Foundation
import GRDB

extension SQLiteQueueStore {
    /// One background write through the batcher (alone, after the live writes waiting, with no
    /// flush of its own; see `WriteBatcher`): up to `limit` items read in enqueue order through
    /// the `sequence` index, each finished one's last event found by the last id its row lists;
    /// those finished before `cutoff` go with their events. Then up to
    /// `vacuumPages` free pages are handed back to the file system (`incremental_vacuum`; a file
    /// made before incremental auto-vacuum keeps its free pages for new rows instead).
    public func purge(finishedBefore cutoff: Date, after: PurgeCursor?, limit: Int) async throws -> PurgeBatch {
        let (batch, tickets) = try await write(background: true) { [vacuumPages] db -> (PurgeBatch, [String]) in
            let limit = max(1, limit)
            try batcher.transactionEnd.events.write(in: db)  // (none staged: it runs alone)
            let rows = try Row.fetchAll(db.cachedStatement(sql: PurgeSQL.scan), arguments: [after?.sequence ?? Int64.min, limit])
            let line = cutoff.timeIntervalSince1970
            var (tickets, events, next) = ([String](), 0, rows.last.map { PurgeCursor(sequence: $0[5]) })
            if rows.count < limit { next = nil }
            for row in rows {
                let (ticket, session, state, enqueuedAt): (String, String, String, Double) = (row[0], row[1], row[2], row[3])
                if enqueuedAt >= line {
                    next = nil
                    break
                }
                guard let itemState = ItemState(rawValue: state), !itemState.isLive,
                    (row[4] as Double? ?? enqueuedAt) < line
                else { continue }
                // The newest events may go too: their ids must still never be given again.
                if tickets.isEmpty { try EventRecord.raiseFloor(in: db) }
                try db.cachedStatement(sql: PurgeSQL.deleteEvents).execute(arguments: [session, ticket])
                events += db.changesCount
                try db.cachedStatement(sql: PurgeSQL.deleteItem).execute(arguments: [ticket])
                try db.cachedStatement(sql: PurgeSQL.deleteWithdrawal).execute(arguments: [session, ticket])
                tickets.append(ticket)
            }
            if !tickets.isEmpty, vacuumPages > 0 {
                try db.execute(sql: "PRAGMA incremental_vacuum(\(vacuumPages))")
            }
            return (PurgeBatch(items: tickets.count, events: events, next: next), tickets)
        }
        // Decoded contents are kept by ticket: drop the purged ones from memory too.
        for ticket in tickets { contents.forget(key: ticket) }
        return batch
    }

    /// Batches of 5 items, 2 ms apart: each batch's pages go into the WAL with the next live
    /// commit, so small ones keep that commit short (`scripts/bench/retention.sh`: enqueue p99
    /// during the purge 1.4–1.95 × idle, against 2.0–2.7 × with 25 items 10 ms apart).
    public var purgePace: PurgePace { PurgePace(batchSize: 5, pause: .milliseconds(2)) }
}

/// The purge's statements.
enum PurgeSQL {
    /// Items in enqueue order after a sequence, with the time of each one's last event.
    static let scan = """
        SELECT i.ticket, i.session, i.state, i.enqueued_at,
            (SELECT e.at FROM events e WHERE e.id = CAST(substr(i.events, length(rtrim(i.events, '0123456789')) + 1) AS INTEGER)),
            i.sequence
        FROM items i WHERE i.sequence > ? ORDER BY i.sequence LIMIT ?
        """
    static let deleteEvents = """
        DELETE FROM events WHERE id IN (SELECT j.value FROM items i, \(EventRecord.idArray("i.events")) j WHERE i.ticket = ?2 AND i.session = ?1)
        """
    /// Finished items only: a live item is never purged, whatever a caller asked.
    static let deleteItem = "DELETE FROM items WHERE ticket = ? AND state NOT IN ('queued', 'presenting')"
    /// A withdraw still owed for the item, its device never having asked since.
    static let deleteWithdrawal = "DELETE FROM withdrawals WHERE session = ? AND ticket = ?"
}
