import AlertSpec
import Foundation
import PostgresNIO
import Testing

@testable import AlertQueue
@testable import AlertQueuePostgres

/// A fan-out batch's copies in one statement (`alertd.enqueue_copies`): inserted with their
/// group and campaign where the policy would simply insert them, held back (nothing written)
/// where it would do more, and the held-back ones then queued the general way in the same
/// transaction.
@Suite("PostgreSQL copies in one statement")
struct PostgresCopiesAtOnceTests {
    /// Sessions set up through the store, a copy of `template` for each of `sessions` sent at
    /// `now`, and the sessions the function should hold back.
    struct Case: Sendable, CustomTestStringConvertible {
        let testDescription: String
        var maxQueueLength = 100
        var setUp: @Sendable (PostgresQueueStore) async throws -> Void = { _ in }
        var template = alert("app/promo")
        var sessions = [session, "s2"]
        var now = t0
        let heldBack: Set<String>
    }

    static let cases: [Case] = [
        Case(testDescription: "fresh sessions", heldBack: []),
        Case(testDescription: "the copy's key live in a session",
            setUp: { _ = try await $0.enqueue(alert("app/promo"), now: t0) }, heldBack: [session]),
        Case(testDescription: "a HUD copy where a HUD is queued", setUp: { _ = try await $0.enqueue(hud("app/h"), now: t0) },
            template: hud("app/promo"), heldBack: [session]),
        Case(testDescription: "a queued item whose TTL ended",
            setUp: { _ = try await $0.enqueue(alert("app/t", ttl: 10), now: t0) }, now: at(10), heldBack: [session]),
        Case(testDescription: "a full queue", maxQueueLength: 1,
            setUp: { _ = try await $0.enqueue(alert("app/x"), now: t0) }, heldBack: [session]),
        Case(testDescription: "a queue with room left", maxQueueLength: 2,
            setUp: { _ = try await $0.enqueue(alert("app/x"), now: t0) }, heldBack: []),
    ]

    @Test("The function holds back exactly the sessions where the policy would do more than insert", arguments: cases)
    func holdsBackWhatThePolicyWouldChange(_ example: Case) async throws {
        // Given
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open(settings: QueueSettings(maxQueueLength: example.maxQueueLength))
        try await store.migrate()
        try await example.setUp(store)
        let before = try await count(store)
        // When
        let copies = example.sessions.map { copy(of: example.template, for: $0) }
        let outcomes = try await store.perform { connection in
            try await connection.transaction(logger: store.logger) { connection in
                try await store.insertCopiesAtOnce(copies, now: example.now, on: connection)
            }
        }
        // Then: an answer for each copy inserted, none for those held back, and nothing written for them
        #expect(Set(zip(example.sessions, outcomes).filter { $0.1 == nil }.map(\.0)) == example.heldBack)
        #expect(outcomes.compactMap { $0 }.allSatisfy { (try? $0.get())?.created == true })
        #expect(try await count(store) == before + example.sessions.count - example.heldBack.count)
    }

    @Test("A copy inserted at once carries its group and campaign, and its timeline says who queued it")
    func insertedCopies() async throws {
        // Given
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open()
        try await store.migrate()
        var template = copy(of: alert("app/promo", ttl: 30), for: "")
        template.group = "g1"
        let copies = ["a", "b"].map { session in
            var copy = template
            copy.session = session
            return copy
        }
        // When
        let outcomes = try await store.perform { connection in
            try await connection.transaction(logger: store.logger) { connection in
                try await store.insertCopiesAtOnce(copies, now: at(5), on: connection)
            }
        }
        // Then
        let ticket = try #require(try outcomes[1]?.get().item.ticket)
        let stored = try #require(try await store.item(session: "b", ticket: ticket))
        #expect(stored.campaign == "promo-1" && stored.group == "g1" && stored.expiresAt == at(35) && stored.enqueuedAt == at(5))
        let timeline = try await store.timeline(session: "b", ticket: ticket)
        #expect(timeline.map(\.event.kind) == [.enqueued])
        #expect(timeline.first?.event.detail == ["by": .string("campaign"), "campaign": .string("promo-1"), "group": .string("g1")])
    }

    @Test("A fan-out batch queues the copies it held back the general way, in the same batch")
    func heldBackInTheBatch() async throws {
        // Given: a queued HUD in one session of three
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open()
        let old = try await store.enqueue(hud("app/h"), now: t0).item
        var template = hud("app/promo", in: "")
        template.origin = .campaign
        try await store.createCampaign(Campaign(id: "huds", template: template, audience: .sessions(["a", session, "z"]), createdAt: t0))
        // When
        let batch = try await store.fanOut(campaign: "huds", first: [], limit: 10, now: at(1))
        // Then: every session has its copy, the old HUD gave way to it, and each copy was queued once
        #expect(batch.queued == ["a", session, "z"] && batch.finished)
        #expect(try await store.item(session: session, ticket: old.ticket)?.state == .cancelled)
        for name in ["a", session, "z"] {
            let copies = try await store.items(session: name, now: at(1)).filter { $0.campaign == "huds" }
            #expect(copies.count == 1)
            let kinds = try await store.timeline(session: name, ticket: try #require(copies.first).ticket).map(\.event.kind)
            #expect(kinds == [.enqueued])
        }
        #expect(try await store.campaign(id: "huds")?.queued == 3)
    }

    private func copy(of template: NewItem, for session: String) -> NewItem {
        var copy = template
        copy.session = session
        copy.campaign = "promo-1"
        copy.origin = .campaign
        return copy
    }

    private func count(_ store: PostgresQueueStore) async throws -> Int {
        try #require(try await store.pool.query("SELECT count(*)::int FROM alertd.items").first).decode(Int.self)
    }
}
