import AlertQueue
import AlertSpec
import Foundation
import Testing

/// Every change to an item is an event of its timeline, written with the change, at the time the
/// step was given.
extension QueueStoreContract {
    @Test("Enqueue, delivery and ack are events with who, which delivery and what the user did", arguments: StoreFactory.all)
    func timelineOfAnAck(_ factory: StoreFactory) async throws {
        try await factory.withStore(QueueSettings(leaseDuration: 60)) { store in
            // Given
            let ticket = try await store.enqueue(alert("app/a"), now: t0).item.ticket
            _ = try #require(try await store.next(session: session, now: at(2)))
            // When
            _ = try await store.acknowledge(session: session, ticket: ticket, input: "42", now: at(9.5)) { _ in
                AckAnswer(action: "ok", role: "primary")
            }
            // Then
            let events = try await store.timeline(session: session, ticket: ticket).map(\.event)
            #expect(events.map(\.kind) == [.enqueued, .delivered, .acknowledged])
            #expect(events.map(\.at) == [t0, at(2), at(9.5)])
            #expect(events.allSatisfy { $0.session == session && $0.ticket == ticket })
            #expect(events[0].detail == ["by": .string("admin")])
            #expect(events[1].detail["delivery"] == .integer(1))
            #expect(events[1].detail["leaseUntil"] == .string(ItemEvent.timeText(at(62))))
            #expect(events[2].detail["action"] == .string("ok"))
            #expect(events[2].detail["role"] == .string("primary"))
            #expect(events[2].detail["input"] == .string("42"))
            #expect(seconds(events[2].detail["onScreen"]) == 7.5)
        }
    }

    @Test("Ids increase across the store, in the order of the steps", arguments: StoreFactory.all)
    func timelineIDsIncrease(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            let first = try await store.enqueue(alert("app/a"), now: t0).item.ticket
            let second = try await store.enqueue(alert("app/b", in: "s2"), now: at(1)).item.ticket
            _ = try await store.next(session: session, now: at(2))
            let a = try await store.timeline(session: session, ticket: first).map(\.id)
            let b = try await store.timeline(session: "s2", ticket: second).map(\.id)
            #expect(a.count == 2 && b.count == 1)
            #expect(a[0] < b[0] && b[0] < a[1])
            #expect(try await store.timeline(session: "s2", ticket: first).isEmpty)  // another session's ticket
        }
    }

    @Test("A lease that ends queues the item again, then dead-letters it", arguments: StoreFactory.all)
    func timelineOfLeases(_ factory: StoreFactory) async throws {
        try await factory.withStore(QueueSettings(leaseDuration: 10, maxDeliveries: 2)) { store in
            let ticket = try await store.enqueue(alert("app/a"), now: t0).item.ticket
            _ = try await store.next(session: session, now: t0)
            _ = try await store.next(session: session, now: at(10))  // the lease ended: delivered again
            _ = try await store.next(session: session, now: at(20))  // and again: dead
            let events = try await store.timeline(session: session, ticket: ticket).map(\.event)
            #expect(events.map(\.kind) == [.enqueued, .delivered, .requeued, .delivered, .dead])
            #expect(events.map(\.at) == [t0, t0, at(10), at(10), at(20)])
            #expect(events[2].detail == ["delivery": .integer(1)])
            #expect(events[3].detail["delivery"] == .integer(2))
            #expect(events[4].detail == ["deliveries": .integer(2)])
        }
    }

    @Test("A TTL that passes expires the item, on delivery and on listing", arguments: StoreFactory.all)
    func timelineOfExpiry(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            let first = try await store.enqueue(alert("app/a", ttl: 5), now: t0).item.ticket
            let second = try await store.enqueue(alert("app/b", in: "s2", ttl: 5), now: t0).item.ticket
            #expect(try await store.next(session: session, now: at(6)) == nil)
            #expect(try await store.items(session: "s2", now: at(7)).isEmpty)
            #expect(try await store.timeline(session: session, ticket: first).map(\.event.kind) == [.enqueued, .expired])
            let listed = try await store.timeline(session: "s2", ticket: second).map(\.event)
            #expect(listed.map(\.kind) == [.enqueued, .expired])
            #expect(listed.last?.at == at(7))
        }
    }

    @Test("A lease that ends past the item's TTL queues it again and expires it, in that order", arguments: StoreFactory.all)
    func timelineOfLeaseThenExpiry(_ factory: StoreFactory) async throws {
        try await factory.withStore(QueueSettings(leaseDuration: 10)) { store in
            let ticket = try await store.enqueue(alert("app/a", ttl: 30), now: t0).item.ticket
            _ = try await store.next(session: session, now: t0)
            #expect(try await store.next(session: session, now: at(40)) == nil)
            let events = try await store.timeline(session: session, ticket: ticket).map(\.event)
            #expect(events.map(\.kind) == [.enqueued, .delivered, .requeued, .expired])
            #expect(events.suffix(2).allSatisfy { $0.at == at(40) })
            #expect(try await store.item(session: session, ticket: ticket)?.state == .expired)
        }
    }

    @Test("A cancel says by whom", arguments: StoreFactory.all)
    func timelineOfCancels(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            let one = try await store.enqueue(alert("app/a"), now: t0).item.ticket
            let two = try await store.enqueue(alert("app/b"), now: t0).item.ticket
            let three = try await store.enqueue(alert("app/c"), now: t0).item.ticket
            _ = try await store.cancel(session: session, ticket: one, by: .undeliverable, now: at(1))
            _ = try await store.cancel(session: session, ticket: nil, by: .admin, now: at(2))
            for (ticket, by, time) in [(one, "undeliverable", at(1)), (two, "admin", at(2)), (three, "admin", at(2))] {
                let last = try #require(try await store.timeline(session: session, ticket: ticket).last?.event)
                #expect(last.kind == .cancelled)
                #expect(last.detail == ["by": .string(by)])
                #expect(last.at == time)
            }
        }
    }

    @Test("A newer HUD supersedes the queued one; a duplicate refreshes; a chain is queued by the chain", arguments: StoreFactory.all)
    func timelineOfSupersedeRefreshChain(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // A HUD over a queued HUD
            let old = try await store.enqueue(hud("app/progress"), now: t0).item.ticket
            let new = try await store.enqueue(hud("app/done"), now: at(1)).item.ticket
            let superseded = try #require(try await store.timeline(session: session, ticket: old).last?.event)
            #expect(superseded.kind == .superseded)
            #expect(superseded.detail == ["by": .string(new)])
            // A duplicate that refreshes
            var newer = alert("app/messages", priority: 700, key: "m")
            let queued = try await store.enqueue(alert("app/messages", key: "m"), now: at(2)).item.ticket
            newer.onDuplicate = .refresh
            _ = try await store.enqueue(newer, now: at(3))
            let refreshed = try #require(try await store.timeline(session: session, ticket: queued).last?.event)
            #expect(refreshed.kind == .refreshed)
            #expect(refreshed.detail["priority"] == .integer(700))
            #expect(refreshed.at == at(3))
            // A chain
            _ = try await store.cancel(session: session, ticket: nil, by: .admin, now: at(4))
            let page1 = try await store.enqueue(alert("onboarding/page1"), now: at(4)).item.ticket
            _ = try await store.next(session: session, now: at(4))
            let chained = try #require(try await store.acknowledge(session: session, ticket: page1, now: at(5)) { _ in
                var next = alert("onboarding/page2")
                next.origin = .chain
                return next
            }.chained)
            let enqueued = try #require(try await store.timeline(session: session, ticket: chained.ticket).first?.event)
            #expect(enqueued.kind == .enqueued)
            #expect(enqueued.detail == ["by": .string("chain"), "after": .string(page1)])
        }
    }

    @Test("Enqueues that share a write or a statement each get their event", arguments: StoreFactory.all)
    func timelineOfBatchedEnqueues(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            let tickets = try await withThrowingTaskGroup(of: (String, String).self) { group in
                for index in 0..<8 {
                    group.addTask { ("b\(index)", try await store.enqueue(alert("app/a", in: "b\(index)"), now: t0).item.ticket) }
                }
                return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
            for (session, ticket) in tickets {
                #expect(try await store.timeline(session: session, ticket: ticket).map(\.event.kind) == [.enqueued])
            }
            // An enqueue delivered to a waiting consumer in the same step
            let both = try await store.enqueueThenNext(alert("app/b", in: "w"), now: at(1))
            let delivered = try #require(both.delivered)
            #expect(try await store.timeline(session: "w", ticket: delivered.ticket).map(\.event.kind) == [.enqueued, .delivered])
        }
    }

    @Test("History pages through finished items, newest first", arguments: StoreFactory.all)
    func historyPages(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            var finished: [String] = []
            for index in 0..<5 {
                let ticket = try await store.enqueue(alert("app/a\(index)"), now: at(Double(index))).item.ticket
                _ = try await store.cancel(session: session, ticket: ticket, now: at(Double(index)))
                finished.append(ticket)
            }
            _ = try await store.enqueue(alert("app/live"), now: at(9))  // not finished: not in the history
            let first = try await store.history(session: session, before: nil, limit: 2)
            #expect(first.items.map(\.ticket) == [finished[4], finished[3]])
            let second = try await store.history(session: session, before: try #require(first.next), limit: 2)
            #expect(second.items.map(\.ticket) == [finished[2], finished[1]])
            let last = try await store.history(session: session, before: try #require(second.next), limit: 2)
            #expect(last.items.map(\.ticket) == [finished[0]])
            #expect(last.next == nil)
            #expect(last.items.first?.state == .cancelled)
            #expect(try await store.history(session: "other", before: nil, limit: 2) == HistoryPage(items: [], next: nil))
        }
    }
}

/// A number of seconds in a detail, written as an integer or not.
private func seconds(_ value: ParameterValue?) -> Double? {
    switch value {
    case .integer(let int): Double(int)
    case .number(let double): double
    default: nil
    }
}
