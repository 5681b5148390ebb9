import AlertQueue
import AlertSpec
import Foundation
import GRDB
import GRDBSQLite

// A recall: every live item in a scope, across sessions, taken back in writes of a batch each.

extension SQLiteQueueStore {
    /// Items per write: each holds the writer for a few milliseconds, about as long as a few
    /// hundred enqueues.
    static let recallBatch = 500

    /// Takes the batches back in background writes (no flush each, live writes go first) while
    /// more than a batch is left, and the last batch in a live write: its flush makes every
    /// batch before it durable (the WAL is written in order), so the answer means committed.
    /// Each batch is whole or absent after a crash; a recall again takes back what is left.
    public func recall(_ scope: RecallScope, now: Date) async throws -> Recall {
        var total = Recall()
        while true {
            total.add(try await recallInBackground(scope, now: now))
            let last = try await write { db in try self.recallBatch(scope, now: now, leavingLast: false, in: db) }
            // A live batch never leaves the last one; more is left when copies came meanwhile.
            guard case .taken(let recall, let more) = last else { continue }
            total.add(recall)
            if !more { return total }
        }
    }

    /// Background batches until one finds no more than a batch left, two in the writer's
    /// queue at a time: the writer goes from one to the next without waiting for this task,
    /// and each picks what the one before it left (a recall of 100,000 copies: 1.08–1.15 s,
    /// against 1.10–1.22 s one batch at a time).
    private func recallInBackground(_ scope: RecallScope, now: Date) async throws -> Recall {
        try await withThrowingTaskGroup(of: RecallBatch.self) { group in
            let batch = { @Sendable [self] in
                try await self.write(background: true) { db in try self.recallBatch(scope, now: now, leavingLast: true, in: db) }
            }
            group.addTask(operation: batch)
            group.addTask(operation: batch)
            var total = Recall()
            var left = false
            while let done = try await group.next() {
                switch done {
                case .left:
                    left = true
                case .taken(let recall, _):
                    total.add(recall)
                    if !left { group.addTask(operation: batch) }
                }
            }
            return total
        }
    }

    /// What a batch's write did.
    enum RecallBatch: Sendable {
        /// Took back `recall`; `more` live items of the scope are left.
        case taken(Recall, more: Bool)
        /// Left the last batch (no more than `recallBatch` items) for a live write.
        case left
    }

    /// Takes back up to `recallBatch` live items of `scope`, found through `items_census_live`
    /// or `items_campaign_live` (the live items only, however long the history), each as
    /// `QueuePolicy.withdraw` would: one event, the row cancelled with its event id listed, a
    /// withdraw owed for a presenting one. The rows are cancelled by one statement for the
    /// batch (`RecallSQL.cancel`): a statement per item looked each up by ticket and set up its
    /// cursors and trigger program again, nearly twice the time. When `leavingLast` and no more
    /// than a batch is left, it changes nothing (`.left`).
    private func recallBatch(_ scope: RecallScope, now: Date, leavingLast: Bool, in db: Database) throws -> RecallBatch {
        let picked = try pick(scope, now: now, in: db)
        let more = picked.count > Self.recallBatch
        if leavingLast, !more { return .left }
        var recall = Recall()
        var written: [RecentOutcomes.Event] = []
        written.reserveCapacity(Self.recallBatch)
        // `[[rowid, ",eventID"], ...]`: the rows and what each appends to its list of events.
        var rows: [String] = []
        rows.reserveCapacity(Self.recallBatch)
        let detail: [String: ParameterValue] = ["by": .string(CancelCause.recall.rawValue)]
        var withdrawnCopies: [String: Int] = [:]  // by campaign, for its tallies
        for item in picked.prefix(Self.recallBatch) {
            let event = ItemEvent(
                kind: item.presenting ? .withdrawn : .cancelled, session: item.session, ticket: item.ticket, at: now, detail: detail)
            var listed = ""
            if policy.settings.recordsEvents {
                let id = try eventIDs.next(in: db)
                batcher.transactionEnd.events.stage(event, id: id)
                written.append(RecentOutcomes.event(event, id: id, alert: item.alert))
                listed = ",\(id)"
            }
            rows.append("[\(item.rowid),\"\(listed)\"]")
            if item.presenting {
                try WithdrawalRecord.owe(session: item.session, ticket: item.ticket, at: now, in: db)
                recall.withdrawn += 1
                recall.sessions.insert(item.session)
                if policy.settings.recordsEvents, let campaign = item.campaign { withdrawnCopies[campaign, default: 0] += 1 }
            } else {
                recall.cancelled += 1
            }
        }
        let list = "[\(rows.joined(separator: ","))]"
        try RawBinding.execute(RecallSQL.cancel, in: db, bindsAll: true) { statement in
            RawBinding.text(list, to: statement, at: 1)
        }
        for (campaign, count) in withdrawnCopies {
            try CampaignTallies.countEvent(.withdrawn, action: nil, campaign: campaign, count: count, in: db)
        }
        batcher.transactionEnd.onCommit { [recentOutcomes, written] in recentOutcomes.kept(written) }
        return .taken(recall, more: more)
    }

    /// A live item of a recall's scope.
    private struct Picked {
        var rowid: Int64
        var ticket: String
        var session: String
        var presenting: Bool
        var alert: String?
        var campaign: String?
    }

    /// Up to one more than a batch of the scope's live items: the one more tells whether
    /// another batch is left.
    private func pick(_ scope: RecallScope, now: Date, in db: Database) throws -> [Picked] {
        let (sql, key) =
            switch scope {
            case .alert(let alert): (RecallSQL.pickByAlert, alert)
            case .campaign(let campaign): (RecallSQL.pickByCampaign, campaign)
            }
        var picked: [Picked] = []
        picked.reserveCapacity(Self.recallBatch + 1)
        try RawBinding.query(sql, in: db) { statement in
            sqlite3_bind_double(statement, 1, now.timeIntervalSince1970)
            RawBinding.text(key, to: statement, at: 2)
            sqlite3_bind_int64(statement, 3, Int64(Self.recallBatch + 1))
        } row: { row in
            guard let rowid = Int64.fromStatement(row, atUncheckedIndex: 0),
                let ticket = String.fromStatement(row, atUncheckedIndex: 1),
                let session = String.fromStatement(row, atUncheckedIndex: 2),
                let state = String.fromStatement(row, atUncheckedIndex: 3)
            else { return }
            picked.append(
                Picked(
                    rowid: rowid, ticket: ticket, session: session, presenting: state == ItemState.presenting.rawValue,
                    alert: String.fromStatement(row, atUncheckedIndex: 4), campaign: String.fromStatement(row, atUncheckedIndex: 5)))
        }
        return picked
    }
}

/// The recall's statements.
enum RecallSQL {
    /// Live items of an alert (`?2`), but queued ones whose TTL has passed (`?1`: now), at most
    /// `?3`. Its WHERE starts with `items_census_live`'s, word for word, so the partial index
    /// (live items only) is what is read.
    static let pickByAlert = """
        SELECT rowid, ticket, session, state, ?2, campaign_id FROM items INDEXED BY items_census_live
        WHERE state IN ('queued', 'presenting') AND (state = 'presenting' OR expires_at IS NULL OR expires_at > ?1)
            AND json_extract(content, '$.alert') = ?2
        LIMIT ?3
        """

    /// Live copies of a campaign (`?2`), as `pickByAlert`, through `items_campaign_live`.
    static let pickByCampaign = """
        SELECT rowid, ticket, session, state, json_extract(content, '$.alert'), campaign_id FROM items INDEXED BY items_campaign_live
        WHERE campaign_id = ?2 AND campaign_id NOTNULL AND state IN ('queued', 'presenting')
            AND (state = 'presenting' OR expires_at IS NULL OR expires_at > ?1)
        LIMIT ?3
        """

    /// Cancels the live items of `?1`, `[[rowid, ",eventID"], ...]`, appending each one's
    /// event id ("" without timelines). NOT INDEXED: each row is found by its rowid, never
    /// through a partial index the state would make the planner pick.
    static let cancel = """
        UPDATE items NOT INDEXED SET state = 'cancelled', lease_until = NULL, events = events || (j.value ->> 1)
        FROM json_each(?1) AS j
        WHERE items.rowid = j.value ->> 0 AND items.state IN ('queued', 'presenting')
        """
}
