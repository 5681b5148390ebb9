import AlertQueue
import AlertSpec
import Foundation
import GRDB

// Campaigns on SQLite: rows in `campaigns`, the fan-out a batch per write (see `CampaignRecord`).
// Reads run on the calling thread (`read`), not through GRDB's async `read`: the runner's
// are cancelled when the server stops, and a cancelled async read could still hold a reader
// as the store closed, which then kept its write-ahead log.

extension SQLiteQueueStore: CampaignStore {
    public func createCampaign(_ campaign: Campaign) async throws {
        do {
            try await write { db in try CampaignRecord.insert(campaign, in: db) }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
            throw CampaignError.exists(campaign.id)
        }
    }

    public func campaign(id: String) async throws -> Campaign? {
        try read { db in try CampaignRecord.fetch(id, in: db)?.0 }
    }

    public func campaigns(before: String?, limit: Int) async throws -> [Campaign] {
        try read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(CampaignRecord.columns) FROM campaigns
                    WHERE ?1 IS NULL OR (created_at, id) < (SELECT created_at, id FROM campaigns WHERE id = ?1)
                    ORDER BY created_at DESC, id DESC LIMIT ?2
                    """, arguments: [before, limit])
            return try rows.map { try CampaignRecord.campaign($0).0 }
        }
    }

    public func runningCampaigns() async throws -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT id FROM campaigns WHERE state = 'running' ORDER BY id") }
    }

    /// Batches of 256 sessions, each a background write (after the live writes waiting, with no
    /// flush of its own). Background writes alternate with the batches of live writes, each
    /// flushed: with 16 a batch the fan-out made 8,000 items/s, with 256 over 20,000, at about
    /// 12 ms of the writer a batch (`make bench-campaigns`). A crash of the machine may take back
    /// the last batches, items and cursor together, and the fan-out does them again.
    public var fanOutBatch: Int { 256 }

    public func fanOut(campaign id: String, first: [String], limit: Int, now: Date) async throws -> FanOut {
        let tickets = (0..<(first.count + limit)).map { _ in QueueTicket.make(at: now) }
        return try await write(background: true) { db in
            guard let (campaign, cursor) = try CampaignRecord.fetch(id, in: db), campaign.state == .running else {
                return FanOut(finished: true)
            }
            let audience = AudienceSQL(campaign: campaign, db: db)
            var targets: [String] = []
            var chosen: Set<String> = []
            for session in first where targets.count < limit && !chosen.contains(session) {
                guard try audience.contains(session), try !CampaignRecord.hasCopy(campaign: id, session: session, in: db) else { continue }
                targets.append(session)
                chosen.insert(session)
            }
            let wanted = limit - targets.count
            let (page, next) = wanted > 0 ? try audience.page(after: cursor, limit: wanted) : ([], cursor)
            for session in page where !chosen.contains(session) {
                guard try !CampaignRecord.hasCopy(campaign: id, session: session, in: db) else { continue }
                targets.append(session)
                chosen.insert(session)
            }
            var batch = FanOut(finished: wanted > 0 && page.count < wanted)
            let counts = try CampaignRecord.counts(of: targets, dedupeKey: campaign.template.dedupeKey, in: db)
            for (session, ticket) in zip(targets, tickets) {
                let copy = campaign.copy(for: session)
                // Most sessions hold no live item with the copy's key and have room: the copy is
                // only inserted, which the counts alone tell (as `enqueue_counted` does on
                // PostgreSQL), and no item is read. The others go the enqueue's whole way.
                if copy.lane != .hud, let count = counts[session], !count.holder, count.live < policy.settings.maxQueueLength {
                    let item = policy.makeItem(copy, ticket: ticket, sequence: try sequences.next(in: db), now: now)
                    var items = SessionItems(
                        session: session, items: [], unloaded: .init(window: [], live: count.live, positioned: [(item, 0)]))
                    _ = try policy.enqueue(item, into: &items, now: now, onDuplicate: copy.onDuplicate, origin: copy.origin)
                    try save(items, in: db)
                    batch.queued.append(session)
                    continue
                }
                do {
                    let queued = try self.enqueue(copy, ticket: ticket, now: now, in: db, seeingLiveItems: true, delivering: false)
                    if queued.enqueued.created { batch.queued.append(session) } else { batch.duplicates += 1 }
                } catch let error as QueueError where error.kind == .queueFull {
                    batch.refused += 1
                }
            }
            try db.execute(
                sql: """
                    UPDATE campaigns SET cursor = ?2, targeted = targeted + ?3, queued = queued + ?4, duplicates = duplicates + ?5,
                        refused = refused + ?6,
                        state = CASE WHEN ?7 THEN 'done' ELSE state END, finished_at = CASE WHEN ?7 THEN ?8 ELSE finished_at END
                    WHERE id = ?1
                    """,
                arguments: [id, next, targets.count, batch.queued.count, batch.duplicates, batch.refused, batch.finished, now.timeIntervalSince1970])
            return batch
        }
    }

    public func progress(campaign id: String) async throws -> CampaignProgress? {
        try read { db in
            guard try CampaignRecord.fetch(id, in: db) != nil else { return nil }
            return try CampaignTallies.progress(of: id, in: db)
        }
    }

    public func recall(campaign id: String, now: Date) async throws -> Recall? {
        let known = try await write { db -> Bool in
            try db.execute(
                sql: "UPDATE campaigns SET state = 'recalled', finished_at = coalesce(finished_at, ?2) WHERE id = ?1",
                arguments: [id, now.timeIntervalSince1970])
            return db.changesCount > 0
        }
        guard known else { return nil }
        return try await recall(.campaign(id), now: now)
    }
}
