import AlertQueue
import AlertSpec
import Foundation
import Testing

extension QueueStoreContract {
    @Test("A presenting modal holds back the next modal, but not a toast or a HUD", arguments: StoreFactory.all)
    func modalBlocksOnlyModals(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            _ = try await store.enqueue(alert("app/one", priority: 900), now: t0)
            _ = try await store.enqueue(alert("app/two", priority: 900), now: t0)
            _ = try await store.enqueue(toast("app/toast", priority: 100), now: t0)
            _ = try await store.enqueue(hud("app/hud", priority: 50), now: t0)
            let one = try #require(try await store.next(session: session, now: t0))
            #expect(one.alertID == "app/one")
            // When
            let toast = try await store.next(session: session, now: t0)
            let hud = try await store.next(session: session, now: t0)
            let blocked = try await store.next(session: session, now: t0)
            // Then
            #expect(toast?.alertID == "app/toast")
            #expect(hud?.alertID == "app/hud")
            #expect(blocked == nil)
            // When the first modal is acknowledged, then the second comes
            _ = try await store.ack(session: session, ticket: one.ticket, chain: nil, now: t0)
            #expect(try await store.next(session: session, now: t0)?.alertID == "app/two")
        }
    }

    @Test("A presenting toast holds back the next toast", arguments: StoreFactory.all)
    func toastBlocksToasts(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            _ = try await store.enqueue(toast("app/t1"), now: t0)
            _ = try await store.enqueue(toast("app/t2"), now: t0)
            let first = try await store.next(session: session, now: t0)
            // When
            let second = try await store.next(session: session, now: t0)
            // Then
            #expect(first?.alertID == "app/t1")
            #expect(second == nil)
        }
    }

    @Test("Delivering a HUD ends the HUD presenting before it: the latest wins", arguments: StoreFactory.all)
    func hudLatestWinsOnDelivery(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            _ = try await store.enqueue(hud("app/uploading"), now: t0)
            let older = try #require(try await store.next(session: session, now: t0))
            _ = try await store.enqueue(hud("app/uploaded"), now: at(1))
            // When
            let newer = try await store.next(session: session, now: at(1))
            // Then
            #expect(newer?.alertID == "app/uploaded")
            #expect(try await store.item(session: session, ticket: older.ticket)?.state == .done)
            #expect(try await store.listedIDs(now: at(1)) == ["app/uploaded"])
        }
    }

    @Test("A new HUD replaces the HUD still queued (changeTo)", arguments: StoreFactory.all)
    func hudChangeToOnEnqueue(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            let older = try await store.enqueue(hud("app/progress"), now: t0).item
            // When
            let newer = try await store.enqueue(hud("app/success"), now: at(1))
            // Then
            #expect(newer.created)
            #expect(newer.position == 1)
            #expect(try await store.item(session: session, ticket: older.ticket)?.state == .cancelled)
            #expect(try await store.drain(now: at(1)) == ["app/success"])
        }
    }
}
