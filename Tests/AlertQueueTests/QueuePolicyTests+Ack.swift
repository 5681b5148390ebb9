import AlertQueue
import AlertSpec
import Foundation
import Testing

/// `QueuePolicy`'s steps after delivery: ack (and chains), cancel, hold.
extension QueuePolicyTests {
    // MARK: Ack

    @Test("Ack ends the item and queues its chain at the head, in this session")
    func ackWithChain() throws {
        // Given
        var items = SessionItems(session: session, items: [
            item("showing", sequence: 1, state: .presenting, deliveries: 1, leaseUntil: at(60)),
            item("urgent", priority: 1000, sequence: 2),
        ])
        var chain = new("next", priority: 0, sequence: 3)
        chain.session = "elsewhere"
        // When
        let acknowledged = try policy.ack(ticket: "showing", chain: chain, in: &items, now: at(1))
        // Then
        #expect(acknowledged.state == .done)
        #expect(acknowledged.leaseUntil == nil)
        let chained = try #require(items.inserted.first)
        #expect(chained.atHead)
        #expect(chained.session == session)
        #expect(policy.next(&items, holdUntil: nil, now: at(1))?.ticket == "next")
    }

    @Test("A chain whose key is live is not queued twice")
    func ackChainDuplicate() throws {
        // Given
        var items = SessionItems(session: session, items: [
            item("showing", sequence: 1, state: .presenting, deliveries: 1, leaseUntil: at(60)),
            item("queued", sequence: 2, key: "k"),
        ])
        // When
        _ = try policy.ack(ticket: "showing", chain: new("chain", sequence: 3, key: "k"), in: &items, now: at(1))
        // Then
        #expect(items.inserted.isEmpty)
    }

    @Test("A queued item can be acknowledged too")
    func ackQueued() throws {
        var items = SessionItems(session: session, items: [item("queued", sequence: 1)])
        #expect(try policy.ack(ticket: "queued", chain: nil, in: &items, now: t0).state == .done)
    }

    @Test("Ack of a done item returns it unchanged and chains nothing")
    func ackDone() throws {
        // Given
        let done = item("done", sequence: 1, state: .done)
        var items = SessionItems(session: session, items: [done])
        // When
        let acknowledged = try policy.ack(ticket: "done", chain: new("chain", sequence: 2), in: &items, now: t0)
        // Then
        #expect(acknowledged == done)
        #expect(!items.hasChanges)
    }

    @Test("Ack of a cancelled, expired or dead item is gone", arguments: [ItemState.cancelled, .expired, .dead])
    func ackGone(_ state: ItemState) {
        var items = SessionItems(session: session, items: [item("x", sequence: 1, state: state)])
        #expect(throws: QueueError.gone(ticket: "x", state: state)) {
            _ = try policy.ack(ticket: "x", chain: nil, in: &items, now: t0)
        }
    }

    @Test("Ack of a ticket the session does not hold is not found")
    func ackNotFound() {
        var items = SessionItems(session: session, items: [])
        #expect(throws: QueueError.notFound(ticket: "x")) {
            _ = try policy.ack(ticket: "x", chain: nil, in: &items, now: t0)
        }
    }

    @Test("Ack after the last lease ended is gone: the item is dead")
    func ackAfterLastLease() {
        var items = SessionItems(session: session, items: [
            item("x", sequence: 1, state: .presenting, deliveries: 3, leaseUntil: at(60))
        ])
        #expect(throws: QueueError.gone(ticket: "x", state: .dead)) {
            _ = try policy.ack(ticket: "x", chain: nil, in: &items, now: at(60))
        }
    }

    // MARK: Cancel

    @Test("Cancel all cancels live items only and counts them")
    func cancelAll() throws {
        // Given
        var items = SessionItems(session: session, items: [
            item("queued", sequence: 1), item("presenting", lane: .toast, sequence: 2, state: .presenting, leaseUntil: at(60)),
            item("done", sequence: 3, state: .done), item("dead", sequence: 4, state: .dead),
        ])
        // When
        let count = try policy.cancel(ticket: nil, in: &items, now: t0)
        // Then
        #expect(count == 2)
        #expect(items.all.map(\.state) == [.cancelled, .cancelled, .done, .dead])
    }

    @Test("Cancel one refuses what is not live, and what is unknown")
    func cancelOne() throws {
        var items = SessionItems(session: session, items: [item("a", sequence: 1), item("b", sequence: 2, state: .done)])
        #expect(try policy.cancel(ticket: "a", in: &items, now: t0) == 1)
        #expect(throws: QueueError.gone(ticket: "b", state: .done)) { _ = try policy.cancel(ticket: "b", in: &items, now: t0) }
        #expect(throws: QueueError.notFound(ticket: "c")) { _ = try policy.cancel(ticket: "c", in: &items, now: t0) }
    }

    // MARK: Hold

    @Test("A hold lasts the default, or what is asked up to the maximum")
    func holdDeadline() {
        #expect(policy.holdDeadline(seconds: nil, now: t0) == at(30))
        #expect(policy.holdDeadline(seconds: 90, now: t0) == at(90))
        #expect(policy.holdDeadline(seconds: 10_000, now: t0) == at(600))
        #expect(policy.holdDeadline(seconds: -5, now: t0) == t0)
        #expect(policy.holdDeadline(seconds: .infinity, now: t0) == at(600))
        #expect(QueuePolicy.isHolding(until: at(1), now: t0))
        #expect(!QueuePolicy.isHolding(until: t0, now: t0))
        #expect(!QueuePolicy.isHolding(until: nil, now: t0))
    }
}
