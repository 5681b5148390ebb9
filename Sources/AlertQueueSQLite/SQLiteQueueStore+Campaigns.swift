import AlertQueue
import AlertSpec
import Foundation
import GRDB

// Campaigns on SQLite: rows in `campaigns` (see `CampaignRecord`); the fan-out is in
// `SQLiteQueueStore+FanOut`.
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
