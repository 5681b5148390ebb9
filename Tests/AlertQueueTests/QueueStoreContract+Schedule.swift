import AlertQueue
import AlertSpec
import Foundation
import Testing

/// An item with a `notBefore` is not deliverable before it; then it competes like any other.
extension QueueStoreContract {
    @Test("A scheduled item is not delivered before its time, and is at it", arguments: StoreFactory.all)
    func scheduledWaitsForItsTime(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            let new = scheduled(alert("app/promo"), .after(seconds: 60))
            let ticket = try await store.enqueue(new, now: t0).item.ticket
            // Then
            #expect(try await store.item(session: session, ticket: ticket)?.notBefore == at(60))
            #expect(try await store.items(session: session, now: t0).first?.notBefore == at(60))
            #expect(try await store.next(session: session, now: at(59.9)) == nil)
            #expect(try await store.next(session: session, now: at(60))?.ticket == ticket)
        }
    }

    @Test("A time already past means now", arguments: StoreFactory.all)
    func pastScheduleIsNow(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            let result = try await store.enqueue(scheduled(alert("app/a", ttl: 30), .at(at(-10))), now: t0)
            #expect(result.item.notBefore == nil)
            #expect(result.item.expiresAt == at(30))
            #expect(try await store.next(session: session, now: t0)?.ticket == result.item.ticket)
        }
    }

    @Test("A scheduled item blocks nothing before its time and jumps nothing after it", arguments: StoreFactory.all)
    func scheduledKeepsItsPlace(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given: a scheduled item of the highest priority, an older one and a newer one of its own
            let high = try await store.enqueue(scheduled(alert("app/high", priority: 900), .after(seconds: 60)), now: t0).item
            let older = try await store.enqueue(scheduled(alert("app/older"), .after(seconds: 60)), now: t0).item
            let low = try await store.enqueue(alert("app/low", priority: 100), now: at(1)).item
            let newer = try await store.enqueue(alert("app/newer"), now: at(2)).item
            // When: before their time, the others flow
            let first = try #require(try await store.next(session: session, now: at(3)))
            _ = try await store.ack(session: session, ticket: first.ticket, chain: nil, now: at(3))
            // Then: the unscheduled item first; at the schedule, priority then enqueue order
            #expect(first.ticket == newer.ticket)
            var order: [String] = []
            while let item = try await store.next(session: session, now: at(60)) {
                order.append(item.ticket)
                _ = try await store.ack(session: session, ticket: item.ticket, chain: nil, now: at(60))
            }
            #expect(order == [high.ticket, older.ticket, low.ticket])
        }
    }

    @Test("The TTL of a scheduled item counts from its time", arguments: StoreFactory.all)
    func ttlCountsFromSchedule(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            let kept = try await store.enqueue(scheduled(alert("app/a", ttl: 30), .after(seconds: 60)), now: t0).item
            let lost = try await store.enqueue(scheduled(alert("app/b", lane: .toast, ttl: 30), .at(at(60))), now: t0).item
            #expect(kept.expiresAt == at(90) && lost.expiresAt == at(90))
            #expect(try await store.next(session: session, now: at(89))?.ticket == kept.ticket)
            #expect(try await store.next(session: session, now: at(90)) == nil)
            #expect(try await store.item(session: session, ticket: lost.ticket)?.state == .expired)
        }
    }

    @Test("With the timeline off (PostgreSQL: the claim an instance of the version before calls) a scheduled item waits too", arguments: StoreFactory.all)
    func scheduledWithTimelineOff(_ factory: StoreFactory) async throws {
        try await factory.withStore(QueueSettings(recordsEvents: false)) { store in
            let ticket = try await store.enqueue(scheduled(alert("app/a"), .after(seconds: 60)), now: t0).item.ticket
            _ = try await store.enqueue(alert("app/b", priority: 100), now: t0)
            #expect(try await store.next(session: session, now: at(59))?.alertID == "app/b")
            _ = try await store.cancel(session: session, ticket: nil, now: at(59))
            let again = try await store.enqueue(scheduled(alert("app/c"), .after(seconds: 60)), now: at(59))
            #expect(try await store.next(session: session, now: at(118)) == nil)
            #expect(try await store.next(session: session, now: at(119))?.ticket == again.item.ticket)
            #expect(try await store.item(session: session, ticket: ticket)?.state == .cancelled)
        }
    }

    @Test("A scheduled HUD is not delivered before its time either", arguments: StoreFactory.all)
    func scheduledHUD(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            let ticket = try await store.enqueue(scheduled(hud("app/saved"), .after(seconds: 5)), now: t0).item.ticket
            #expect(try await store.next(session: session, now: at(4)) == nil)
            let delivered = try await store.next(session: session, now: at(5))
            #expect(delivered?.ticket == ticket && delivered?.state == .done)
        }
    }

    @Test("The store tells when a waiting poll must look again: the first schedule or the hold's end", arguments: StoreFactory.all)
    func nextTimedChange(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            #expect(try await store.nextTimedChange(session: session, now: t0) == nil)
            _ = try await store.enqueue(scheduled(alert("app/a"), .after(seconds: 120)), now: t0)
            _ = try await store.enqueue(scheduled(alert("app/b"), .after(seconds: 60)), now: t0)
            #expect(try await store.nextTimedChange(session: session, now: t0) == at(60))
            try await store.hold(session: session, until: at(30))
            #expect(try await store.nextTimedChange(session: session, now: t0) == at(30))
            #expect(try await store.nextTimedChange(session: session, now: at(30)) == at(60))
            #expect(try await store.nextTimedChange(session: session, now: at(60)) == at(120))
            #expect(try await store.nextTimedChange(session: "s2", now: t0) == nil)
        }
    }

    @Test("Explain says scheduled until its time, and the timeline's enqueued event carries it", arguments: StoreFactory.all)
    func explainAndTimeline(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            let item = try await store.enqueue(scheduled(alert("app/a"), .after(seconds: 60)), now: t0).item
            let why = QueueExplanation(try await store.snapshot(session: session, now: at(10), finished: 5), policy: QueuePolicy())
            #expect(why.code == .scheduled && why.next == nil)
            #expect(why.items.first?.code == .scheduled && why.items.first?.until == at(60))
            let later = QueueExplanation(try await store.snapshot(session: session, now: at(60), finished: 5), policy: QueuePolicy())
            #expect(later.code == .next)
            let events = try await store.timeline(session: session, ticket: item.ticket).map(\.event)
            #expect(events.first?.detail == ["by": .string("admin"), "notBefore": .string(ItemEvent.timeText(at(60)))])
        }
    }

    @Test("A duplicate refreshes a scheduled item to its own schedule; keep leaves it", arguments: StoreFactory.all)
    func dedupeOfScheduled(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            let ticket = try await store.enqueue(scheduled(alert("app/a", ttl: 10), .after(seconds: 60)), now: t0).item.ticket
            // When: a keep changes nothing; a refresh moves it later, then one without a schedule makes it due
            var keep = scheduled(alert("app/a"), .after(seconds: 5))
            keep.onDuplicate = .keep
            #expect(try await store.enqueue(keep, now: at(1)).refreshed == false)
            var later = scheduled(alert("app/a", ttl: 10), .after(seconds: 100))
            later.onDuplicate = .refresh
            let moved = try await store.enqueue(later, now: at(2))
            // Then
            #expect(moved.refreshed && moved.item.ticket == ticket)
            let stored = try await store.item(session: session, ticket: ticket)
            #expect(stored?.notBefore == at(102) && stored?.expiresAt == at(112))
            #expect(try await store.next(session: session, now: at(60)) == nil)
            var now = alert("app/a")
            now.onDuplicate = .refresh
            _ = try await store.enqueue(now, now: at(61))
            #expect(try await store.next(session: session, now: at(61))?.ticket == ticket)
            let refreshed = try await store.timeline(session: session, ticket: ticket).map(\.event).filter { $0.kind == .refreshed }
            #expect(refreshed.first?.detail["notBefore"] == .string(ItemEvent.timeText(at(102))))
        }
    }
}

/// `new`, scheduled.
func scheduled(_ new: NewItem, _ notBefore: NotBefore) -> NewItem {
    var new = new
    new.notBefore = notBefore
    return new
}
