import AlertQueue
import Foundation
import PostgresNIO

// Campaigns on PostgreSQL: rows in `alertd.campaigns`; each fan-out batch one transaction that
// locks its campaign's row first, so instances take turns and a batch is never run twice.

extension PostgresQueueStore: CampaignStore {
    /// The tables (see `CampaignRecord` of the SQLite store: the same shape).
    static let campaignsSchema: [PostgresQuery] = [
        """
        CREATE TABLE alertd.campaigns (
            id text PRIMARY KEY,
            template text NOT NULL,
            audience text NOT NULL,
            state text NOT NULL,
            created_at double precision NOT NULL,
            finished_at double precision,
            cursor text,
            targeted bigint NOT NULL DEFAULT 0,
            queued bigint NOT NULL DEFAULT 0,
            duplicates bigint NOT NULL DEFAULT 0,
            refused bigint NOT NULL DEFAULT 0)
        """,
        "CREATE INDEX campaigns_created ON alertd.campaigns (created_at, id)",
        "CREATE INDEX campaigns_running ON alertd.campaigns (id) WHERE state = 'running'",
        """
        CREATE TABLE alertd.campaign_sessions (
            campaign text NOT NULL,
            position integer NOT NULL,
            session text NOT NULL,
            PRIMARY KEY (campaign, position))
        """,
        "CREATE INDEX campaign_sessions_member ON alertd.campaign_sessions (campaign, session)",
        "CREATE INDEX campaign_sessions_session ON alertd.campaign_sessions (session)",
        "ALTER TABLE alertd.items ADD COLUMN campaign_id text",
        "CREATE UNIQUE INDEX items_campaign ON alertd.items (campaign_id, session) WHERE campaign_id IS NOT NULL",
        """
        CREATE INDEX items_campaign_live ON alertd.items (campaign_id)
        WHERE campaign_id IS NOT NULL AND state IN ('queued', 'presenting')
        """,
    ]

    static let campaignColumns = "id, template, audience, state, created_at, finished_at, targeted, queued, duplicates, refused, cursor"

    private static func campaign(_ row: PostgresRow) throws -> (Campaign, cursor: String?) {
        let (id, template, audience, state, createdAt, finishedAt, targeted, queued, duplicates, refused, cursor) = try row.decode(
            (String, String, String, String, Double, Double?, Int, Int, Int, Int, String?).self)
        guard let known = CampaignState(rawValue: state) else { throw PostgresStoreError.unreadableRow("a campaign's state \(state)") }
        let campaign = Campaign(
            id: id, template: try StoredCampaign.template(json: template), audience: try StoredCampaign.audience(json: audience),
            state: known, createdAt: Date(timeIntervalSince1970: createdAt), finishedAt: finishedAt.map(Date.init(timeIntervalSince1970:)),
            targeted: targeted, queued: queued, duplicates: duplicates, refused: refused)
        return (campaign, cursor)
    }

    public func createCampaign(_ campaign: Campaign) async throws {
        let template = try StoredCampaign.json(template: campaign.template, now: campaign.createdAt)
        let audience = try StoredCampaign.json(audience: campaign.audience)
        let sessions: [String] = if case .sessions(let sessions) = campaign.audience { sessions } else { [] }
        let created = try await perform { connection in
            try await connection.transaction(logger: self.logger) { connection -> Bool in
                let inserted = try await connection.query(
                    """
                    INSERT INTO alertd.campaigns (id, template, audience, state, created_at)
                    VALUES (\(campaign.id), \(template), \(audience), 'running', \(campaign.createdAt.timeIntervalSince1970))
                    ON CONFLICT (id) DO NOTHING RETURNING 1
                    """, logger: self.logger
                ).collect()
                guard !inserted.isEmpty else { return false }
                try await connection.query(
                    """
                    INSERT INTO alertd.campaign_sessions (campaign, position, session)
                    SELECT \(campaign.id), (u.ord - 1)::integer, u.session
                    FROM unnest(\(BinaryArray(sessions))::text[]) WITH ORDINALITY AS u(session, ord)
                    """, logger: self.logger)
                return true
            }
        }
        guard created else { throw CampaignError.exists(campaign.id) }
    }

    public func campaign(id: String) async throws -> Campaign? {
        try await perform { connection in
            let rows = try await connection.query(
                "SELECT \(unescaped: Self.campaignColumns) FROM alertd.campaigns WHERE id = \(id)", logger: self.logger
            ).collect()
            return try rows.first.map { try Self.campaign($0).0 }
        }
    }

    public func campaigns(before: String?, limit: Int) async throws -> [Campaign] {
        try await perform { connection in
            let rows = try await connection.query(
                """
                SELECT \(unescaped: Self.campaignColumns) FROM alertd.campaigns
                WHERE \(before)::text IS NULL OR (created_at, id) < (SELECT created_at, id FROM alertd.campaigns WHERE id = \(before))
                ORDER BY created_at DESC, id DESC LIMIT \(limit)
                """, logger: self.logger
            ).collect()
            return try rows.map { try Self.campaign($0).0 }
        }
    }

    /// One batch, one transaction of a few round trips whatever its size (`insertFannedOutCopies`).
    /// 1,000 rather than 500: a batch's fixed cost (round trips, commit) was a third of a 500-copy
    /// batch; a live write to a session of the batch waits for its commit (about 35 ms on 2 cores).
    public var fanOutBatch: Int { 1_000 }

    public func runningCampaigns() async throws -> [String] {
        try await perform { connection in
            try await connection.query("SELECT id FROM alertd.campaigns WHERE state = 'running' ORDER BY id", logger: self.logger)
                .collect().map { try $0.decode(String.self) }
        }
    }

    public func fanOut(campaign id: String, first: [String], limit: Int, now: Date) async throws -> FanOut {
        let batch = try await perform { connection in
            try await connection.transaction(logger: self.logger) { connection -> FanOut in
                let rows = try await connection.query(
                    "SELECT \(unescaped: Self.campaignColumns) FROM alertd.campaigns WHERE id = \(id) FOR UPDATE", logger: self.logger
                ).collect()
                guard let row = rows.first else { return FanOut(finished: true) }
                let (campaign, cursor) = try Self.campaign(row)
                guard campaign.state == .running else { return FanOut(finished: true) }
                let audience = PostgresAudience(campaign: campaign, connection: connection, logger: self.logger)
                var targets: [String] = []
                var chosen: Set<String> = []
                if !first.isEmpty {
                    for session in try await audience.withoutCopies(try await audience.members(of: first)) where targets.count < limit {
                        if chosen.insert(session).inserted { targets.append(session) }
                    }
                }
                let wanted = limit - targets.count
                let (page, next) = wanted > 0 ? try await audience.page(after: cursor, limit: wanted) : ([], cursor)
                for session in try await audience.withoutCopies(page) where chosen.insert(session).inserted {
                    targets.append(session)
                }
                var batch = FanOut(finished: wanted > 0 && page.count < wanted)
                let results = try await self.insertFannedOutCopies(targets.map(campaign.copy), now: now, on: connection)
                for (session, result) in zip(targets, results) {
                    switch result {
                    case .success(let queued) where queued.created: batch.queued.append(session)
                    case .success: batch.duplicates += 1
                    case .failure: batch.refused += 1
                    }
                }
                try await connection.query(
                    """
                    UPDATE alertd.campaigns SET cursor = \(next), targeted = targeted + \(targets.count),
                        queued = queued + \(batch.queued.count), duplicates = duplicates + \(batch.duplicates),
                        refused = refused + \(batch.refused),
                        state = CASE WHEN \(batch.finished) THEN 'done' ELSE state END,
                        finished_at = CASE WHEN \(batch.finished) THEN \(now.timeIntervalSince1970)::float8 ELSE finished_at END
                    WHERE id = \(id)
                    """, logger: self.logger)
                return batch
            }
        }
        notifier.gather(batch.queued)
        return batch
    }

    public func progress(campaign id: String) async throws -> CampaignProgress? {
        try await perform { connection in
            let known = try await connection.query("SELECT 1 FROM alertd.campaigns WHERE id = \(id)", logger: self.logger).collect()
            guard !known.isEmpty else { return nil }
            var progress = CampaignProgress()
            var ended = 0
            let states = try await connection.query(
                "SELECT state, deliveries > 0, count(*)::bigint FROM alertd.items WHERE campaign_id = \(id) GROUP BY 1, 2",
                logger: self.logger
            ).collect()
            for row in states {
                let (state, delivered, count) = try row.decode((String, Bool, Int).self)
                progress.add(state: state, delivered: delivered, count: count)
                if state == "done" || state == "cancelled" { ended += count }
            }
            // Acks and withdrawals end a copy (done, cancelled): only those copies' timelines are
            // read, none while a campaign is still fanning out (every copy's, 20 ms at 20,000).
            guard ended > 0 else { return progress }
            let events = try await connection.query(
                """
                SELECT e.type, coalesce(e.detail->>'action', ''), count(*)::bigint
                FROM alertd.items AS i JOIN alertd.events AS e ON e.session = i.session AND e.ticket = i.ticket
                WHERE i.campaign_id = \(id) AND i.state IN ('done', 'cancelled') AND e.type IN ('acknowledged', 'withdrawn')
                GROUP BY 1, 2
                """, logger: self.logger
            ).collect()
            for row in events {
                let (type, action, count) = try row.decode((String, String, Int).self)
                progress.add(event: type, action: action, count: count)
            }
            return progress
        }
    }

    public func recall(campaign id: String, now: Date) async throws -> Recall? {
        let known = try await perform { connection in
            try await connection.query(
                """
                UPDATE alertd.campaigns SET state = 'recalled', finished_at = coalesce(finished_at, \(now.timeIntervalSince1970)::float8)
                WHERE id = \(id) RETURNING 1
                """, logger: self.logger
            ).collect().count == 1
        }
        guard known else { return nil }
        return try await recall(.campaign(id), now: now)
    }
}
