import AlertSpec
import Foundation
import GRDB
import Testing

import AlertQueue
@testable import AlertQueueSQLite

/// A campaign's progress on SQLite, read from its tallies: kept as copies change, filled for
/// campaigns made before the tallies existed, and kept past a session's erasure.
@Suite("SQLite campaign tallies")
struct SQLiteCampaignTallyTests {
    private func promo(_ id: String, to sessions: [String]) -> Campaign {
        var template = alert("app/promo", in: "", ttl: 3600)
        template.origin = .campaign
        return Campaign(id: id, template: template, audience: .sessions(sessions), createdAt: t0)
    }

    /// Fans `id` out to its end, delivers it to `a` and `b`, and has `a` answer "ok".
    private func answered(_ id: String, in store: SQLiteQueueStore) async throws {
        while try await !store.fanOut(campaign: id, first: [], limit: 2, now: t0).finished {}
        for session in ["a", "b"] { _ = try await store.next(session: session, now: at(1)) }
        let shown = try #require(try await store.items(session: "a", now: at(1)).first)
        _ = try await store.acknowledge(session: "a", ticket: shown.ticket, input: nil, now: at(2)) { _ in
            AckAnswer(action: "ok", role: "primary")
        }
    }

    private var expected: CampaignProgress {
        var progress = CampaignProgress()
        progress.queued = 1
        progress.presenting = 1
        progress.delivered = 2
        progress.answered = 1
        progress.actions = ["ok": 1]
        return progress
    }

    @Test("A campaign made before the tallies existed counts its copies and answers once they are filled")
    func migrationFillsTallies() async throws {
        // Given: a campaign answered on a, shown on b, queued on c, then the file as it was before the tallies
        let (path, remove) = try temporaryDatabasePath()
        defer { remove() }
        do {
            let store = try SQLiteQueueStore(path: path)
            try await store.createCampaign(promo("old", to: ["a", "b", "c"]))
            try await answered("old", in: store)
            try store.close()
        }
        let old = try DatabaseQueue(path: path)
        try await old.write { db in
            for trigger in ["insert", "move", "erase", "event"] { try db.execute(sql: "DROP TRIGGER campaign_tallies_\(trigger)") }
            try db.execute(sql: "DROP TABLE campaign_tallies")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'campaignTallies'")
        }
        try old.close()
        // When
        let store = try SQLiteQueueStore(path: path)
        defer { try? store.close() }
        // Then
        #expect(try await store.progress(campaign: "old") == expected)
    }

    @Test("An erased session's live copy counts as cancelled; its answered copy stays answered")
    func erasureKeepsCounts() async throws {
        let (path, remove) = try temporaryDatabasePath()
        defer { remove() }
        let store = try SQLiteQueueStore(path: path)
        defer { try? store.close() }
        try await store.createCampaign(promo("promo", to: ["a", "b", "c"]))
        try await answered("promo", in: store)
        #expect(try await store.progress(campaign: "promo") == expected)
        // When: a (answered) and b (presenting) are erased
        _ = try await store.erase(session: "a")
        _ = try await store.erase(session: "b")
        // Then
        var progress = expected
        progress.presenting = 0
        progress.cancelled = 1
        #expect(try await store.progress(campaign: "promo") == progress)
    }
}
