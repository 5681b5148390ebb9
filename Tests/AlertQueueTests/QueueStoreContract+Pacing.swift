import AlertQueue
import AlertSpec
import Foundation
import Testing

/// Pacing decided in the store's step (`QueuePolicy.next` with the deliveries the store keeps):
/// every store counts the same deliveries the same way, the user's other sessions included.
extension QueueStoreContract {
    /// An alert of `id` paced by `rule`.
    func paced(_ id: String, in session: String = session, key: String? = nil, priority: Int = 500, ttl: Double? = nil, _ rule: Pacing)
        -> NewItem
    {
        var item = alert(id, in: session, priority: priority, key: key, ttl: ttl)
        item.pacing = rule
        return item
    }

    /// Delivers the session's next item and acks it at `now`; its alert id.
    func showAndAck(_ store: any QueueStore, session: String = session, now: Date) async throws -> String? {
        guard let item = try await store.next(session: session, now: now) else { return nil }
        _ = try await store.ack(session: session, ticket: item.ticket, chain: nil, now: now)
        return item.alertID
    }

    @Test("A limit lets its alert be shown its count in a period; the next waits until the oldest leaves it", arguments: StoreFactory.all)
    func pacingLimitAtItsBoundary(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            let rule = Pacing(limits: [.init(count: 2, period: .hours(1))])
            for (index, second) in [0.0, 600, 1_200].enumerated() {
                _ = try await store.enqueue(paced("app/promo", key: "p\(index)", rule), now: at(second))
            }
            // Shown twice in the hour
            #expect(try await showAndAck(store, now: t0) == "app/promo")
            #expect(try await showAndAck(store, now: at(600)) == "app/promo")
            // The third waits, queued, until the first showing is an hour old
            #expect(try await store.next(session: session, now: at(1_200)) == nil)
            #expect(try await store.next(session: session, now: at(3_599)) == nil)
            #expect(try await store.items(session: session, now: at(3_599)).map(\.state) == [.queued])
            #expect(try await store.nextTimedChange(session: session, now: at(1_200)) == at(3_600))
            #expect(try await store.next(session: session, now: at(3_600))?.alertID == "app/promo")
        }
    }

    @Test("A deferred item is stepped over for the next best; a dropped one is finished as capped", arguments: StoreFactory.all)
    func pacingDeferAndDrop(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            let gap = Pacing(minGap: .init(duration: .seconds(60)))
            _ = try await store.enqueue(paced("app/news", key: "n1", priority: 900, gap), now: t0)
            #expect(try await showAndAck(store, now: t0) == "app/news")
            // Given a second news within the gap, above an ordinary alert, and a once-only tour shown already
            let later = try await store.enqueue(paced("app/news", key: "n2", priority: 900, gap), now: at(10)).item
            _ = try await store.enqueue(alert("app/plain"), now: at(10))
            let drop = Pacing(once: .init(), whenCapped: .drop)
            _ = try await store.enqueue(paced("app/tour", key: "t1", priority: 950, drop), now: at(10))
            #expect(try await showAndAck(store, now: at(10)) == "app/tour")
            let second = try await store.enqueue(paced("app/tour", key: "t2", priority: 950, drop), now: at(20)).item
            // When: within the gap, the news waits and the plain alert goes; the second tour is dropped
            #expect(try await showAndAck(store, now: at(30)) == "app/plain")
            let dropped = try #require(try await store.item(session: session, ticket: second.ticket))
            #expect(dropped.state == .cancelled)
            let ending = try await store.timeline(session: session, ticket: second.ticket).last?.event
            #expect(ending?.kind == .capped && ending?.detail["rule"] == .string("once"))
            #expect(try await store.item(session: session, ticket: later.ticket)?.state == .queued)
            // Then the news once the gap has passed
            #expect(try await store.next(session: session, now: at(59)) == nil)
            #expect(try await store.next(session: session, now: at(60))?.ticket == later.ticket)
        }
    }

    @Test("A user-wide rule counts the user's other sessions: once ever on the phone holds it back on the tablet", arguments: StoreFactory.all)
    func pacingAcrossTheUsersSessions(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            let directory = try #require(store as? any SessionDirectory)
            _ = try await directory.register(session: "phone", user: "ana", topics: nil, now: t0)
            _ = try await directory.register(session: "tablet", user: "ana", topics: nil, now: t0)
            _ = try await directory.register(session: "bo-phone", user: "bo", topics: nil, now: t0)
            let once = Pacing(once: .init(scope: .user))
            for device in ["phone", "tablet", "bo-phone"] { _ = try await store.enqueue(paced("app/promo", in: device, once), now: t0) }
            // Shown on ana's phone
            #expect(try await showAndAck(store, session: "phone", now: at(1)) == "app/promo")
            // Not on her tablet, even a year on; bo is another user
            #expect(try await store.next(session: "tablet", now: at(2)) == nil)
            #expect(try await store.next(session: "tablet", now: at(86_400 * 365)) == nil)
            #expect(try await store.next(session: "bo-phone", now: at(2))?.alertID == "app/promo")
            // A session-wide rule counts the session alone
            _ = try await store.enqueue(paced("app/tip", in: "phone", Pacing(once: .init())), now: at(3))
            _ = try await store.enqueue(paced("app/tip", in: "tablet", Pacing(once: .init())), now: at(3))
            #expect(try await showAndAck(store, session: "phone", now: at(4)) == "app/tip")
            #expect(try await store.next(session: "tablet", now: at(5))?.alertID == "app/tip")
        }
    }

    @Test("An item's rule is kept with it and read back; explain names what holds it and when it lifts", arguments: StoreFactory.all)
    func pacingKeptAndExplained(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            let rule = Pacing(limits: [.init(count: 1, period: .days(1), scope: .user)], minGap: .init(duration: .minutes(5)), whenCapped: .defer)
            _ = try await store.enqueue(paced("app/promo", key: "a", rule), now: t0)
            #expect(try await showAndAck(store, now: t0) == "app/promo")
            let waiting = try await store.enqueue(paced("app/promo", key: "b", rule), now: at(60)).item
            #expect(try await store.item(session: session, ticket: waiting.ticket)?.pacing == rule)
            // When
            let snapshot = try await store.snapshot(session: session, now: at(120), finished: 0)
            let why = QueueExplanation(snapshot, policy: QueuePolicy(settings: QueueSettings()))
            // Then: of the day's limit and the gap, the limit lifts last
            let explained = try #require(why.item(ticket: waiting.ticket))
            #expect(explained.code == .pacingLimit && explained.until == at(86_400))
        }
    }
}
