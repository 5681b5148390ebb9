import AlertQueue
import AlertSpec
import Foundation
import Testing

extension QueueStoreContract {
    @Test("Items are delivered by priority, then in the order they were queued", arguments: StoreFactory.all)
    func priorityThenFIFO(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            _ = try await store.enqueue(alert("app/low", priority: 100), now: t0)
            _ = try await store.enqueue(alert("app/first", priority: 900), now: t0)
            _ = try await store.enqueue(alert("app/middle", priority: 500), now: t0)
            _ = try await store.enqueue(alert("app/second", priority: 900), now: t0)
            // When
            let delivered = try await store.drain()
            // Then
            #expect(delivered == ["app/first", "app/second", "app/middle", "app/low"])
        }
    }

    @Test("The position is the place among the queued items of the lane", arguments: StoreFactory.all)
    func positions(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // When
            let first = try await store.enqueue(alert("app/a", priority: 500), now: t0)
            let higher = try await store.enqueue(alert("app/b", priority: 900), now: t0)
            let lower = try await store.enqueue(alert("app/c", priority: 100), now: t0)
            let sameAsFirst = try await store.enqueue(alert("app/d", priority: 500), now: t0)
            let otherLane = try await store.enqueue(toast("app/t", priority: 100), now: t0)
            // Then
            #expect(first.position == 1)
            #expect(higher.position == 1)
            #expect(lower.position == 3)
            #expect(sameAsFirst.position == 3)
            #expect(otherLane.position == 1)
        }
    }

    @Test("The listing shows presenting items, then queued ones in delivery order, then dead ones", arguments: StoreFactory.all)
    func listingOrder(_ factory: StoreFactory) async throws {
        try await factory.withStore(QueueSettings(leaseDuration: 60, maxDeliveries: 1)) { store in
            // Given: one item delivered once and never acknowledged, dead after its lease
            _ = try await store.enqueue(alert("app/dead", priority: 1000), now: t0)
            _ = try await store.next(session: session, now: t0)
            // and a modal and a toast presenting, with a modal, a toast and a HUD queued
            _ = try await store.enqueue(alert("app/modalLow", priority: 100), now: at(1))
            _ = try await store.enqueue(alert("app/modalHigh", priority: 900), now: at(1))
            _ = try await store.enqueue(toast("app/toastHigh", priority: 800), now: at(1))
            _ = try await store.enqueue(toast("app/toastLow", priority: 500), now: at(1))
            _ = try await store.enqueue(hud("app/hud", priority: 300), now: at(1))
            let first = try await store.next(session: session, now: at(61))
            let second = try await store.next(session: session, now: at(61))
            #expect(first?.alertID == "app/modalHigh")
            #expect(second?.alertID == "app/toastHigh")
            // When
            let listing = try await store.items(session: session, now: at(61))
            // Then
            #expect(
                listing.map(\.alertID) == [
                    "app/modalHigh", "app/toastHigh", "app/toastLow", "app/hud", "app/modalLow", "app/dead",
                ])
            #expect(listing.map(\.state) == [.presenting, .presenting, .queued, .queued, .queued, .dead])
        }
    }
}
