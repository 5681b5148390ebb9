import AlertQueue
import AlertSpec
import Foundation
import Testing

/// What every `QueueStore` must do, written once and run on every store of
/// `StoreFactory.all`. Tests drive time with explicit instants (`t0`, `at(_:)`).
@Suite("Queue store contract")
struct QueueStoreContract {
    @Test("A store that was just opened is reachable and empty", arguments: StoreFactory.all)
    func opens(_ factory: StoreFactory) async throws {
        try await factory.withStore { store throws in
            // Asked again for up to a minute: the first connection to a database just created on
            // the shared cluster, while the whole suite runs on two cores, once took longer than
            // one check waits (seen once in a full run). A store that never answers still fails.
            let deadline = ContinuousClock.now + .seconds(60)
            var reachable = await store.isReachable()
            while !reachable, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(500))
                reachable = await store.isReachable()
            }
            #expect(reachable)
            #expect(try await store.items(session: session, now: t0).isEmpty)
            #expect(try await store.next(session: session, now: t0) == nil)
        }
    }

    @Test("Enqueued items get distinct URL-safe tickets and increasing sequences", arguments: StoreFactory.all)
    func ticketsAndSequences(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // When
            var items: [QueueItem] = []
            for index in 0..<5 {
                items.append(try await store.enqueue(alert("app/a\(index)"), now: t0).item)
            }
            // Then
            #expect(Set(items.map(\.ticket)).count == 5)
            #expect(items.allSatisfy { QueueTicket.isWellFormed($0.ticket) })
            #expect(items.map(\.sequence) == items.map(\.sequence).sorted())
            #expect(Set(items.map(\.sequence)).count == 5)
        }
    }

    @Test("An enqueued item keeps what it was given", arguments: StoreFactory.all)
    func enqueueKeepsFields(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            let new = alert("app/newMessages", priority: 700, key: "messages", ttl: 90, parameters: ["count": .integer(3)])
            // When
            let result = try await store.enqueue(new, now: t0)
            // Then
            #expect(result.created)
            #expect(result.position == 1)
            let stored = try #require(try await store.item(session: session, ticket: result.item.ticket))
            #expect(stored == result.item)
            #expect(stored.content == .alert(id: "app/newMessages", parameters: ["count": .integer(3)]))
            #expect(stored.priority == 700)
            #expect(stored.dedupeKey == "messages")
            #expect(stored.state == .queued)
            #expect(stored.enqueuedAt == t0)
            #expect(stored.expiresAt == at(90))
            #expect(stored.deliveries == 0)
            #expect(stored.leaseUntil == nil)
            #expect(!stored.atHead)
        }
    }

    @Test("An ad-hoc spec is kept as it was written", arguments: StoreFactory.all)
    func specContent(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            let draft = SpecDraft(priority: 300, body: .hud(.init(state: .progress, text: "Uploading", progress: 0.25)))
            let new = NewItem(session: session, content: .spec(draft), priority: 300, lane: .hud, dedupeKey: "upload")
            // When
            let ticket = try await store.enqueue(new, now: t0).item.ticket
            // Then
            let stored = try await store.item(session: session, ticket: ticket)
            #expect(stored?.content == .spec(draft))
        }
    }

    @Test("An item is only found in its own session", arguments: StoreFactory.all)
    func sessionsAreSeparate(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            let ticket = try await store.enqueue(alert("app/a", in: "other"), now: t0).item.ticket
            // Then
            #expect(try await store.item(session: session, ticket: ticket) == nil)
            #expect(try await store.items(session: session, now: t0).isEmpty)
            #expect(try await store.next(session: session, now: t0) == nil)
            #expect(try await store.item(session: "other", ticket: ticket) != nil)
        }
    }
}
