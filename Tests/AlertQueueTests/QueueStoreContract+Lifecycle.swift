import AlertQueue
import AlertSpec
import Foundation
import Testing

extension QueueStoreContract {
    // MARK: TTL

    @Test("An item whose TTL has passed is never delivered", arguments: StoreFactory.all)
    func expiredNeverDelivered(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            let late = try await store.enqueue(alert("app/late", ttl: 10), now: t0).item
            _ = try await store.enqueue(toast("app/early", priority: 100), now: t0)
            _ = try await store.enqueue(alert("app/stillFresh", priority: 100, ttl: 11), now: t0)
            // When
            let delivered = try await store.drain(now: at(10))
            // Then
            #expect(delivered == ["app/early", "app/stillFresh"])
            #expect(try await store.item(session: session, ticket: late.ticket)?.state == .expired)
        }
    }

    @Test("An expired item leaves the listing", arguments: StoreFactory.all)
    func expiredNotListed(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            _ = try await store.enqueue(alert("app/a", ttl: 10), now: t0)
            // Then
            #expect(try await store.listedIDs(now: at(9)) == ["app/a"])
            #expect(try await store.listedIDs(now: at(10)) == [])
        }
    }

    @Test("An item whose TTL passed while it presented is not delivered again when its lease ends", arguments: StoreFactory.all)
    func expiredWhilePresenting(_ factory: StoreFactory) async throws {
        try await factory.withStore(QueueSettings(leaseDuration: 60)) { store in
            // Given
            let item = try await store.enqueue(alert("app/a", ttl: 30), now: t0).item
            _ = try await store.next(session: session, now: t0)
            // When
            let again = try await store.next(session: session, now: at(60))
            // Then
            #expect(again == nil)
            #expect(try await store.item(session: session, ticket: item.ticket)?.state == .expired)
        }
    }

    // MARK: Chains

    @Test("Acknowledging with a chain makes the chain next, ahead of higher priorities", arguments: StoreFactory.all)
    func chainIsNext(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            _ = try await store.enqueue(alert("onboarding/page1", priority: 500), now: t0)
            let page1 = try #require(try await store.next(session: session, now: t0))
            _ = try await store.enqueue(alert("app/urgent", priority: 1000), now: t0)
            // When
            let acknowledged = try await store.ack(
                session: session, ticket: page1.ticket, chain: alert("onboarding/page2", priority: 100), now: at(1))
            // Then
            #expect(acknowledged.state == .done)
            let listing = try await store.items(session: session, now: at(1))
            #expect(listing.map(\.alertID) == ["onboarding/page2", "app/urgent"])
            #expect(listing.first?.atHead == true)
            #expect(try await store.drain(now: at(1)) == ["onboarding/page2", "app/urgent"])
        }
    }

    @Test("Acknowledging a done item again changes nothing and chains nothing", arguments: StoreFactory.all)
    func ackIsIdempotent(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given: an item acknowledged with a chain, and the chain shown and acknowledged
            _ = try await store.enqueue(alert("app/a"), now: t0)
            let item = try #require(try await store.next(session: session, now: t0))
            let first = try await store.ack(session: session, ticket: item.ticket, chain: alert("app/chained"), now: at(1))
            #expect(try await store.drain(now: at(2)) == ["app/chained"])
            // When
            let again = try await store.ack(session: session, ticket: item.ticket, chain: alert("app/chained"), now: at(3))
            // Then
            #expect(again == first)
            #expect(try await store.items(session: session, now: at(3)).isEmpty)
        }
    }

    // MARK: Hold

    @Test("A hold stops modals and toasts; HUDs still flow; releasing it lets them through", arguments: StoreFactory.all)
    func holdAndRelease(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            _ = try await store.enqueue(alert("app/modal", priority: 900), now: t0)
            _ = try await store.enqueue(toast("app/toast", priority: 800), now: t0)
            _ = try await store.enqueue(hud("app/hud", priority: 100), now: t0)
            // When
            try await store.hold(session: session, until: at(30))
            // Then
            #expect(try await store.holdUntil(session: session, now: at(1)) == at(30))
            #expect(try await store.next(session: session, now: at(1))?.alertID == "app/hud")
            #expect(try await store.next(session: session, now: at(1)) == nil)
            // When
            try await store.hold(session: session, until: nil)
            // Then
            #expect(try await store.holdUntil(session: session, now: at(2)) == nil)
            #expect(try await store.next(session: session, now: at(2))?.alertID == "app/modal")
            #expect(try await store.next(session: session, now: at(2))?.alertID == "app/toast")
        }
    }

    @Test("A hold ends by itself at its deadline", arguments: StoreFactory.all)
    func holdEnds(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            _ = try await store.enqueue(alert("app/modal"), now: t0)
            try await store.hold(session: session, until: at(30))
            #expect(try await store.next(session: session, now: at(29)) == nil)
            // Then
            #expect(try await store.holdUntil(session: session, now: at(30)) == nil)
            #expect(try await store.next(session: session, now: at(30))?.alertID == "app/modal")
        }
    }

    @Test("A hold of one session does not hold another", arguments: StoreFactory.all)
    func holdIsPerSession(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            _ = try await store.enqueue(alert("app/modal", in: "s2"), now: t0)
            try await store.hold(session: "s1", until: at(30))
            // Then
            #expect(try await store.holdUntil(session: "s2", now: t0) == nil)
            #expect(try await store.next(session: "s2", now: t0)?.alertID == "app/modal")
        }
    }

    // MARK: Cancel

    @Test("Cancelling one item removes it from the queue; cancelling it again is gone", arguments: StoreFactory.all)
    func cancelOne(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            let a = try await store.enqueue(alert("app/a", priority: 900), now: t0).item
            _ = try await store.enqueue(alert("app/b"), now: t0)
            // When
            let cancelled = try await store.cancel(session: session, ticket: a.ticket, now: at(1))
            // Then
            #expect(cancelled == 1)
            #expect(try await store.item(session: session, ticket: a.ticket)?.state == .cancelled)
            #expect(try await store.listedIDs(now: at(1)) == ["app/b"])
            await #expect(throws: QueueError.gone(ticket: a.ticket, state: .cancelled)) {
                _ = try await store.cancel(session: session, ticket: a.ticket, now: at(2))
            }
            await #expect(throws: QueueError.notFound(ticket: "nope")) {
                _ = try await store.cancel(session: session, ticket: "nope", now: at(2))
            }
        }
    }

    @Test("Cancelling everything cancels the queued and presenting items of the session only", arguments: StoreFactory.all)
    func cancelAll(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given: one done, one presenting, two queued, and one in another session
            _ = try await store.enqueue(alert("app/done", priority: 1000), now: t0)
            _ = try await store.drain(now: t0)
            _ = try await store.enqueue(alert("app/presenting", priority: 900), now: t0)
            _ = try await store.next(session: session, now: t0)
            _ = try await store.enqueue(alert("app/queued"), now: t0)
            _ = try await store.enqueue(toast("app/toast"), now: t0)
            _ = try await store.enqueue(alert("app/elsewhere", in: "s2"), now: t0)
            // When
            let cancelled = try await store.cancel(session: session, ticket: nil, now: at(1))
            // Then
            #expect(cancelled == 3)
            #expect(try await store.items(session: session, now: at(1)).isEmpty)
            #expect(try await store.next(session: session, now: at(1)) == nil)
            #expect(try await store.listedIDs(session: "s2", now: at(1)) == ["app/elsewhere"])
        }
    }

    // MARK: Acknowledgement errors

    @Test("Acknowledging a cancelled item is gone (410)", arguments: StoreFactory.all)
    func ackCancelled(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            let ticket = try await store.enqueue(alert("app/a"), now: t0).item.ticket
            _ = try await store.next(session: session, now: t0)
            _ = try await store.cancel(session: session, ticket: nil, now: at(1))
            // When
            let error = await #expect(throws: QueueError.self) {
                _ = try await store.ack(session: session, ticket: ticket, chain: nil, now: at(2))
            }
            // Then
            #expect(error == .gone(ticket: ticket, state: .cancelled))
            #expect(error?.kind == .gone)
        }
    }

    @Test("Acknowledging an unknown ticket, or another session's, is not found (404)", arguments: StoreFactory.all)
    func ackUnknown(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            let theirs = try await store.enqueue(alert("app/a", in: "s2"), now: t0).item.ticket
            // When
            let unknown = await #expect(throws: QueueError.self) {
                _ = try await store.ack(session: session, ticket: "AAAAAAAAAAAAAAAAAAAAAA", chain: nil, now: t0)
            }
            let foreign = await #expect(throws: QueueError.self) {
                _ = try await store.ack(session: session, ticket: theirs, chain: nil, now: t0)
            }
            // Then
            #expect(unknown == .notFound(ticket: "AAAAAAAAAAAAAAAAAAAAAA"))
            #expect(unknown?.kind == .notFound)
            #expect(foreign == .notFound(ticket: theirs))
            #expect(try await store.item(session: "s2", ticket: theirs)?.state == .queued)
        }
    }

    // MARK: Limits

    @Test("A session holds at most maxQueueLength live items", arguments: StoreFactory.all)
    func queueFull(_ factory: StoreFactory) async throws {
        try await factory.withStore(QueueSettings(maxQueueLength: 3)) { store in
            // Given
            let first = try await store.enqueue(alert("app/1"), now: t0).item
            _ = try await store.enqueue(alert("app/2"), now: t0)
            _ = try await store.enqueue(toast("app/3"), now: t0)
            // When
            let error = await #expect(throws: QueueError.self) {
                _ = try await store.enqueue(alert("app/4"), now: t0)
            }
            // Then
            #expect(error == .queueFull(limit: 3))
            #expect(error?.kind == .queueFull)
            #expect(try await store.items(session: session, now: t0).count == 3)
            // and a duplicate is still answered
            #expect(try await store.enqueue(alert("app/1"), now: t0).item.ticket == first.ticket)
            // and another session is not concerned
            #expect(try await store.enqueue(alert("app/4", in: "s2"), now: t0).created)
            // When one is acknowledged, then there is room again
            _ = try await store.ack(session: session, ticket: first.ticket, chain: nil, now: t0)
            #expect(try await store.enqueue(alert("app/4"), now: t0).created)
        }
    }
}
