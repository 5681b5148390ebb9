import AlertQueue
import AlertSpec
import Foundation
import Testing

/// The retention's purge: finished items older than the cutoff go with their timelines, in
/// batches of a bounded size; live items and recent history stay.
extension QueueStoreContract {
    @Test("Items finished before the cutoff go with their events; live items and later history stay", arguments: StoreFactory.all)
    func purgeFinishedBeforeCutoff(_ factory: StoreFactory) async throws {
        let settings = QueueSettings(leaseDuration: 10, maxDeliveries: 1, maxQueueLength: 8)
        try await factory.withStore(settings) { store in
            // Given: an item of each finished state, finished by at(20); one queued; one
            // enqueued early but cancelled late; another session's done item
            let done = try await store.enqueue(alert("app/done", priority: 900), now: t0).item.ticket
            _ = try await store.next(session: session, now: t0)
            _ = try await store.ack(session: session, ticket: done, chain: nil, input: "typed", now: at(1))
            let cancelled = try await store.enqueue(toast("app/cancelled"), now: at(2)).item.ticket
            _ = try await store.cancel(session: session, ticket: cancelled, now: at(3))
            let expired = try await store.enqueue(alert("app/expired", priority: 100, ttl: 5), now: at(4)).item.ticket
            let dead = try await store.enqueue(alert("app/dead", priority: 900), now: at(5)).item.ticket
            #expect(try await store.next(session: session, now: at(5))?.ticket == dead)
            let queued = try await store.enqueue(alert("app/queued", priority: 50), now: at(7)).item.ticket
            let late = try await store.enqueue(alert("app/late", priority: 10), now: at(8)).item.ticket
            let other = try await store.enqueue(alert("app/other", in: "s2"), now: at(9)).item.ticket
            _ = try await store.next(session: "s2", now: at(9))
            _ = try await store.ack(session: "s2", ticket: other, chain: nil, now: at(10))
            let states = try await store.items(session: session, now: at(20)).map(\.state)  // ends the lease and the TTL
            #expect(states.contains(.dead) && states.filter { $0 == .queued }.count == 2)
            _ = try await store.cancel(session: session, ticket: late, now: at(100))
            var events = try await store.timeline(session: "s2", ticket: other).count
            for ticket in [done, cancelled, expired, dead] { events += try await store.timeline(session: session, ticket: ticket).count }

            // When: the cutoff is at(50)
            let purged = try await store.purgeAll(finishedBefore: at(50), limit: 3)

            // Then: the five items finished by at(20) went, with every event of theirs
            #expect(purged == Erasure(items: 5, events: events))
            for ticket in [done, cancelled, expired, dead] {
                #expect(try await store.item(session: session, ticket: ticket) == nil)
                #expect(try await store.timeline(session: session, ticket: ticket).isEmpty)
            }
            #expect(try await store.item(session: "s2", ticket: other) == nil)
            // The queued item and the one cancelled at at(100) stay, timelines and all
            #expect(try await store.items(session: session, now: at(60)).map(\.ticket) == [queued])
            #expect(try await store.history(session: session, before: nil, limit: 10).items.map(\.ticket) == [late])
            #expect(try await store.timeline(session: session, ticket: late).map(\.event.kind) == [.enqueued, .cancelled])
            #expect(try await store.timeline(session: session, ticket: queued).count == 1)

            // When the cutoff passes the late cancel, it goes too; the queued item never does
            #expect(try await store.purgeAll(finishedBefore: at(1_000)).items == 1)
            #expect(try await store.history(session: session, before: nil, limit: 10).items.isEmpty)
            #expect(try await store.item(session: session, ticket: queued)?.state == .queued)
            #expect(try await store.purgeAll(finishedBefore: at(1_000)) == .nothing)
        }
    }

    @Test("A purge batch looks at no more items than its limit, and the sweep goes on from its cursor", arguments: StoreFactory.all)
    func purgeBatchesRespectTheLimit(_ factory: StoreFactory) async throws {
        try await factory.withStore(QueueSettings(maxQueueLength: 20)) { store in
            // Given: a queued item first, then seven cancelled ones, then one enqueued after the cutoff
            _ = try await store.enqueue(alert("app/live"), now: t0)
            for index in 0..<7 {
                let ticket = try await store.enqueue(alert("app/a\(index)", in: "s\(index)"), now: at(1)).item.ticket
                _ = try await store.cancel(session: "s\(index)", ticket: ticket, now: at(2))
            }
            let recent = try await store.enqueue(alert("app/recent", in: "s9"), now: at(100)).item.ticket
            _ = try await store.cancel(session: "s9", ticket: recent, now: at(101))

            // When: batches of 3, cutoff at(50)
            var batches: [PurgeBatch] = []
            var cursor: PurgeCursor?
            repeat {
                let batch = try await store.purge(finishedBefore: at(50), after: cursor, limit: 3)
                batches.append(batch)
                cursor = batch.next
            } while cursor != nil && batches.count < 10

            // Then: the live item is stepped over, the first batch purges the two after it, and
            // the sweep ends at the item enqueued after the cutoff
            #expect(batches.map(\.items) == [2, 3, 2])
            #expect(batches.map { $0.next == nil } == [false, false, true])
            #expect(batches.allSatisfy { $0.events == 2 * $0.items })
            #expect(try await store.items(session: session, now: at(50)).count == 1)
            #expect(try await store.item(session: "s9", ticket: recent)?.state == .cancelled)
        }
    }

    @Test("Purging an empty store, an erased session or one never seen purges nothing", arguments: StoreFactory.all)
    func purgeOfNothing(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given: nothing stored
            #expect(try await store.purge(finishedBefore: at(1_000), after: nil, limit: 10) == PurgeBatch(items: 0, events: 0, next: nil))
            // Given: a session with history, erased
            let ticket = try await store.enqueue(alert("app/a"), now: t0).item.ticket
            _ = try await store.cancel(session: session, ticket: ticket, now: t0)
            _ = try await store.erase(session: session)
            // When, then
            #expect(try await store.purgeAll(finishedBefore: at(1_000)) == .nothing)
            #expect(try await store.purge(finishedBefore: at(1_000), after: PurgeCursor(sequence: 1 << 40), limit: 10).items == 0)
            #expect(try await store.history(session: "never", before: nil, limit: 10).items.isEmpty)
        }
    }
}
