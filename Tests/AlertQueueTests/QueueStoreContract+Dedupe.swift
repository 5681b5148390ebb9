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
