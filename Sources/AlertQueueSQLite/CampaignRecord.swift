import AlertQueue
import Foundation
import GRDB
import GRDBSQLite

/// The `campaigns` table, one row per campaign, its explicit audience in `campaign_sessions`
/// (position and session: paged by position, asked by session; a session's erasure deletes it
/// from every list), and `items.campaign_id`: a
/// copy's campaign, unique per session (`items_campaign`: no session gets two copies) and
/// indexed among live items (`items_campaign_live`: what a recall reads).
enum CampaignRecord {
    static let schema = """
        CREATE TABLE campaigns (
            id TEXT PRIMARY KEY,
            template TEXT NOT NULL,
            audience TEXT NOT NULL,
            state TEXT NOT NULL,
            created_at DOUBLE NOT NULL,
            finished_at DOUBLE,
            cursor TEXT,
            targeted INTEGER NOT NULL DEFAULT 0,
            queued INTEGER NOT NULL DEFAULT 0,
            duplicates INTEGER NOT NULL DEFAULT 0,
            refused INTEGER NOT NULL DEFAULT 0);
        CREATE INDEX campaigns_created ON campaigns(created_at, id);
        CREATE INDEX campaigns_running ON campaigns(id) WHERE state = 'running';
        CREATE TABLE campaign_sessions (
            campaign TEXT NOT NULL,
            position INTEGER NOT NULL,
            session TEXT NOT NULL,
            PRIMARY KEY (campaign, position)) WITHOUT ROWID;
        CREATE INDEX campaign_sessions_member ON campaign_sessions(campaign, session);
        CREATE INDEX campaign_sessions_session ON campaign_sessions(session);
        ALTER TABLE items ADD COLUMN campaign_id TEXT;
        CREATE UNIQUE INDEX items_campaign ON items(campaign_id, session) WHERE campaign_id NOTNULL;
        CREATE INDEX items_campaign_live ON items(campaign_id) WHERE campaign_id NOTNULL AND state IN ('queued', 'presenting');
        """

    static let columns = "id, template, audience, state, created_at, finished_at, targeted, queued, duplicates, refused, cursor"

    /// The campaign of a row selecting `columns`, and its cursor.
    static func campaign(_ row: Row) throws -> (Campaign, cursor: String?) {
        let state: String = row[3]
        guard let known = CampaignState(rawValue: state) else { throw UnreadableContent(reason: "a campaign's state \(state)") }
        let campaign = Campaign(
            id: row[0], template: try StoredCampaign.template(json: row[1]), audience: try StoredCampaign.audience(json: row[2]),
            state: known, createdAt: Date(timeIntervalSince1970: row[4]),
            finishedAt: (row[5] as Double?).map(Date.init(timeIntervalSince1970:)), targeted: row[6], queued: row[7],
            duplicates: row[8], refused: row[9])
        return (campaign, row[10])
    }

    static func fetch(_ id: String, in db: Database) throws -> (Campaign, cursor: String?)? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(columns) FROM campaigns WHERE id = ?"), arguments: [id]).map(campaign)
    }

    static func insert(_ campaign: Campaign, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO campaigns (id, template, audience, state, created_at) VALUES (?, ?, ?, 'running', ?)
                """,
            arguments: [
                campaign.id, try StoredCampaign.json(template: campaign.template, now: campaign.createdAt),
                try StoredCampaign.json(audience: campaign.audience), campaign.createdAt.timeIntervalSince1970,
            ])
        if case .sessions(let sessions) = campaign.audience {
            let statement = try db.cachedStatement(sql: "INSERT INTO campaign_sessions (campaign, position, session) VALUES (?, ?, ?)")
            for (position, session) in sessions.enumerated() {
                try statement.execute(arguments: [campaign.id, position, session])
            }
        }
    }

    /// For each of `sessions`: its live items (`live_counts`), and whether one of them has
    /// `dedupeKey` (`items_live_dedupe`, whose WHERE the query repeats word for word).
    static func counts(of sessions: [String], dedupeKey: String, in db: Database) throws -> [String: (live: Int, holder: Bool)] {
        guard !sessions.isEmpty else { return [:] }
        var counts: [String: (live: Int, holder: Bool)] = [:]
        counts.reserveCapacity(sessions.count)
        try RawBinding.query(countsSQL, in: db, bindsAll: true) { statement in
            RawBinding.text(JSONList.of(sessions), to: statement, at: 1)
            RawBinding.text(dedupeKey, to: statement, at: 2)
        } row: { row in
            guard let session = String.fromStatement(row, atUncheckedIndex: 0) else { return }
            counts[session] = (Int(sqlite3_column_int64(row, 1)), sqlite3_column_int64(row, 2) != 0)
        }
        return counts
    }

    private static let countsSQL = """
        SELECT j.value, (SELECT coalesce(sum(n), 0) FROM live_counts WHERE session = j.value),
            EXISTS (SELECT 1 FROM items WHERE session = j.value AND dedupe_key = ?2 AND state IN ('queued', 'presenting'))
        FROM json_each(?1) j
        """

    /// Whether the session has a copy of the campaign already (`items_campaign`).
    static func hasCopy(campaign: String, session: String, in db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: hasCopySQL), arguments: [campaign, session]) ?? false
    }

    private static let hasCopySQL = "SELECT EXISTS (SELECT 1 FROM items WHERE campaign_id = ? AND session = ? AND campaign_id NOTNULL)"
}
