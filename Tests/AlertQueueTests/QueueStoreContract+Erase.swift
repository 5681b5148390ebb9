import AlertQueue
import AlertSpec
import Foundation
import Testing

/// Erasing a session removes every trace of it — items of every state, timelines, hold, counts —
/// and nothing of any other session.
extension QueueStoreContract {
    @Test("Erasing a session removes its items of every state, their timelines and its hold", arguments: StoreFactory.all)
    func eraseSession(_ factory: StoreFactory) async throws {
        let settings = QueueSettings(leaseDuration: 10, maxDeliveries: 1, maxQueueLength: 8)
        try await factory.withStore(settings) { store in
            // Given: one item in each state, a hold, and another session with an input
            let done = try await store.enqueue(alert("app/done", priority: 900), now: t0).item.ticket
            _ = try await store.next(session: session, now: t0)
            _ = try await store.acknowledge(session: session, ticket: done, input: "secret words", now: at(1)) { _ in AckAnswer() }
            let dead = try await store.enqueue(alert("app/dead", priority: 900), now: at(2)).item.ticket
            _ = try await store.next(session: session, now: at(2))
            let expired = try await store.enqueue(alert("app/expired", priority: 800, ttl: 5), now: at(3)).item.ticket
            let presenting = try await store.enqueue(alert("app/presenting", priority: 100), now: at(4)).item.ticket
            let cancelled = try await store.enqueue(alert("app/cancelled", priority: 50), now: at(5)).item.ticket
            let queued = try await store.enqueue(alert("app/queued", priority: 10), now: at(6)).item.ticket
            #expect(try await store.next(session: session, now: at(13))?.ticket == presenting)
            _ = try await store.cancel(session: session, ticket: cancelled, now: at(14))
            try await store.hold(session: session, until: at(100))
            let other = try await store.enqueue(alert("app/other", in: "s2"), now: t0).item.ticket
            _ = try await store.next(session: "s2", now: t0)
            _ = try await store.acknowledge(session: "s2", ticket: other, input: "kept", now: at(1)) { _ in AckAnswer() }
            try await store.hold(session: "s2", until: at(100))
            let tickets = [done, dead, expired, presenting, cancelled, queued]
            var states: [ItemState] = []
            var events = 0
            for ticket in tickets {
                states.append(try #require(try await store.item(session: session, ticket: ticket)).state)
                events += try await store.timeline(session: session, ticket: ticket).count
            }
            #expect(states == [.done, .dead, .expired, .presenting, .cancelled, .queued])
            let otherTimeline = try await store.timeline(session: "s2", ticket: other)

            // When
            let erased = try await store.erase(session: session)

            // Then: nothing of the session is left
            #expect(erased == Erasure(items: 6, events: events))
            for ticket in tickets {
                #expect(try await store.item(session: session, ticket: ticket) == nil)
                #expect(try await store.timeline(session: session, ticket: ticket).isEmpty)
            }
            #expect(try await store.items(session: session, now: at(20)).isEmpty)
            #expect(try await store.history(session: session, before: nil, limit: 100).items.isEmpty)
            #expect(try await store.holdUntil(session: session, now: at(20)) == nil)
            #expect(try await store.next(session: session, now: at(20)) == nil)
            let snapshot = try await store.snapshot(session: session, now: at(20), finished: 10)
            #expect(snapshot.items.isEmpty && snapshot.finished.isEmpty && snapshot.holdUntil == nil)
            // The other session is as it was
            let kept = try #require(try await store.item(session: "s2", ticket: other))
            #expect(kept.state == .done && kept.input == "kept")
            #expect(try await store.timeline(session: "s2", ticket: other) == otherTimeline)
            #expect(try await store.holdUntil(session: "s2", now: at(20)) == at(100))
            // Erasing again, or a session never seen, erases nothing
            #expect(try await store.erase(session: session) == .nothing)
            #expect(try await store.erase(session: "never") == .nothing)
        }
    }

    @Test("An erased session's counts are gone: it queues up to the limit again, from position 1", arguments: StoreFactory.all)
    func eraseKeepsCounts(_ factory: StoreFactory) async throws {
        try await factory.withStore(QueueSettings(maxQueueLength: 4)) { store in
            // Given: a full queue, one item presenting
            for index in 0..<4 { _ = try await store.enqueue(alert("app/a\(index)"), now: t0) }
            _ = try await store.next(session: session, now: t0)
            // When
            #expect(try await store.erase(session: session).items == 4)
            // Then: a count left behind would refuse the fourth enqueue, or place the first later
            var positions: [Int] = []
            for index in 0..<4 { positions.append(try await store.enqueue(alert("app/b\(index)"), now: at(1)).position) }
            #expect(positions == [1, 2, 3, 4])
            await #expect(throws: QueueError.queueFull(limit: 4)) { try await store.enqueue(alert("app/b4"), now: at(1)) }
        }
    }
}
