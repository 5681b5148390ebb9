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

    @Test("Delivering a HUD ends it: done at once, never delivered again when the lease time passes, never dead",
        arguments: StoreFactory.all)
    func hudDeliveredIsDone(_ factory: StoreFactory) async throws {
        try await factory.withStore(QueueSettings(leaseDuration: 60, maxDeliveries: 1)) { store in
            // Given
            let queued = try await store.enqueue(hud("app/saved"), now: t0).item
            // When
            let delivered = try #require(try await store.next(session: session, now: t0))
            // Then
            #expect(delivered.ticket == queued.ticket)
            #expect(delivered.state == .done)
            #expect(delivered.leaseUntil == nil)
            #expect(delivered.deliveries == 1)
            #expect(try await store.listedIDs(now: t0).isEmpty)
            // When the lease time of a modal, and more, passes without an ack
            for seconds in [60.0, 61, 600] {
                #expect(try await store.next(session: session, now: at(seconds)) == nil)
            }
            // Then it is still done: not queued again, not dead
            let stored = try #require(try await store.item(session: session, ticket: queued.ticket))
            #expect(stored.state == .done)
            #expect(stored.deliveries == 1)
            #expect(try await store.listedIDs(now: at(600)).isEmpty)
        }
    }

    @Test("A HUD delivered after another is delivered at once: the one before is done already", arguments: StoreFactory.all)
    func hudAfterHUD(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            _ = try await store.enqueue(hud("app/uploading"), now: t0)
            let older = try #require(try await store.next(session: session, now: t0))
            _ = try await store.enqueue(hud("app/uploaded"), now: at(1))
            // When
            let newer = try await store.next(session: session, now: at(1))
            // Then
            #expect(newer?.alertID == "app/uploaded")
            #expect(newer?.state == .done)
            #expect(try await store.item(session: session, ticket: older.ticket)?.state == .done)
            #expect(try await store.listedIDs(now: at(1)).isEmpty)
        }
    }

    @Test("Acknowledging a HUD after its delivery answers done, and changes nothing", arguments: StoreFactory.all)
    func hudAckAfterDelivery(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            _ = try await store.enqueue(hud("app/saved"), now: t0)
            let delivered = try #require(try await store.next(session: session, now: t0))
            // When
            let acknowledged = try await store.ack(session: session, ticket: delivered.ticket, chain: nil, now: at(5))
            // Then
            #expect(acknowledged.state == .done)
            #expect(try await store.item(session: session, ticket: delivered.ticket) == delivered)
        }
    }

    @Test("A modal delivered beside a HUD is still leased: queued again when its lease ends", arguments: StoreFactory.all)
    func modalStillLeased(_ factory: StoreFactory) async throws {
        try await factory.withStore(QueueSettings(leaseDuration: 60)) { store in
            // Given
            _ = try await store.enqueue(alert("app/question"), now: t0)
            _ = try await store.enqueue(hud("app/saved"), now: t0)
            let modal = try #require(try await store.next(session: session, now: t0))
            let hud = try #require(try await store.next(session: session, now: t0))
            // Then
            #expect(modal.state == .presenting)
            #expect(modal.leaseUntil == at(60))
            #expect(hud.state == .done)
            // When the lease ends
            let again = try await store.next(session: session, now: at(60))
            // Then the modal comes back, the HUD does not
            #expect(again?.ticket == modal.ticket)
            #expect(again?.deliveries == 2)
            #expect(try await store.next(session: session, now: at(60)) == nil)
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
