import AlertQueue
import AlertSpec
import Foundation
import Testing

@testable import AlertQueuePostgres

/// Refreshing duplicates on PostgreSQL: through a batch of enqueues, and across instances.
@Suite("PostgreSQL refreshes", .serialized)
struct PostgresRefreshTests {
    @Test("A batch refreshes its duplicates (held back from enqueue_counted), each with its place, beside new items")
    func batchRefreshes() async throws {
        // Given: two queued items in the session, one in another
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let store = try database.open()
        let live = try await store.enqueue(alert("app/x", priority: 500, key: "k"), now: t0).item
        _ = try await store.enqueue(alert("app/y", priority: 600), now: t0)
        let other = try await store.enqueue(alert("app/z", in: "s3", key: "z"), now: t0).item
        // When: one batch refreshes both, into another priority and another lane, and queues a new one
        var refreshes = [alert("app/x", priority: 900, key: "k", ttl: 30), alert("app/z", in: "s3", lane: .toast, key: "z")]
        for index in refreshes.indices { refreshes[index].onDuplicate = .refresh }
        let results = try await store.enqueueAsOneBatch([refreshes[0], alert("app/a", in: "s2"), refreshes[1]], now: at(1))
        // Then
        #expect(!results[0].created && results[0].refreshed)
        #expect(results[0].item.ticket == live.ticket && results[0].item.sequence == live.sequence)
        #expect(results[0].item.priority == 900 && results[0].item.expiresAt == at(31))
        #expect(results[0].position == 1)
        #expect(results[1].created)
        #expect(results[2].refreshed && results[2].item.lane == .toast && results[2].item.ticket == other.ticket)
        #expect(try await store.item(session: session, ticket: live.ticket) == results[0].item)
        #expect(try await store.listedIDs(now: at(1)) == ["app/x", "app/y"])
        #expect(try await store.next(session: "s3", now: at(1))?.lane == .toast)
    }

    @Test("An instance delivers the content another instance refreshed, whatever it read before")
    func refreshSeenAcrossInstances() async throws {
        // Given: an item queued, and read by the first instance
        let database = try await PostgresTestDatabase.make()
        defer { database.remove() }
        let (first, second) = (try database.open(), try database.open())
        let queued = try await first.enqueue(alert("app/newMessages", key: "m", parameters: ["count": .integer(3)]), now: t0).item
        #expect(try await first.items(session: session, now: t0).map(\.content) == [queued.content])
        // When the second refreshes it
        var refresh = alert("app/newMessages", key: "m", parameters: ["count": .integer(9)])
        refresh.onDuplicate = .refresh
        #expect(try await second.enqueue(refresh, now: at(1)).refreshed)
        // Then the first delivers the refreshed content
        let delivered = try await first.next(session: session, now: at(2))
        #expect(delivered?.ticket == queued.ticket)
        #expect(delivered?.content == .alert(id: "app/newMessages", parameters: ["count": .integer(9)]))
    }
}
