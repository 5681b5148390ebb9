import AlertSpec
import Foundation
import PostgresNIO
import Testing

@testable import AlertQueue
@testable import AlertQueuePostgres

/// `alertd.enqueue_counted`, which inserts a batch of enqueues in one statement for the sessions
/// where `QueuePolicy` would simply insert each one, and holds back the others. Here the function
/// is called directly, on sessions set up through the store, to check its side of that promise:
/// it inserts what it should, and holds back a session in every case where the policy would do
/// more (the store then runs those enqueues the general way; what the answers are in those
/// cases, the shared contract suite checks).
@Suite("PostgreSQL enqueue batch in one statement")
struct PostgresEnqueueAtOnceTests {
    /// One enqueue of a batch.
    struct Enqueue: Sendable {
        var session = AlertQueueTests.session
        var key: String
        var lane = Lane.modal
        var ttl: Double?
    }

    /// Sessions set up through the store, a batch sent at `now`, and the sessions the function
    /// should hold back (it inserts the rest of the batch).
    struct Case: Sendable, CustomTestStringConvertible {
        let testDescription: String
        var maxQueueLength = 100
        var setUp: @Sendable (PostgresQueueStore) async throws -> Void = { _ in }
        let batch: [Enqueue]
        var now = t0
        let heldBack: Set<String>
    }

    static let cases: [Case] = [
        Case(testDescription: "plain enqueues into fresh sessions", batch: [
            Enqueue(key: "a"), Enqueue(session: "s2", key: "b", ttl: 30), Enqueue(session: "s3", key: "c", lane: .hud),
        ], heldBack: []),
        Case(testDescription: "a key live in the session, beside a session it inserts",
            setUp: { _ = try await $0.enqueue(alert("app/x", key: "k"), now: t0) },
            batch: [Enqueue(key: "k"), Enqueue(session: "s2", key: "k"), Enqueue(key: "other")], heldBack: [session]),
        Case(testDescription: "a key live in another session",
            setUp: { _ = try await $0.enqueue(alert("app/x", in: "s2", key: "k"), now: t0) },
            batch: [Enqueue(key: "k")], heldBack: []),
        Case(testDescription: "a key given twice for one session", batch: [Enqueue(key: "k"), Enqueue(key: "k")], heldBack: [session]),
        Case(testDescription: "a key given for two sessions", batch: [Enqueue(key: "k"), Enqueue(session: "s2", key: "k")],
            heldBack: []),
        Case(testDescription: "a HUD where a HUD is queued", setUp: { _ = try await $0.enqueue(hud("app/h"), now: t0) },
            batch: [Enqueue(key: "h2", lane: .hud)], heldBack: [session]),
        Case(testDescription: "a HUD where a HUD presents", setUp: { store in
            _ = try await store.enqueue(hud("app/h"), now: t0)
            _ = try await store.next(session: session, now: t0)
        }, batch: [Enqueue(key: "h2", lane: .hud)], heldBack: []),
        Case(testDescription: "two HUDs for one session, one HUD for another", batch: [
            Enqueue(key: "h1", lane: .hud), Enqueue(session: "s2", key: "h2", lane: .hud), Enqueue(key: "h2", lane: .hud),
        ], heldBack: [session]),
        Case(testDescription: "a queued item whose TTL ended",
            setUp: { _ = try await $0.enqueue(alert("app/t", ttl: 10), now: t0) },
            batch: [Enqueue(key: "a")], now: at(10), heldBack: [session]),
        Case(testDescription: "a queued item whose TTL has not ended",
            setUp: { _ = try await $0.enqueue(alert("app/t", ttl: 10), now: t0) },
            batch: [Enqueue(key: "a")], now: at(9.5), heldBack: []),
        Case(testDescription: "a presenting item whose lease ended", setUp: { store in
            _ = try await store.enqueue(alert("app/p"), now: t0)
            _ = try await store.next(session: session, now: t0)
        }, batch: [Enqueue(key: "a")], now: at(60), heldBack: [session]),
        Case(testDescription: "a presenting item whose lease has not ended", setUp: { store in
            _ = try await store.enqueue(alert("app/p"), now: t0)
            _ = try await store.next(session: session, now: t0)
        }, batch: [Enqueue(key: "a")], now: at(59), heldBack: []),
        Case(testDescription: "more live items than the limit", maxQueueLength: 2,
            setUp: { _ = try await $0.enqueue(alert("app/x"), now: t0) },
            batch: [Enqueue(key: "a"), Enqueue(key: "b")], heldBack: [session]),
        Case(testDescription: "as many live items as the limit", maxQueueLength: 3,
            setUp: { _ = try await $0.enqueue(alert("app/x"), now: t0) },
            batch: [Enqueue(key: "a"), Enqueue(key: "b")], heldBack: []),
        Case(testDescription: "one session twice, one enqueue with a TTL", batch: [Enqueue(key: "a", ttl: 5), Enqueue(key: "b")],
            heldBack: [session]),
        Case(testDescription: "one session twice, no TTL", batch: [Enqueue(key: "a"), Enqueue(key: "b")], heldBack: []),
    ]

    @Test("The function holds back exactly the sessions where the policy would do more than insert", arguments: cases)
    func insertsOnlyWhatThePolicyWould(_ example: Case) async throws {
        // Given
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open(settings: QueueSettings(maxQueueLength: example.maxQueueLength))
        try await store.migrate()
        try await example.setUp(store)
        let before = try await count(store)
        // When
        let tickets = example.batch.indices.map { "ticket-\($0)" }
        let heldBack = try await enqueueItems(example.batch, tickets: tickets, now: example.now, store: store)
        // Then
        #expect(heldBack == example.heldBack)
        let inserted = example.batch.filter { !example.heldBack.contains($0.session) }.count
        #expect(try await count(store) == before + inserted)
    }

    @Test("An inserted batch is queued in its order, at its time, each expiry its TTL after it")
    func insertedItems() async throws {
        // Given
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open()
        try await store.migrate()
        let batch = [Enqueue(key: "a"), Enqueue(session: "s2", key: "b", ttl: 30), Enqueue(key: "c", lane: .toast)]
        // When
        #expect(try await enqueueItems(batch, tickets: ["t-a", "t-b", "t-c"], now: at(5), store: store).isEmpty)
        // Then
        let first = try await store.items(session: session, now: at(5))
        #expect(first.map(\.ticket) == ["t-a", "t-c"])
        #expect(first.allSatisfy { $0.state == .queued && $0.enqueuedAt == at(5) && $0.expiresAt == nil && $0.deliveries == 0 })
        #expect(first.map(\.lane) == [.modal, .toast])
        #expect(first[0].sequence < first[1].sequence)
        let second = try #require(try await store.items(session: "s2", now: at(5)).first)
        #expect(second.expiresAt == at(5).addingTimeInterval(30))
        #expect(second.dedupeKey == "b")
        #expect(second.sequence > first[0].sequence && second.sequence < first[1].sequence)
    }

    @Test("A batch through the store answers each member as the policy does, held back or not")
    func batchThroughTheStore() async throws {
        // Given: a live key and a queued HUD in the session
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open()
        let live = try await store.enqueue(alert("app/x", key: "k"), now: t0).item
        _ = try await store.enqueue(hud("app/h"), now: t0)
        // When: one batch with a duplicate and a HUD there (held back), and two other sessions
        let results = try await store.enqueueAsOneBatch(
            [alert("app/again", key: "k"), alert("app/a", in: "s2"), hud("app/h2"), alert("app/b", in: "s3", ttl: 30)], now: at(1))
        // Then
        #expect(!results[0].created)
        #expect(results[0].item.ticket == live.ticket)
        #expect(results[1].created && results[1].position == 1)
        #expect(results[2].created && results[2].item.lane == .hud)
        #expect(results[3].created && results[3].item.expiresAt == at(31))
        #expect(try await store.listedIDs(now: at(1)) == ["app/x", "app/h2"])
        #expect(try await store.listedIDs(session: "s2", now: at(1)) == ["app/a"])
        #expect(try await store.items(session: "s3", now: at(1)).map(\.expiresAt) == [at(31)])
    }

    @Test("A scheduled enqueue in a batch runs the general way and keeps its time; the others are inserted at once")
    func scheduledInABatch() async throws {
        // Given
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open()
        // When: one batch, a scheduled item of the session between two of other sessions
        let results = try await store.enqueueAsOneBatch(
            [alert("app/a", in: "s2"), scheduled(alert("app/later", ttl: 10), .after(seconds: 60)), alert("app/b", in: "s3")], now: at(1))
        // Then
        #expect(results.map(\.created) == [true, true, true])
        #expect(results[1].item.notBefore == at(61) && results[1].item.expiresAt == at(71))
        let stored = try await store.item(session: session, ticket: results[1].item.ticket)
        #expect(stored?.notBefore == at(61) && stored?.expiresAt == at(71))
        #expect(try await store.next(session: session, now: at(60)) == nil)
        #expect(try await store.next(session: session, now: at(61))?.ticket == results[1].item.ticket)
        #expect(try await store.next(session: "s2", now: at(1))?.alertID == "app/a")
    }

    /// Calls `alertd.enqueue_counted` as the store does with the caller's clock; the sessions it held back.
    private func enqueueItems(
        _ batch: [Enqueue], tickets: [String], now: Date, store: PostgresQueueStore
    ) async throws -> Set<String> {
        let content = #"{"alert":"app/x","params":{}}"#
        let expires = batch.map { enqueue in enqueue.ttl.map { now.addingTimeInterval($0).timeIntervalSince1970 } ?? .nan }
        let rows = try await store.pool.query(
            """
            SELECT o_held_back FROM alertd.enqueue_counted(\(BinaryArray(tickets))::text[], \
            \(BinaryArray(batch.map(\.session)))::text[], \(BinaryArray(batch.map { _ in content }))::text[], \
            \(BinaryArray(batch.map { _ in Int64(500) }))::bigint[], \(BinaryArray(batch.map(\.lane.rawValue)))::text[], \
            \(BinaryArray(batch.map(\.key)))::text[], \(BinaryArray(batch.map { $0.ttl ?? .nan }))::float8[], \
            \(BinaryArray(expires))::float8[], \(BinaryArray(batch.map { _ in false }))::boolean[], \
            \(BinaryArray(batch.map { _ in now.timeIntervalSince1970 }))::float8[], \(store.policy.settings.maxQueueLength)::integer)
            """)
        return Set(try #require(rows.first).decode([String].self))
    }

    private func count(_ store: PostgresQueueStore) async throws -> Int {
        try #require(try await store.pool.query("SELECT count(*)::int FROM alertd.items").first).decode(Int.self)
    }
}
