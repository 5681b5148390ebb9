import AlertQueue
import AlertSpec
import Foundation
import Testing

/// `QueuePolicy` on its own: plain values in, plain values out, no store.
@Suite("Queue policy")
struct QueuePolicyTests {
    let policy = QueuePolicy(
        settings: QueueSettings(leaseDuration: 60, maxDeliveries: 3, defaultHold: 30, maxHold: 600, maxQueueLength: 4))

    /// An item as a store would have loaded it.
    func item(
        _ ticket: String, lane: Lane = .modal, priority: Int = 500, sequence: Int64, state: ItemState = .queued,
        atHead: Bool = false, deliveries: Int = 0, leaseUntil: Date? = nil, expiresAt: Date? = nil, key: String? = nil
    ) -> QueueItem {
        QueueItem(
            ticket: ticket, session: session, content: .alert(id: "app/\(ticket)", parameters: [:]), priority: priority,
            lane: lane, dedupeKey: key ?? ticket, state: state, sequence: sequence, enqueuedAt: t0, expiresAt: expiresAt,
            deliveries: deliveries, leaseUntil: leaseUntil, atHead: atHead)
    }

    func new(_ ticket: String, lane: Lane = .modal, priority: Int = 500, sequence: Int64, key: String? = nil) -> QueueItem {
        let content = QueueContent.alert(id: "app/\(ticket)", parameters: [:])
        return policy.makeItem(
            NewItem(session: session, content: content, priority: priority, lane: lane, dedupeKey: key ?? ticket),
            ticket: ticket, sequence: sequence, now: t0)
    }

    // MARK: Order

    @Test("Chains come first, the newest chain first; then priority; then enqueue order")
    func order() {
        // Given
        let oldChain = item("oldChain", priority: 0, sequence: 5, atHead: true)
        let newChain = item("newChain", priority: 0, sequence: 6, atHead: true)
        let high = item("high", priority: 900, sequence: 4)
        let early = item("early", priority: 500, sequence: 1)
        let late = item("late", priority: 500, sequence: 2)
        // When
        let sorted = [late, early, high, oldChain, newChain].sorted(by: QueuePolicy.precedes)
        // Then
        #expect(sorted.map(\.ticket) == ["newChain", "oldChain", "high", "early", "late"])
    }

    @Test("Delivery order lists presenting, then queued across lanes, then dead; nothing else")
    func deliveryOrder() {
        // Given
        let items = [
            item("dead", priority: 1000, sequence: 1, state: .dead),
            item("done", priority: 1000, sequence: 2, state: .done),
            item("queuedToast", lane: .toast, priority: 700, sequence: 3),
            item("presenting", priority: 100, sequence: 4, state: .presenting),
            item("queuedModal", priority: 800, sequence: 5),
            item("cancelled", sequence: 6, state: .cancelled),
            item("expired", sequence: 7, state: .expired),
        ]
        // When
        let order = QueuePolicy.deliveryOrder(items)
        // Then
        #expect(order.map(\.ticket) == ["presenting", "queuedModal", "queuedToast", "dead"])
    }

    @Test("A position counts the queued items of the same lane ahead; presenting is 0")
    func position() {
        // Given
        let items = SessionItems(session: session, items: [
            item("showing", priority: 1000, sequence: 1, state: .presenting),
            item("ahead", priority: 900, sequence: 2),
            item("toast", lane: .toast, priority: 1000, sequence: 3),
            item("me", priority: 500, sequence: 4),
            item("behind", priority: 500, sequence: 5),
        ])
        // Then
        #expect(QueuePolicy.position(of: items.item(ticket: "me")!, in: items) == 2)
        #expect(QueuePolicy.position(of: items.item(ticket: "ahead")!, in: items) == 1)
        #expect(QueuePolicy.position(of: items.item(ticket: "toast")!, in: items) == 1)
        #expect(QueuePolicy.position(of: items.item(ticket: "showing")!, in: items) == 0)
    }

    // MARK: Prepare

    @Test("An ended lease requeues the item with its deliveries, or kills it at maxDeliveries")
    func prepareLeases() {
        // Given
        var items = SessionItems(session: session, items: [
            item("ended", sequence: 1, state: .presenting, deliveries: 2, leaseUntil: at(60)),
            item("last", lane: .toast, sequence: 2, state: .presenting, deliveries: 3, leaseUntil: at(60)),
            item("running", lane: .hud, sequence: 3, state: .presenting, deliveries: 1, leaseUntil: at(61)),
        ])
        // When
        policy.prepare(&items, now: at(60))
        // Then
        let ended = items.item(ticket: "ended")
        #expect(ended?.state == .queued)
        #expect(ended?.deliveries == 2)
        #expect(ended?.leaseUntil == nil)
        #expect(items.item(ticket: "last")?.state == .dead)
        #expect(items.item(ticket: "running")?.state == .presenting)
        #expect(items.updated.map(\.ticket) == ["ended", "last"])
        #expect(items.inserted.isEmpty)
    }

    @Test("A queued item at or past its expiry expires, also one whose lease just ended")
    func prepareExpiry() {
        // Given
        var items = SessionItems(session: session, items: [
            item("due", sequence: 1, expiresAt: at(10)),
            item("fresh", sequence: 2, expiresAt: at(11)),
            item("wasShowing", lane: .toast, sequence: 3, state: .presenting, deliveries: 1, leaseUntil: at(5), expiresAt: at(3)),
            item("forever", lane: .hud, sequence: 4),
        ])
        // When
        policy.prepare(&items, now: at(10))
        // Then
        #expect(items.all.map(\.state) == [.expired, .queued, .expired, .queued])
    }

    @Test("Preparing twice at the same instant changes nothing more")
    func prepareIsIdempotent() {
        // Given
        var items = SessionItems(session: session, items: [
            item("a", sequence: 1, state: .presenting, deliveries: 1, leaseUntil: at(1)),
            item("b", sequence: 2, expiresAt: at(1)),
        ])
        policy.prepare(&items, now: at(2))
        let once = items
        // When
        policy.prepare(&items, now: at(2))
        // Then
        #expect(items == once)
    }

    // MARK: Next

    @Test("Next takes the best item across free lanes and leases it")
    func nextAcrossLanes() throws {
        // Given
        var items = SessionItems(session: session, items: [
            item("modal", priority: 500, sequence: 1),
            item("toast", lane: .toast, priority: 600, sequence: 2),
        ])
        // When
        let delivered = try #require(policy.next(&items, holdUntil: nil, now: at(5)))
        // Then
        #expect(delivered.ticket == "toast")
        #expect(delivered.state == .presenting)
        #expect(delivered.deliveries == 1)
        #expect(delivered.leaseUntil == at(65))
        #expect(items.updated == [delivered])
    }

    @Test("Next skips the lanes that present")
    func nextSkipsBusyLanes() {
        // Given
        var items = SessionItems(session: session, items: [
            item("showing", priority: 0, sequence: 1, state: .presenting, deliveries: 1, leaseUntil: at(60)),
            item("waiting", priority: 1000, sequence: 2),
        ])
        // Then
        #expect(policy.next(&items, holdUntil: nil, now: t0) == nil)
        #expect(!items.hasChanges)
    }

    @Test("While a hold is active only HUDs are delivered")
    func nextDuringHold() {
        // Given
        var items = SessionItems(session: session, items: [
            item("modal", priority: 1000, sequence: 1),
            item("toast", lane: .toast, priority: 1000, sequence: 2),
            item("hud", lane: .hud, priority: 0, sequence: 3),
        ])
        // Then
        #expect(policy.next(&items, holdUntil: at(30), now: at(29))?.ticket == "hud")
        #expect(policy.next(&items, holdUntil: at(30), now: at(29)) == nil)
        #expect(policy.next(&items, holdUntil: at(30), now: at(30))?.ticket == "modal")
    }

    @Test("Delivering a HUD makes it done at once, with no lease; a presenting modal stays as it is")
    func nextHUDIsDone() {
        // Given
        var items = SessionItems(session: session, items: [
            item("modal", sequence: 2, state: .presenting, deliveries: 1, leaseUntil: at(60)),
            item("hud", lane: .hud, sequence: 3),
        ])
        // When
        let delivered = policy.next(&items, holdUntil: nil, now: at(1))
        // Then
        #expect(delivered?.ticket == "hud")
        #expect(delivered?.state == .done)
        #expect(delivered?.leaseUntil == nil)
        #expect(delivered?.deliveries == 1)
        #expect(items.item(ticket: "modal")?.state == .presenting)
        #expect(items.updated.map(\.ticket) == ["hud"])
    }

    // MARK: Enqueue

    @Test("Enqueue inserts a queued item with its position")
    func enqueueInserts() throws {
        // Given
        var items = SessionItems(session: session, items: [item("a", priority: 900, sequence: 1)])
        // When
        let result = try policy.enqueue(new("b", sequence: 2), into: &items, now: t0)
        // Then
        #expect(result.created)
        #expect(result.position == 2)
        #expect(items.inserted.map(\.ticket) == ["b"])
        #expect(items.updated.isEmpty)
    }

    @Test("Enqueue returns the live item with the same key and inserts nothing")
    func enqueueDuplicate() throws {
        // Given
        var items = SessionItems(session: session, items: [
            item("old", sequence: 1, state: .done, key: "k"),
            item("live", sequence: 2, state: .presenting, deliveries: 1, leaseUntil: at(60), key: "k"),
        ])
        // When
        let result = try policy.enqueue(new("again", sequence: 3, key: "k"), into: &items, now: t0)
        // Then
        #expect(!result.created)
        #expect(result.item.ticket == "live")
        #expect(!items.hasChanges)
    }

    @Test("A new HUD cancels the queued HUDs, not the presenting one")
    func enqueueHUDChangeTo() throws {
        // Given
        var items = SessionItems(session: session, items: [
            item("showing", lane: .hud, sequence: 1, state: .presenting, deliveries: 1, leaseUntil: at(60)),
            item("waiting", lane: .hud, sequence: 2),
            item("modal", sequence: 3),
        ])
        // When
        _ = try policy.enqueue(new("newest", lane: .hud, sequence: 4), into: &items, now: t0)
        // Then
        #expect(items.all.map(\.state) == [.presenting, .cancelled, .queued, .queued])
        #expect(items.updated.map(\.ticket) == ["waiting"])
    }

    @Test("A full session refuses a new item but lets a HUD replace a queued HUD")
    func enqueueLimit() throws {
        // Given: four live items, the limit
        let full = SessionItems(session: session, items: [
            item("a", sequence: 1), item("b", sequence: 2), item("c", lane: .toast, sequence: 3),
            item("h", lane: .hud, sequence: 4),
        ])
        // When
        var refused = full
        #expect(throws: QueueError.queueFull(limit: 4)) {
            _ = try policy.enqueue(new("e", sequence: 5), into: &refused, now: t0)
        }
        var replaced = full
        let hud = try policy.enqueue(new("h2", lane: .hud, sequence: 5), into: &replaced, now: t0)
        // Then
        #expect(!refused.hasChanges)
        #expect(hud.created)
        #expect(replaced.live.count == 4)
    }

    @Test("A new item's expiry is its TTL after now")
    func makeItem() {
        let new = NewItem(
            session: session, content: .alert(id: "app/a", parameters: [:]), priority: 1, lane: .toast, dedupeKey: "k",
            ttl: 15, atHead: true)
        let item = policy.makeItem(new, ticket: "t", sequence: 9, now: at(5))
        #expect(item.expiresAt == at(20))
        #expect(item.enqueuedAt == at(5))
        #expect(item.state == .queued)
        #expect(item.atHead)
        #expect(item.sequence == 9)
    }
}
