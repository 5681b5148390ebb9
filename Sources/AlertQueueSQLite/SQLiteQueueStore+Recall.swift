import AlertQueue
import AlertSpec
import Foundation
import GRDB
import GRDBSQLite

// A recall: every live item in a scope, across sessions, taken back in writes of a batch each.

extension SQLiteQueueStore {
    /// Items per write: each holds the writer for about as long as a few hundred enqueues.
    static let recallBatch = 500

    public func recall(_ scope: RecallScope, now: Date) async throws -> Recall {
        var total = Recall()
        while true {
            let (recall, picked) = try await write { db in try self.recallBatch(scope, now: now, in: db) }
            total.add(recall)
            if picked < Self.recallBatch { return total }
        }
    }

    /// Takes back up to `recallBatch` live items of `scope`, found through `items_census_live`
    /// (the live items only, however long the history), each as `QueuePolicy.withdraw` would:
    /// one event, the row cancelled with its event id listed, a withdraw owed for a presenting one.
    private func recallBatch(_ scope: RecallScope, now: Date, in db: Database) throws -> (Recall, picked: Int) {
        let (sql, key) =
            switch scope {
            case .alert(let alert): (RecallSQL.pickByAlert, alert)
            case .campaign(let campaign): (RecallSQL.pickByCampaign, campaign)
            }
        var picked: [(ticket: String, session: String, presenting: Bool, alert: String?)] = []
        try RawBinding.query(sql, in: db) { statement in
            sqlite3_bind_double(statement, 1, now.timeIntervalSince1970)
            RawBinding.text(key, to: statement, at: 2)
            sqlite3_bind_int64(statement, 3, Int64(Self.recallBatch))
        } row: { row in
            guard let ticket = String.fromStatement(row, atUncheckedIndex: 0),
                let session = String.fromStatement(row, atUncheckedIndex: 1),
                let state = String.fromStatement(row, atUncheckedIndex: 2)
            else { return }
            picked.append((ticket, session, state == ItemState.presenting.rawValue, String.fromStatement(row, atUncheckedIndex: 3)))
        }
        var recall = Recall()
        var written: [RecentOutcomes.Event] = []
        written.reserveCapacity(picked.count)
        let detail: [String: ParameterValue] = ["by": .string(CancelCause.recall.rawValue)]
        for item in picked {
            let event = ItemEvent(
                kind: item.presenting ? .withdrawn : .cancelled, session: item.session, ticket: item.ticket, at: now, detail: detail)
            var listed = ""
            if policy.settings.recordsEvents {
                let id = try eventIDs.next(in: db)
                batcher.transactionEnd.events.stage(event, id: id)
                written.append(RecentOutcomes.event(event, id: id, alert: item.alert))
                listed = ",\(id)"
            }
            try RawBinding.execute(RecallSQL.cancel, in: db, bindsAll: true) { statement in
                RawBinding.text(item.ticket, to: statement, at: 1)
                RawBinding.text(listed, to: statement, at: 2)
            }
            if item.presenting {
                try WithdrawalRecord.owe(session: item.session, ticket: item.ticket, at: now, in: db)
                recall.withdrawn += 1
                recall.sessions.insert(item.session)
            } else {
                recall.cancelled += 1
            }
        }
        batcher.transactionEnd.onCommit { [recentOutcomes, written] in recentOutcomes.kept(written) }
        return (recall, picked.count)
    }
}

/// The recall's statements.
enum RecallSQL {
    /// Live items of an alert (`?2`), but queued ones whose TTL has passed (`?1`: now), at most
    /// `?3`. Its WHERE starts with `items_census_live`'s, word for word, so the partial index
    /// (live items only) is what is read.
    static let pickByAlert = """
        SELECT ticket, session, state, ?2 FROM items INDEXED BY items_census_live
        WHERE state IN ('queued', 'presenting') AND (state = 'presenting' OR expires_at IS NULL OR expires_at > ?1)
            AND json_extract(content, '$.alert') = ?2
        LIMIT ?3
        """

    /// Live copies of a campaign (`?2`), as `pickByAlert`, through `items_campaign_live`.
    static let pickByCampaign = """
        SELECT ticket, session, state, json_extract(content, '$.alert') FROM items INDEXED BY items_campaign_live
        WHERE campaign_id = ?2 AND campaign_id NOTNULL AND state IN ('queued', 'presenting')
            AND (state = 'presenting' OR expires_at IS NULL OR expires_at > ?1)
        LIMIT ?3
        """

    /// Cancels a live item, appending its event's id (`?2`, ",id", or "" without timelines).
    static let cancel = """
        UPDATE items SET state = 'cancelled', lease_until = NULL, events = events || ?2
        WHERE ticket = ?1 AND state IN ('queued', 'presenting')
        """
}
