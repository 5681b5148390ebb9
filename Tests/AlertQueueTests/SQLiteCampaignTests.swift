import AlertSpec
import Foundation
import GRDB
import Locking
import Testing

import AlertQueue
@testable import AlertQueueSQLite

/// Campaigns on SQLite: the copy delivered to a waiting poll in the fan-out's own transaction,
/// and the progress read from tallies (kept as copies change, filled for campaigns made before
/// the tallies existed, kept past a session's erasure).
@Suite("SQLite campaigns")
struct SQLiteCampaignTests {
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
            for trigger in ["insert", "move", "erase"] { try db.execute(sql: "DROP TRIGGER campaign_tallies_\(trigger)") }
            try db.execute(sql: "DROP TABLE campaign_tallies")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier IN ('campaignTallies', 'campaignEventsCountedBySteps')")
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

    @Test("Sessions whose polls were claimed get the copy delivered in the batch; the others only queued")
    func deliversToClaimedPolls() async throws {
        let (path, remove) = try temporaryDatabasePath()
        defer { remove() }
        let store = try SQLiteQueueStore(path: path)
        defer { try? store.close() }
        try await store.createCampaign(promo("promo", to: ["a", "b", "c", "w"]))
        _ = try await store.enqueue(alert("app/other", in: "b", priority: 900), now: t0)
        _ = try await store.next(session: "b", now: t0)
        // w showed a copy its user answered on another device: it is owed the withdraw
        var copies = [alert("app/group", in: "w"), alert("app/group", in: "w2")]
        for index in copies.indices { copies[index].group = "g" }
        let tickets = try await store.enqueue(copies: copies, now: t0).map { try $0.get().item.ticket }
        for session in ["w", "w2"] { _ = try await store.next(session: session, now: t0) }
        _ = try await store.acknowledge(session: "w2", ticket: tickets[1], input: nil, now: t0) { _ in AckAnswer() }
        // When: a's, b's and w's polls wait, b's lane busy with another alert; x is not in the audience
        let batch = try await store.fanOut(
            campaign: "promo", first: ["a", "b", "w", "x"], limit: 10, delivering: ["a", "b", "w", "x"], now: at(1))
        // Then
        #expect(batch.queued == ["a", "b", "w", "c"])
        #expect(batch.delivered.keys.sorted() == ["a"])
        let shown = try #require(batch.delivered["a"])
        #expect(shown.state == .presenting && shown.deliveries == 1 && shown.content == .alert(id: "app/promo", parameters: [:]))
        #expect(try await store.items(session: "a", now: at(1)).map(\.state) == [.presenting])
        #expect(try await store.items(session: "c", now: at(1)).map(\.state) == [.queued])
        #expect(try await store.next(session: "a", now: at(2)) == nil)
        #expect(try await store.nextDelivery(session: "w", now: at(2)) == .withdraw(ticket: tickets[0]))
        var progress = CampaignProgress()
        progress.queued = 3
        progress.presenting = 1
        progress.delivered = 1
        #expect(try await store.progress(campaign: "promo") == progress)
    }

    @Test("A batch gives the writer back once a live write waits; the next batches go on from where it stopped")
    func batchYieldsToLiveWrites() async throws {
        let (path, remove) = try temporaryDatabasePath()
        defer { remove() }
        let store = try SQLiteQueueStore(path: path)
        defer { try? store.close() }
        let sessions = (0..<100).map { String(format: "s%03d", $0) }
        try await store.createCampaign(promo("promo", to: sessions + ["s005"]))
        // Given: the batch waiting behind live writes (a background write runs after one batch
        // of them), and another live write arriving meanwhile
        let holder = WriterHolder(store)
        try await holder.hold()
        let waiting = Array(sessions.suffix(80).reversed())
        let first = Task { try await store.fanOut(campaign: "promo", first: waiting, limit: 80, now: t0) }
        while store.batcher.backgroundBacklog == 0 { await Task.yield() }
        let next = WriterHolder(store)
        async let nextHeld: Void = next.hold()
        while store.batcher.backlog == 0 { await Task.yield() }
        try await holder.release()
        try await nextHeld
        let live = Task { try await store.enqueue(alert("app/live", in: "other"), now: t0) }
        while store.batcher.backlog == 0 { await Task.yield() }
        // When
        try await next.release()
        let batch = try await first.value
        _ = try await live.value
        // Then: the batch stopped after its least; the next ones reach the rest, every session once
        #expect(batch.queued == Array(waiting.prefix(SQLiteQueueStore.fanOutYieldAfter)))
        #expect(batch.unreached == Array(waiting.dropFirst(SQLiteQueueStore.fanOutYieldAfter)))
        #expect(!batch.finished)
        var queued = batch.queued
        var again = batch.unreached
        while true {
            let next = try await store.fanOut(campaign: "promo", first: again, limit: 1_000, now: t0)
            again = []
            queued += next.queued
            if next.finished { break }
        }
        #expect(queued.count == 100 && Set(queued) == Set(sessions))
        #expect(try await store.campaign(id: "promo")?.targeted == 100)
    }
}

/// A live write that holds the writer until released.
private final class WriterHolder: Sendable {
    private let store: SQLiteQueueStore
    private let running = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)
    private let task = Locked<Task<Void, any Error>?>(nil)

    init(_ store: SQLiteQueueStore) { self.store = store }

    /// Returns once the write runs.
    func hold() async throws {
        let write = Task { [store, running, released] in try await store.write { _ in running.signal(); released.wait() } }
        task.withLock { $0 = write }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { [running] in running.wait(); continuation.resume() }
        }
    }

    /// Lets the write commit, and returns once it has.
    func release() async throws {
        released.signal()
        try await task.withLock { $0 }?.value
    }
}

@Suite("SQLite JSON lists")
struct JSONListTests {
    @Test("A list written by hand reads back through json_each, quotes, backslashes, control characters and all")
    func roundTrip() throws {
        let strings = ["plain", "", "quote \" and \\ backslash", "tab\tnew\nline\u{1}", "ünï 🐙", "a/b"]
        let read = try DatabaseQueue().read { db in
            try String.fetchAll(db, sql: "SELECT value FROM json_each(?) ORDER BY key", arguments: [JSONList.of(strings)])
        }
        #expect(read == strings)
        #expect(JSONList.of([String]()) == "[]")
    }
}
