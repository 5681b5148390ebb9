import AlertQueue
import AlertSpec
import Foundation
import Testing

extension QueueStoreContract {
    @Test("The census counts every session's live items by lane and state; a queued item past its TTL counts as expired until marked", arguments: StoreFactory.all)
    func census(_ factory: StoreFactory) async throws {
        try await factory.withStore(QueueSettings(leaseDuration: 5, maxDeliveries: 1)) { store in
            // Given items in two sessions and three lanes, one of them delivered
            _ = try await store.enqueue(alert("app/a", priority: 900), now: t0)
            _ = try await store.enqueue(alert("app/b"), now: t0)
            _ = try await store.enqueue(toast("app/t"), now: t0)
            _ = try await store.enqueue(alert("app/h", lane: .hud, ttl: 10), now: t0)
            _ = try await store.enqueue(alert("app/c", in: "s2"), now: t0)
            #expect(try await store.next(session: session, now: t0)?.alertID == "app/a")

            // When counted at once
            let now = try await store.census(now: t0)
            // Then
            #expect(now[.modal, .queued] == 2)
            #expect(now[.modal, .presenting] == 1)
            #expect(now[.toast, .queued] == 1)
            #expect(now[.hud, .queued] == 1)
            #expect(now[.hud, .expired] == 0 && now[.modal, .dead] == 0)

            // When the HUD's TTL has passed, before any step of its session
            let later = try await store.census(now: at(11))
            // Then it counts as expired, no longer as queued
            #expect(later[.hud, .queued] == 0)
            #expect(later[.hud, .expired] == 1)

            // When a step of the session ends the lease of the modal delivered once (the most)
            _ = try await store.items(session: session, now: at(11))
            let stepped = try await store.census(now: at(11))
            // Then it is dead and the HUD marked expired: history, no longer counted; the rest stays
            #expect(stepped[.modal, .presenting] == 0)
            #expect(stepped[.modal, .dead] == 0)
            #expect(stepped[.modal, .queued] == 2)
            #expect(stepped[.hud, .expired] == 0)
            #expect(stepped[.toast, .queued] == 1)
            #expect(try await store.items(session: session, now: at(11)).contains { $0.state == .dead })
        }
    }

    @Test("Finished items are not counted", arguments: StoreFactory.all)
    func censusLeavesOutFinishedItems(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given one item acknowledged and one cancelled
            _ = try await store.enqueue(alert("app/a"), now: t0)
            let cancelled = try await store.enqueue(toast("app/t"), now: t0).item
            let shown = try #require(try await store.next(session: session, now: t0))
            _ = try await store.ack(session: session, ticket: shown.ticket, chain: nil, now: t0)
            _ = try await store.cancel(session: session, ticket: cancelled.ticket, now: t0)
            // When
            let census = try await store.census(now: t0)
            // Then
            #expect(census == QueueCensus())
        }
    }
}
