import AlertQueue
import Foundation
import Testing

/// `snapshot`, the read behind `GET …/explain`: every store reads the same session the same way,
/// and changes nothing.
extension QueueStoreContract {
    @Test("A snapshot holds the live and dead items as stored, the hold and the latest finished items", arguments: StoreFactory.all)
    func snapshotReadsTheSession(_ factory: StoreFactory) async throws {
        try await factory.withStore(QueueSettings(maxDeliveries: 1)) { store in
            // Given: one done, one cancelled, one dead, one presenting, one queued with a TTL, a hold
            let done = try await store.enqueue(alert("app/done", priority: 900), now: t0).item
            _ = try await store.next(session: session, now: t0)
            _ = try await store.ack(session: session, ticket: done.ticket, chain: nil, now: t0)
            let cancelled = try await store.enqueue(alert("app/cancelled"), now: at(1)).item
            _ = try await store.cancel(session: session, ticket: cancelled.ticket, now: at(1))
            let dead = try await store.enqueue(alert("app/dead", priority: 900), now: at(2)).item
            _ = try await store.next(session: session, now: at(2))
            _ = try await store.items(session: session, now: at(100))  // the lease ended: dead
            let presenting = try await store.enqueue(alert("app/presenting", priority: 900), now: at(100)).item
            _ = try await store.next(session: session, now: at(100))
            let queued = try await store.enqueue(alert("app/queued", ttl: 10), now: at(101)).item
            try await store.hold(session: session, until: at(130))
            _ = try await store.enqueue(alert("app/other", in: "other"), now: at(101))

            // When: read after the TTL and the lease ended, with room for two finished items
            let snapshot = try await store.snapshot(session: session, now: at(200), finished: 2)

            // Then: the live and dead items as stored, in enqueue order, nothing ended by the read
            #expect(snapshot.session == session)
            #expect(snapshot.now == at(200))
            #expect(snapshot.items.map(\.ticket) == [dead.ticket, presenting.ticket, queued.ticket])
            #expect(snapshot.items.map(\.state) == [.dead, .presenting, .queued])
            #expect(snapshot.holdUntil == at(130))
            #expect(snapshot.finished.map(\.ticket) == [cancelled.ticket, done.ticket])
            #expect(snapshot.finished.map(\.state) == [.cancelled, .done])
            #expect(try await store.item(session: session, ticket: queued.ticket)?.state == .queued)
            #expect(try await store.item(session: session, ticket: presenting.ticket)?.state == .presenting)
        }
    }

    @Test("A snapshot gives at most the finished items asked for, and none of another session", arguments: StoreFactory.all)
    func snapshotLimitsFinished(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given: three expired items, written as expired by a listing
            for index in 0..<3 { _ = try await store.enqueue(alert("app/a\(index)", ttl: 1), now: at(Double(index))) }
            _ = try await store.items(session: session, now: at(50))
            // When
            let one = try await store.snapshot(session: session, now: at(50), finished: 1)
            let none = try await store.snapshot(session: "other", now: at(50), finished: 5)
            // Then
            #expect(one.items.isEmpty)
            #expect(one.finished.map(\.alertID) == ["app/a2"])
            #expect(one.finished.first?.state == .expired)
            #expect(none.items.isEmpty && none.finished.isEmpty && none.holdUntil == nil)
        }
    }
}
