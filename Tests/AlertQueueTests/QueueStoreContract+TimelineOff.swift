import AlertQueue
import AlertSpec
import Foundation
import Testing

/// `QueueSettings.recordsEvents` off: the same queue, without timelines.
extension QueueStoreContract {
    @Test("With the timeline off, enqueue, next, ack, lease end and expiry record no event and behave as with it on", arguments: StoreFactory.all)
    func timelineOff(_ factory: StoreFactory) async throws {
        // Given the same steps on a store with the timeline on and on one with it off
        let settings = QueueSettings(leaseDuration: 10, maxDeliveries: 1)
        var bare = settings
        bare.recordsEvents = false
        let on = try await factory.withStore(settings) { try await Self.fullCycle($0) }
        let off = try await factory.withStore(bare) { try await Self.fullCycle($0) }

        // Then the queue answered alike, and only the store with the timeline on wrote events
        #expect(off.answers == on.answers)
        #expect(on.events == 16)  // 8 enqueued, 4 delivered, 1 acknowledged, 1 dead, 1 expired, 1 cancelled
        #expect(off.events == 0)
    }

    /// Every way a step changes items, once each: a batch of enqueues (PostgreSQL's one-statement
    /// enqueue), an enqueue that delivers at once, `next` (PostgreSQL's claim), an ack with an
    /// action and a chain, a lease that ends (dead), a TTL that passes (expired), a cancel. Returns
    /// what the store answered, without tickets, and how many events it holds for the tickets met.
    private static func fullCycle(_ store: any QueueStore) async throws -> (answers: [String], events: Int) {
        var answers: [String] = []
        var tickets: [String: String] = [:]  // ticket: session
        func note(_ label: String, _ item: QueueItem?) {
            guard let item else { return answers.append("\(label): none") }
            tickets[item.ticket] = item.session
            answers.append("\(label): \(shape(item))")
        }
        // Enqueues into sessions of their own at once, which may share a write or a statement
        let batch = try await withThrowingTaskGroup(of: EnqueueResult.self) { group in
            for index in 0..<4 { group.addTask { try await store.enqueue(alert("app/a", in: "b\(index)"), now: t0) } }
            return try await group.reduce(into: []) { $0.append($1) }.sorted { $0.item.session < $1.item.session }
        }
        for result in batch { note("batch created \(result.created) at \(result.position)", result.item) }
        // A session's life
        let first = try await store.enqueue(alert("app/first", ttl: 100), now: t0)
        note("enqueue created \(first.created) at \(first.position)", first.item)
        let short = try await store.enqueue(alert("app/short", ttl: 5), now: t0)
        note("enqueue created \(short.created) at \(short.position)", short.item)
        let duplicate = try await store.enqueue(alert("app/first"), now: at(0.5))
        note("duplicate created \(duplicate.created)", duplicate.item)
        let delivered = try await store.next(session: session, now: at(1))
        note("next", delivered)
        let acked = try await store.acknowledge(session: session, ticket: try #require(delivered).ticket, input: "42", now: at(2)) { _ in
            AckAnswer(chain: alert("app/chained"), action: "ok", role: "primary")
        }
        note("ack", acked.item)
        note("chained", acked.chained)
        note("next", try await store.next(session: session, now: at(3)))  // the chain
        // At 20 the chain's lease ended (dead, one delivery allowed) and the short TTL passed
        note("next after the lease and the TTL", try await store.next(session: session, now: at(20)))
        for item in try await store.items(session: session, now: at(20)) { note("listed", item) }
        for ticket in [first.item.ticket, short.item.ticket, try #require(acked.chained).ticket] {
            note("item", try await store.item(session: session, ticket: ticket))
        }
        // An enqueue delivered at once, then a cancel
        let both = try await store.enqueueThenNext(alert("app/now", in: "w"), now: at(21))
        note("enqueue then next", both.delivered)
        let second = try await store.enqueue(alert("app/later", in: "w"), now: at(21))
        answers.append("cancelled \(try await store.cancel(session: "w", ticket: second.item.ticket, by: .admin, now: at(22)))")
        note("cancelled", try await store.item(session: "w", ticket: second.item.ticket))
        // History lists the finished items either way
        answers.append("history \(try await store.history(session: session, before: nil, limit: 10).items.map(shape))")
        var events = 0
        for (ticket, session) in tickets { events += try await store.timeline(session: session, ticket: ticket).count }
        return (answers, events)
    }

    /// An item without its ticket and sequence, which differ from store to store.
    private static func shape(_ item: QueueItem) -> String {
        func since(_ date: Date?) -> String { date.map { "\($0.timeIntervalSince(t0))" } ?? "-" }
        return "\(item.alertID ?? "spec") in \(item.session): \(item.state), \(item.deliveries) deliveries, "
            + "lease \(since(item.leaseUntil)), expires \(since(item.expiresAt)), head \(item.atHead), input \(item.input ?? "-")"
    }
}
