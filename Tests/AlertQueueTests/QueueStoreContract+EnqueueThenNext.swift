import AlertQueue
import AlertSpec
import Foundation
import Testing

// `enqueueThenNext`, the enqueue a long-poll of the session waits for: whether a store does it
// in one step (SQLite) or two (PostgreSQL), the poll gets what `next` would have delivered right
// after the enqueue.

extension QueueStoreContract {
    @Test("An enqueue a poll waits for delivers the new item to it, presenting and leased, once", arguments: StoreFactory.all)
    func enqueueThenNextHandsOverNewItem(_ factory: StoreFactory) async throws {
        try await factory.withStore(QueueSettings(leaseDuration: 60)) { store in
            // When: an enqueue into an empty session, for a waiting poll
            let (enqueued, handed) = try await store.enqueueThenNext(alert("app/a"), now: t0)
            // Then: it was created, first in its lane, and the poll has it, presenting and leased
            #expect(enqueued.created)
            #expect(enqueued.position == 1)
            let item = try #require(handed)
            #expect(item.ticket == enqueued.item.ticket)
            #expect(item.state == .presenting)
            #expect(item.deliveries == 1)
            #expect(item.leaseUntil == at(60))
            // And: nothing is left to deliver, and the listing shows it presenting
            #expect(try await store.next(session: session, now: at(1)) == nil)
            let listed = try await store.items(session: session, now: at(1))
            #expect(listed.map(\.ticket) == [item.ticket])
            #expect(listed.map(\.state) == [.presenting])
        }
    }

    @Test("An enqueue a poll waits for delivers nothing from a busy lane, and the item from a free one", arguments: StoreFactory.all)
    func enqueueThenNextRespectsLanes(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given: a modal presenting
            _ = try await store.enqueue(alert("app/one"), now: t0)
            _ = try #require(try await store.next(session: session, now: t0))
            // When: a second modal, for a waiting poll
            let (modal, none) = try await store.enqueueThenNext(alert("app/two"), now: at(1))
            // Then: it is queued behind the first, and nothing was delivered
            #expect(modal.created)
            #expect(modal.position == 1)
            #expect(none == nil)
            // When: a toast, for the poll that still waits
            let (toast, handed) = try await store.enqueueThenNext(toast("app/toast"), now: at(2))
            // Then: the toast lane is free, so the poll gets it
            #expect(handed?.ticket == toast.item.ticket)
            #expect(try await store.items(session: session, now: at(2)).map(\.state) == [.presenting, .presenting, .queued])
        }
    }

    @Test("An enqueue a poll waits for delivers the best item, not always its own", arguments: StoreFactory.all)
    func enqueueThenNextHandsOverBest(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given: a modal of high priority queued during a hold that has ended since
            try await store.hold(session: session, until: at(10))
            let urgent = try await store.enqueue(alert("app/urgent", priority: 900), now: t0)
            // When: a modal of lower priority is enqueued after the hold, for a waiting poll
            let (later, handed) = try await store.enqueueThenNext(alert("app/later", priority: 100), now: at(20))
            // Then: the poll gets the urgent one; the new one waits behind it
            #expect(handed?.ticket == urgent.item.ticket)
            #expect(later.created)
            #expect(try await store.item(session: session, ticket: later.item.ticket)?.state == .queued)
        }
    }

    @Test("Under a hold, an enqueue a poll waits for delivers a HUD but no modal", arguments: StoreFactory.all)
    func enqueueThenNextRespectsHold(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given: the session is held
            try await store.hold(session: session, until: at(30))
            // When: a modal, then a HUD, for a waiting poll
            let (modal, none) = try await store.enqueueThenNext(alert("app/modal"), now: t0)
            let (hud, handed) = try await store.enqueueThenNext(hud("app/hud"), now: at(1))
            // Then: the modal stays queued; the HUD is delivered
            #expect(none == nil)
            #expect(try await store.item(session: session, ticket: modal.item.ticket)?.state == .queued)
            #expect(handed?.ticket == hud.item.ticket)
        }
    }

    @Test("A duplicate enqueue a poll waits for delivers nothing and leaves the live item as it was", arguments: StoreFactory.all)
    func enqueueThenNextDuplicate(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given: an item presenting, delivered once
            let first = try await store.enqueue(alert("app/a", key: "k"), now: t0)
            let shown = try #require(try await store.next(session: session, now: t0))
            // When: the same key again, for a waiting poll
            let (again, delivered) = try await store.enqueueThenNext(alert("app/b", key: "k"), now: at(1))
            // Then: a duplicate of the live item; nothing delivered, nothing changed
            #expect(!again.created)
            #expect(again.item.ticket == first.item.ticket)
            #expect(delivered == nil)
            #expect(try await store.item(session: session, ticket: shown.ticket) == shown)
            #expect(try await store.next(session: session, now: at(1)) == nil)
        }
    }
}

/// A session owed a withdraw is handed nothing by `enqueueThenNext`: its poll looks for itself,
/// and `nextDelivery` gives it the withdraw before the new item.
extension QueueStoreContract {
    @Test("An enqueue for a waiting poll delivers nothing while its session is owed a withdraw", arguments: StoreFactory.all)
    func enqueueThenNextLeavesWithdrawFirst(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given: the tablet shows a copy the phone answered, so the tablet is owed its withdraw
            let tickets = try await store.enqueue(copies: copies("app/promo", on: ["phone", "tablet"], group: "g"), now: t0)
                .map { try $0.get().item.ticket }
            _ = try #require(try await store.next(session: "phone", now: at(1)))
            _ = try #require(try await store.next(session: "tablet", now: at(1)))
            _ = try await store.acknowledge(session: "phone", ticket: tickets[0], input: nil, now: at(2)) { _ in AckAnswer() }
            // When
            let (enqueued, handed) = try await store.enqueueThenNext(alert("app/news", in: "tablet"), now: at(3))
            // Then: queued, not delivered; the withdraw comes first, then the new item
            #expect(enqueued.created)
            #expect(handed == nil)
            #expect(try await store.nextDelivery(session: "tablet", now: at(4)) == .withdraw(ticket: tickets[1]))
            #expect(try await store.nextDelivery(session: "tablet", now: at(5))?.item?.ticket == enqueued.item.ticket)
        }
    }
}
