import AlertQueue
import AlertSpec
import Foundation
import Testing

/// Copies of one alert on several sessions: queued in one step; the first ack of a group takes
/// the other copies back (queued ones cancelled, presenting ones withdrawn and handed to their
/// devices by `nextDelivery`).
extension QueueStoreContract {
    /// The same alert on each of `sessions`, as a group when `group` is given.
    func copies(_ id: String, on sessions: [String], group: String?, priority: Int = 500) -> [NewItem] {
        sessions.map { session in
            var copy = alert(id, in: session, priority: priority)
            copy.group = group
            return copy
        }
    }

    @Test("Copies are queued on every session in one step, each with its group", arguments: StoreFactory.all)
    func copiesAreQueued(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            let results = try await store.enqueue(copies: copies("app/promo", on: ["phone", "tablet"], group: "g1"), now: t0)
            let queued = try results.map { try $0.get() }
            #expect(queued.map(\.created) == [true, true])
            #expect(queued.map(\.item.session) == ["phone", "tablet"])
            #expect(queued.map(\.item.group) == ["g1", "g1"])
            #expect(queued.map(\.position) == [1, 1])
            let stored = try await store.item(session: "tablet", ticket: queued[1].item.ticket)
            #expect(stored?.group == "g1")
            #expect(try await store.items(session: "phone", now: t0).map(\.group) == ["g1"])
        }
    }

    @Test("A copy whose session is full is refused alone; a duplicate answers with the live item", arguments: StoreFactory.all)
    func copiesRefusedAlone(_ factory: StoreFactory) async throws {
        try await factory.withStore(QueueSettings(maxQueueLength: 1)) { store in
            _ = try await store.enqueue(alert("app/other", in: "full"), now: t0)
            let held = try await store.enqueue(alert("app/promo", in: "dup"), now: t0).item
            let results = try await store.enqueue(copies: copies("app/promo", on: ["free", "full", "dup"], group: "g"), now: at(1))
            #expect(try results[0].get().created)
            #expect(throws: QueueError.queueFull(limit: 1)) { try results[1].get() }
            let duplicate = try results[2].get()
            #expect(!duplicate.created && duplicate.item.ticket == held.ticket)
        }
    }

    @Test("The first ack of a group cancels its queued copies and withdraws its presenting ones", arguments: StoreFactory.all)
    func firstAnswerTakesCopiesBack(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given: three devices; the tablet shows its copy, the watch has not asked yet
            let tickets = try await store.enqueue(copies: copies("app/promo", on: ["phone", "tablet", "watch"], group: "g"), now: t0)
                .map { try $0.get().item.ticket }
            _ = try #require(try await store.next(session: "phone", now: at(1)))
            _ = try #require(try await store.next(session: "tablet", now: at(2)))
            // When: the phone answers
            let done = try await store.acknowledge(session: "phone", ticket: tickets[0], input: nil, now: at(3)) { _ in
                AckAnswer(action: "ok", role: "primary")
            }
            // Then
            #expect(done.item.state == .done)
            #expect(Set(done.takenBack) == [
                TakenBack(session: "tablet", ticket: tickets[1], withdrawn: true),
                TakenBack(session: "watch", ticket: tickets[2], withdrawn: false),
            ])
            #expect(try await store.item(session: "tablet", ticket: tickets[1])?.state == .cancelled)
            #expect(try await store.item(session: "watch", ticket: tickets[2])?.state == .cancelled)
            // The tablet is handed the withdraw once, then nothing; the watch gets nothing at all
            #expect(try await store.nextDelivery(session: "tablet", now: at(4)) == .withdraw(ticket: tickets[1]))
            #expect(try await store.nextDelivery(session: "tablet", now: at(5)) == nil)
            #expect(try await store.nextDelivery(session: "watch", now: at(5)) == nil)
            // The tablet's ack now meets a gone item
            await #expect(throws: QueueError.gone(ticket: tickets[1], state: .cancelled)) {
                _ = try await store.ack(session: "tablet", ticket: tickets[1], chain: nil, now: at(6))
            }
        }
    }

    @Test("The timelines of taken-back copies say why", arguments: StoreFactory.all)
    func takenBackTimelines(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            let tickets = try await store.enqueue(copies: copies("app/promo", on: ["phone", "tablet", "watch"], group: "g"), now: t0)
                .map { try $0.get().item.ticket }
            _ = try await store.next(session: "tablet", now: at(1))
            _ = try await store.ack(session: "phone", ticket: tickets[0], chain: nil, now: at(2))
            let withdrawn = try await store.timeline(session: "tablet", ticket: tickets[1]).map(\.event).last
            let cancelled = try await store.timeline(session: "watch", ticket: tickets[2]).map(\.event).last
            let why: [String: ParameterValue] = ["by": .string("answered"), "after": .string(tickets[0])]
            #expect(withdrawn == ItemEvent(kind: .withdrawn, session: "tablet", ticket: tickets[1], at: at(2), detail: why))
            #expect(cancelled == ItemEvent(kind: .cancelled, session: "watch", ticket: tickets[2], at: at(2), detail: why))
        }
    }

    @Test("A withdraw comes before the next item, and each is handed once", arguments: StoreFactory.all)
    func withdrawComesFirst(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            let tickets = try await store.enqueue(copies: copies("app/promo", on: ["phone", "tablet"], group: "g"), now: t0)
                .map { try $0.get().item.ticket }
            _ = try await store.next(session: "tablet", now: at(1))
            let waiting = try await store.enqueue(alert("app/next", in: "tablet"), now: at(1)).item
            _ = try await store.ack(session: "phone", ticket: tickets[0], chain: nil, now: at(2))
            // The withdraw first, then the lane, freed, delivers the next item
            #expect(try await store.nextDelivery(session: "tablet", now: at(3)) == .withdraw(ticket: tickets[1]))
            #expect(try await store.nextDelivery(session: "tablet", now: at(3))?.item?.ticket == waiting.ticket)
            // `next` alone never hands out withdraws, nor loses them
            #expect(try await store.nextDelivery(session: "phone", now: at(3)) == nil)
        }
    }

    @Test("Acking a copy again, or items of no group, takes nothing back", arguments: StoreFactory.all)
    func noTakeBackWithoutGroup(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            let independent = try await store.enqueue(copies: copies("app/promo", on: ["phone", "tablet"], group: nil), now: t0)
                .map { try $0.get().item.ticket }
            _ = try await store.next(session: "tablet", now: at(1))
            let done = try await store.acknowledge(session: "phone", ticket: independent[0], input: nil, now: at(2)) { _ in AckAnswer() }
            #expect(done.takenBack.isEmpty)
            #expect(try await store.item(session: "tablet", ticket: independent[1])?.state == .presenting)
            // A group whose answer is acked again takes back nothing more
            let grouped = try await store.enqueue(copies: copies("app/other", on: ["phone", "watch"], group: "g"), now: at(3))
                .map { try $0.get().item.ticket }
            _ = try await store.ack(session: "phone", ticket: grouped[0], chain: nil, now: at(4))
            let again = try await store.acknowledge(session: "phone", ticket: grouped[0], input: nil, now: at(5)) { _ in AckAnswer() }
            #expect(again.takenBack.isEmpty)
        }
    }

    @Test("Erasing a session forgets the withdraws it is owed", arguments: StoreFactory.all)
    func erasureForgetsWithdraws(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            let tickets = try await store.enqueue(copies: copies("app/promo", on: ["phone", "tablet"], group: "g"), now: t0)
                .map { try $0.get().item.ticket }
            _ = try await store.next(session: "tablet", now: at(1))
            _ = try await store.ack(session: "phone", ticket: tickets[0], chain: nil, now: at(2))
            _ = try await store.erase(session: "tablet")
            #expect(try await store.nextDelivery(session: "tablet", now: at(3)) == nil)
        }
    }
}

/// A recall takes back every live item of an alert across sessions.
extension QueueStoreContract {
    @Test("A recall cancels queued items and withdraws presenting ones of the alert, in every session", arguments: StoreFactory.all)
    func recallByAlert(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given: the promo queued in three sessions, presenting in one, answered in one; another alert beside
            let queued = try await store.enqueue(alert("app/promo", in: "a"), now: t0).item
            let shown = try await store.enqueue(alert("app/promo", in: "b"), now: t0).item
            let answered = try await store.enqueue(alert("app/promo", in: "c"), now: t0).item
            let expired = try await store.enqueue(alert("app/promo", in: "d", ttl: 5), now: t0).item
            let other = try await store.enqueue(alert("app/other", in: "a", key: "x"), now: t0).item
            _ = try await store.next(session: "b", now: at(1))
            _ = try await store.next(session: "c", now: at(1))
            _ = try await store.ack(session: "c", ticket: answered.ticket, chain: nil, now: at(2))
            // When
            let recall = try await store.recall(.alert("app/promo"), now: at(10))
            // Then
            #expect(recall == Recall(cancelled: 1, withdrawn: 1, sessions: ["b"]))
            #expect(try await store.item(session: "a", ticket: queued.ticket)?.state == .cancelled)
            #expect(try await store.item(session: "b", ticket: shown.ticket)?.state == .cancelled)
            #expect(try await store.item(session: "c", ticket: answered.ticket)?.state == .done)
            #expect(try await store.items(session: "d", now: at(10)).isEmpty)
            #expect(try await store.item(session: "d", ticket: expired.ticket)?.state == .expired)
            #expect(try await store.item(session: "a", ticket: other.ticket)?.state == .queued)
            #expect(try await store.nextDelivery(session: "b", now: at(11)) == .withdraw(ticket: shown.ticket))
            #expect(try await store.nextDelivery(session: "a", now: at(11))?.item?.ticket == other.ticket)
            let reason: [String: ParameterValue] = ["by": .string("recall")]
            #expect(try await store.timeline(session: "b", ticket: shown.ticket).last?.event
                == ItemEvent(kind: .withdrawn, session: "b", ticket: shown.ticket, at: at(10), detail: reason))
            #expect(try await store.timeline(session: "a", ticket: queued.ticket).last?.event
                == ItemEvent(kind: .cancelled, session: "a", ticket: queued.ticket, at: at(10), detail: reason))
            // A second recall finds nothing left
            #expect(try await store.recall(.alert("app/promo"), now: at(12)) == Recall())
        }
    }

    @Test("A recall of more items than a batch takes back every one, once, each in its own timeline", arguments: StoreFactory.all)
    func recallInBatches(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given: the promo queued in 1,234 sessions, presenting in every hundredth
            let sessions = (0..<1_234).map { "s\($0)" }
            var tickets: [String: String] = [:]
            for start in stride(from: 0, to: sessions.count, by: 100) {
                let copies = sessions[start..<min(start + 100, sessions.count)].map { alert("app/promo", in: $0) }
                for case .success(let enqueued) in try await store.enqueue(copies: copies, now: t0) {
                    tickets[enqueued.item.session] = enqueued.item.ticket
                }
            }
            let shown = Set(sessions.enumerated().filter { $0.offset % 100 == 0 }.map(\.element))
            for session in shown { _ = try await store.next(session: session, now: at(1)) }
            // When
            let recall = try await store.recall(.alert("app/promo"), now: at(2))
            // Then: every copy taken back once, with its event; a withdraw owed where it was presenting
            #expect(recall == Recall(cancelled: sessions.count - shown.count, withdrawn: shown.count, sessions: shown))
            #expect(try await store.census(now: at(2)) == QueueCensus())
            let reason: [String: ParameterValue] = ["by": .string("recall")]
            for session in sessions {
                let ticket = try #require(tickets[session])
                let kind: ItemEvent.Kind = shown.contains(session) ? .withdrawn : .cancelled
                let timeline = try await store.timeline(session: session, ticket: ticket).map(\.event)
                #expect(timeline.count == (shown.contains(session) ? 3 : 2))
                #expect(timeline.last == ItemEvent(kind: kind, session: session, ticket: ticket, at: at(2), detail: reason))
                #expect(try await store.item(session: session, ticket: ticket)?.state == .cancelled)
            }
            for session in shown {
                #expect(try await store.nextDelivery(session: session, now: at(3)) == .withdraw(ticket: try #require(tickets[session])))
            }
            #expect(try await store.recall(.alert("app/promo"), now: at(4)) == Recall())
        }
    }
}
