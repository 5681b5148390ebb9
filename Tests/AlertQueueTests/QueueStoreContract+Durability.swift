import AlertQueue
import AlertSpec
import Foundation
import Testing

extension QueueStoreContract {
    @Test("What a store acknowledged is there when the store is opened again", arguments: StoreFactory.persistent)
    func survivesReopening(_ factory: StoreFactory) async throws {
        try await factory.withPlace(QueueSettings(leaseDuration: 60)) { place in
            // Given: a store that queued, delivered, cancelled and held, then went away
            let spec = SpecDraft(priority: 200, body: .hud(.init(state: .success, text: "Saved")))
            let (before, cancelledTicket, lastSequence) = try await {
                let store = try place.open()
                _ = try await store.enqueue(alert("app/a", priority: 900, ttl: 600, parameters: ["n": .integer(2)]), now: t0)
                let specItem = NewItem(session: session, content: .spec(spec), priority: 200, lane: .toast, dedupeKey: "saved")
                _ = try await store.enqueue(specItem, now: t0)
                let cancelled = try await store.enqueue(alert("app/c"), now: t0).item
                _ = try await store.next(session: session, now: t0)
                _ = try await store.cancel(session: session, ticket: cancelled.ticket, now: t0)
                try await store.hold(session: session, until: at(300))
                return (try await store.items(session: session, now: t0), cancelled.ticket, cancelled.sequence)
            }()
            #expect(before.map(\.state) == [.presenting, .queued])
            // When
            let reopened = try place.open()
            // Then
            #expect(try await reopened.items(session: session, now: t0) == before)
            #expect(try await reopened.item(session: session, ticket: cancelledTicket)?.state == .cancelled)
            #expect(try await reopened.holdUntil(session: session, now: t0) == at(300))
            #expect(try await reopened.enqueue(alert("app/d"), now: t0).item.sequence > lastSequence)
            // and the lease given before goes on counting
            #expect(try await reopened.next(session: session, now: at(310))?.alertID == "app/a")
        }
    }
}
