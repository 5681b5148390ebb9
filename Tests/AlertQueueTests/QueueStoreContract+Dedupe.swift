import AlertQueue
import AlertSpec
import Foundation
import Testing

extension QueueStoreContract {
    @Test("Queuing a key that is queued returns the queued item, not a new one", arguments: StoreFactory.all)
    func duplicateWhileQueued(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            let first = try await store.enqueue(alert("app/a", priority: 500, key: "k"), now: t0)
            // When
            let again = try await store.enqueue(alert("app/b", priority: 900, key: "k"), now: at(1))
            // Then
            #expect(first.created)
            #expect(!again.created)
            #expect(again.item == first.item)
            #expect(again.position == 1)
            #expect(try await store.listedIDs(now: at(1)) == ["app/a"])
        }
    }

    @Test("Queuing a key that is presenting returns the presenting item", arguments: StoreFactory.all)
    func duplicateWhilePresenting(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            let ticket = try await store.enqueue(alert("app/a"), now: t0).item.ticket
            _ = try await store.next(session: session, now: t0)
            // When
            let again = try await store.enqueue(alert("app/a"), now: at(1))
            // Then
            #expect(!again.created)
            #expect(again.item.ticket == ticket)
            #expect(again.item.state == .presenting)
            #expect(again.position == 0)
        }
    }

    @Test("Once acknowledged or cancelled, the key can be queued again", arguments: StoreFactory.all)
    func keyFreedByAckAndCancel(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            let first = try await store.enqueue(alert("app/a"), now: t0).item
            _ = try await store.next(session: session, now: t0)
            _ = try await store.ack(session: session, ticket: first.ticket, chain: nil, now: t0)
            // When
            let second = try await store.enqueue(alert("app/a"), now: at(1))
            _ = try await store.cancel(session: session, ticket: second.item.ticket, now: at(2))
            let third = try await store.enqueue(alert("app/a"), now: at(3))
            // Then
            #expect(second.created)
            #expect(second.item.ticket != first.ticket)
            #expect(third.created)
            #expect(Set([first.ticket, second.item.ticket, third.item.ticket]).count == 3)
        }
    }

    @Test("The same key in two sessions is two items", arguments: StoreFactory.all)
    func keysAreScopedBySession(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // When
            let mine = try await store.enqueue(alert("app/a", in: "s1"), now: t0)
            let theirs = try await store.enqueue(alert("app/a", in: "s2"), now: t0)
            // Then
            #expect(mine.created)
            #expect(theirs.created)
            #expect(mine.item.ticket != theirs.item.ticket)
        }
    }

    @Test("Sixteen racing enqueues of one key leave exactly one live item", arguments: StoreFactory.all)
    func racingEnqueues(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // When
            let results = try await Self.enqueueConcurrently(16, alert("app/a", key: "race"), into: [store])
            // Then
            #expect(results.filter(\.created).count == 1)
            #expect(Set(results.map(\.item.ticket)).count == 1)
            #expect(try await store.items(session: session, now: t0).count == 1)
        }
    }

    @Test("Racing enqueues through two stores on the same data leave one live item", arguments: StoreFactory.persistent)
    func racingEnqueuesAcrossInstances(_ factory: StoreFactory) async throws {
        try await factory.withPlace { place in
            // Given
            let stores = [try place.open(), try place.open()]
            // When
            let results = try await Self.enqueueConcurrently(16, alert("app/a", key: "race"), into: stores)
            // Then
            #expect(results.filter(\.created).count == 1)
            #expect(Set(results.map(\.item.ticket)).count == 1)
            for store in stores {
                #expect(try await store.items(session: session, now: t0).count == 1)
            }
        }
    }

    // MARK: Refresh

    @Test("A refreshing duplicate brings the queued item up to date, keeping its ticket, sequence and enqueue time",
        arguments: StoreFactory.all)
    func refreshUpdatesQueued(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given: 3 new messages, behind an alert of a higher priority
            let first = try await store.enqueue(messages(3, priority: 400, ttl: 600), now: t0).item
            _ = try await store.enqueue(alert("app/other", priority: 500), now: t0)
            // When: 9 new messages, with a higher priority and a shorter TTL
            let again = try await store.enqueue(messages(9, priority: 700, ttl: 60, onDuplicate: .refresh), now: at(10))
            // Then
            #expect(!again.created)
            #expect(again.refreshed)
            #expect(again.position == 1)
            #expect(again.item.ticket == first.ticket)
            #expect(again.item.sequence == first.sequence)
            #expect(again.item.enqueuedAt == t0)
            #expect(again.item.content == .alert(id: "app/newMessages", parameters: ["count": .integer(9)]))
            #expect(again.item.priority == 700)
            #expect(again.item.expiresAt == at(70))
            #expect(again.item.state == .queued)
            #expect(try await store.item(session: session, ticket: first.ticket) == again.item)
            #expect(try await store.listedIDs(now: at(10)) == ["app/newMessages", "app/other"])
            // When refreshed again without a TTL: it waits for ever
            let forever = try await store.enqueue(messages(12, priority: 700, onDuplicate: .refresh), now: at(20))
            #expect(forever.item.expiresAt == nil)
            #expect(try await store.item(session: session, ticket: first.ticket)?.expiresAt == nil)
        }
    }

    @Test("A refreshed item keeps its place among its priority: same priority, same place", arguments: StoreFactory.all)
    func refreshKeepsPlace(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            _ = try await store.enqueue(alert("app/a"), now: t0)
            let middle = try await store.enqueue(messages(3, priority: 500), now: t0).item
            _ = try await store.enqueue(alert("app/c"), now: t0)
            // When
            let same = try await store.enqueue(messages(4, priority: 500, onDuplicate: .refresh), now: at(1))
            // Then
            #expect(same.position == 2)
            #expect(try await store.listedIDs(now: at(1)) == ["app/a", "app/newMessages", "app/c"])
            // When its priority drops
            let lower = try await store.enqueue(messages(5, priority: 100, onDuplicate: .refresh), now: at(2))
            // Then it goes behind the others, with its ticket and sequence
            #expect(lower.position == 3)
            #expect(lower.item.sequence == middle.sequence)
            #expect(try await store.listedIDs(now: at(2)) == ["app/a", "app/c", "app/newMessages"])
        }
    }

    @Test("onDuplicate keep leaves the queued item as it was", arguments: StoreFactory.all)
    func keepLeavesQueued(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            let first = try await store.enqueue(messages(3, priority: 400, ttl: 600), now: t0)
            // When
            let again = try await store.enqueue(messages(9, priority: 700, ttl: 60, onDuplicate: .keep), now: at(10))
            // Then
            #expect(!again.created)
            #expect(!again.refreshed)
            #expect(again.item == first.item)
            #expect(try await store.item(session: session, ticket: first.item.ticket) == first.item)
        }
    }

    @Test("A presenting duplicate is left as it is, also when asked to refresh", arguments: StoreFactory.all)
    func refreshLeavesPresenting(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            _ = try await store.enqueue(messages(3, priority: 400), now: t0)
            let shown = try #require(try await store.next(session: session, now: t0))
            // When
            let again = try await store.enqueue(messages(9, priority: 700, ttl: 60, onDuplicate: .refresh), now: at(1))
            // Then
            #expect(!again.created)
            #expect(!again.refreshed)
            #expect(again.position == 0)
            #expect(again.item == shown)
            #expect(try await store.item(session: session, ticket: shown.ticket) == shown)
        }
    }

    @Test("next delivers the refreshed item", arguments: StoreFactory.all)
    func nextDeliversRefreshed(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            _ = try await store.enqueue(messages(3, priority: 400), now: t0)
            _ = try await store.enqueue(messages(9, priority: 450, ttl: 60, onDuplicate: .refresh), now: at(1))
            // When
            let delivered = try #require(try await store.next(session: session, now: at(2)))
            // Then
            #expect(delivered.content == .alert(id: "app/newMessages", parameters: ["count": .integer(9)]))
            #expect(delivered.priority == 450)
            #expect(delivered.expiresAt == at(61))
            #expect(delivered.state == .presenting)
            #expect(delivered.deliveries == 1)
        }
    }

    @Test("In a long session, a refreshed item's position is its place in the listing", arguments: StoreFactory.all)
    func refreshPositionInLongSession(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given: 40 queued items of four priorities, the refreshed one among them
            for index in 0..<40 {
                _ = try await store.enqueue(alert("app/a\(index)", priority: 100 * (index % 4)), now: t0)
            }
            _ = try await store.enqueue(messages(1, priority: 200), now: t0)
            for index in 40..<50 {
                _ = try await store.enqueue(alert("app/a\(index)", priority: 100 * (index % 4)), now: t0)
            }
            for (step, priority) in [300, 0, 200, 100, 200].enumerated() {
                // When
                let refreshed = try await store.enqueue(
                    messages(step + 2, priority: priority, onDuplicate: .refresh), now: at(Double(step)))
                // Then
                let listed = try await store.items(session: session, now: at(Double(step))).map(\.ticket)
                #expect(refreshed.refreshed)
                #expect(refreshed.position == 1 + (listed.firstIndex(of: refreshed.item.ticket) ?? -1), "priority \(priority)")
            }
        }
    }

    /// newMessages from one sender: one dedupe key whatever the count.
    private func messages(
        _ count: Int, priority: Int, ttl: Double? = nil, onDuplicate: NewItem.OnDuplicate = .keep
    ) -> NewItem {
        var new = alert("app/newMessages", priority: priority, key: "messages:Ana", ttl: ttl, parameters: ["count": .integer(count)])
        new.onDuplicate = onDuplicate
        return new
    }

    /// Enqueues `item` `count` times at once, spreading the calls over `stores`.
    static func enqueueConcurrently(
        _ count: Int, _ item: NewItem, into stores: [any QueueStore]
    ) async throws -> [EnqueueResult] {
        try await withThrowingTaskGroup(of: EnqueueResult.self) { group in
            for index in 0..<count {
                let store = stores[index % stores.count]
                group.addTask { try await store.enqueue(item, now: t0) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }
}
