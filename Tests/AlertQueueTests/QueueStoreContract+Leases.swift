import AlertQueue
import AlertSpec
import Foundation
import Testing

extension QueueStoreContract {
    @Test("An item whose lease ends unacknowledged is delivered again, its deliveries counted", arguments: StoreFactory.all)
    func redeliveryAfterLease(_ factory: StoreFactory) async throws {
        try await factory.withStore(QueueSettings(leaseDuration: 60)) { store in
            // Given
            let ticket = try await store.enqueue(alert("app/a"), now: t0).item.ticket
            let first = try #require(try await store.next(session: session, now: t0))
            #expect(first.deliveries == 1)
            #expect(first.leaseUntil == at(60))
            // When the lease has not ended, then nothing comes
            #expect(try await store.next(session: session, now: at(59)) == nil)
            // When it has ended, then the same item comes again
            let again = try #require(try await store.next(session: session, now: at(60)))
            #expect(again.ticket == ticket)
            #expect(again.deliveries == 2)
            #expect(again.leaseUntil == at(120))
        }
    }

    @Test("An acknowledged item is not delivered again when its lease would have ended", arguments: StoreFactory.all)
    func ackEndsLease(_ factory: StoreFactory) async throws {
        try await factory.withStore(QueueSettings(leaseDuration: 60)) { store in
            // Given
            _ = try await store.enqueue(alert("app/a"), now: t0)
            let item = try #require(try await store.next(session: session, now: t0))
            // When
            let acknowledged = try await store.ack(session: session, ticket: item.ticket, chain: nil, now: at(5))
            // Then
            #expect(acknowledged.state == .done)
            #expect(acknowledged.leaseUntil == nil)
            #expect(try await store.next(session: session, now: at(600)) == nil)
        }
    }

    @Test("After maxDeliveries deliveries without an acknowledgement an item is dead", arguments: StoreFactory.all)
    func deadLetter(_ factory: StoreFactory) async throws {
        try await factory.withStore(QueueSettings(leaseDuration: 60, maxDeliveries: 2)) { store in
            // Given
            let ticket = try await store.enqueue(alert("app/a", priority: 900), now: t0).item.ticket
            _ = try await store.enqueue(alert("app/b", priority: 100), now: t0)
            #expect(try await store.next(session: session, now: t0)?.ticket == ticket)
            #expect(try await store.next(session: session, now: at(60))?.ticket == ticket)
            // When the second lease ends
            let next = try await store.next(session: session, now: at(120))
            // Then the item is dead, listed as dead, and the one behind it comes
            #expect(next?.alertID == "app/b")
            let dead = try #require(try await store.item(session: session, ticket: ticket))
            #expect(dead.state == .dead)
            #expect(dead.deliveries == 2)
            #expect(try await store.items(session: session, now: at(120)).map(\.state) == [.presenting, .dead])
            // and acknowledging it is too late
            let error = await #expect(throws: QueueError.self) {
                _ = try await store.ack(session: session, ticket: ticket, chain: nil, now: at(120))
            }
            #expect(error == .gone(ticket: ticket, state: .dead))
        }
    }
}
