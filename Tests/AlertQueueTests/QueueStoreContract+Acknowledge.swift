import AlertQueue
import AlertSpec
import Foundation
import Locking
import Testing

/// `acknowledge`: the chain is asked inside the ack's step, from the item that step loaded.
extension QueueStoreContract {
    @Test("An ack asks its chain with the item as loaded, and queues the answer in the same step", arguments: StoreFactory.all)
    func acknowledgeAsksChain(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            _ = try await store.enqueue(alert("onboarding/page1"), now: t0)
            let page1 = try #require(try await store.next(session: session, now: t0))
            let asked = Locked<[QueueItem]>([])
            // When
            let done = try await store.acknowledge(session: session, ticket: page1.ticket, now: at(1)) { item in
                asked.withLock { $0.append(item) }
                return alert("onboarding/page2")
            }
            // Then
            #expect(asked.withLock { $0 } == [page1])
            #expect(done.item.state == .done)
            let chained = try #require(done.chained)
            #expect(chained.alertID == "onboarding/page2")
            #expect(chained.state == .queued)
            #expect(chained.atHead)
            #expect(try await store.items(session: session, now: at(1)).map(\.ticket) == [chained.ticket])
        }
    }

    @Test("A chain whose dedupe key a live item holds names that item and queues nothing", arguments: StoreFactory.all)
    func acknowledgeChainDuplicate(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            _ = try await store.enqueue(alert("app/a", priority: 900), now: t0)
            let waiting = try await store.enqueue(alert("app/b"), now: t0).item
            let shown = try #require(try await store.next(session: session, now: t0))
            // When
            let done = try await store.acknowledge(session: session, ticket: shown.ticket, now: at(1)) { _ in
                alert("app/b")
            }
            // Then
            #expect(done.chained?.ticket == waiting.ticket)
            #expect(try await store.items(session: session, now: at(1)).map(\.ticket) == [waiting.ticket])
        }
    }

    @Test("What the chain throws ends the ack with nothing changed", arguments: StoreFactory.all)
    func acknowledgeChainThrows(_ factory: StoreFactory) async throws {
        struct UnknownAction: Error, Equatable {}
        try await factory.withStore { store in
            // Given
            _ = try await store.enqueue(alert("app/a"), now: t0)
            let shown = try #require(try await store.next(session: session, now: t0))
            // When
            await #expect(throws: UnknownAction()) {
                _ = try await store.acknowledge(session: session, ticket: shown.ticket, now: at(1)) { _ in
                    throw UnknownAction()
                }
            }
            // Then
            #expect(try await store.item(session: session, ticket: shown.ticket) == shown)
            #expect(try await store.items(session: session, now: at(1)).map(\.ticket) == [shown.ticket])
        }
    }

    @Test("The chain is not asked for an unknown ticket or a gone one", arguments: StoreFactory.all)
    func acknowledgeChainNotAsked(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            let ticket = try await store.enqueue(alert("app/a"), now: t0).item.ticket
            _ = try await store.cancel(session: session, ticket: ticket, now: t0)
            let asked = Locked(0)
            let chain: @Sendable (QueueItem) -> NewItem? = { _ in
                asked.withLock { $0 += 1 }
                return alert("app/chained")
            }
            // Then
            await #expect(throws: QueueError.notFound(ticket: "AAAAAAAAAAAAAAAAAAAAAA")) {
                _ = try await store.acknowledge(session: session, ticket: "AAAAAAAAAAAAAAAAAAAAAA", now: at(1), chain: chain)
            }
            await #expect(throws: QueueError.gone(ticket: ticket, state: .cancelled)) {
                _ = try await store.acknowledge(session: session, ticket: ticket, now: at(1), chain: chain)
            }
            #expect(asked.withLock { $0 } == 0)
            #expect(try await store.items(session: session, now: at(1)).isEmpty)
        }
    }

    @Test("An ack keeps its input with the done item; an ack again keeps the first, and a chain still comes",
        arguments: StoreFactory.all)
    func acknowledgeKeepsInput(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            let queued = try await store.enqueue(alert("app/redeemInvite"), now: t0).item
            let shown = try #require(try await store.next(session: session, now: t0))
            // When
            let done = try await store.acknowledge(session: session, ticket: shown.ticket, input: "Q7-KD92", now: at(1)) { _ in
                alert("app/welcome")
            }
            // Then
            #expect(done.item.state == .done)
            #expect(done.item.input == "Q7-KD92")
            #expect(done.chained?.alertID == "app/welcome")
            let stored = try #require(try await store.item(session: session, ticket: queued.ticket))
            #expect(stored.state == .done)
            #expect(stored.input == "Q7-KD92")
            // When acknowledged again with other input
            _ = try await store.ack(session: session, ticket: shown.ticket, chain: nil, input: "other", now: at(2))
            // Then the first stays
            #expect(try await store.item(session: session, ticket: queued.ticket)?.input == "Q7-KD92")
            // And an ack without input keeps none
            let other = try await store.enqueue(alert("app/other"), now: at(3)).item
            _ = try await store.next(session: session, now: at(3))
            _ = try await store.ack(session: session, ticket: other.ticket, chain: nil, now: at(3))
            #expect(try await store.item(session: session, ticket: other.ticket)?.input == nil)
        }
    }
}
