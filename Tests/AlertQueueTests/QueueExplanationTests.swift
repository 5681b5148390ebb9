import AlertQueue
import AlertSpec
import Foundation
import Testing

/// `QueueExplanation` on its own: one test per code, then its agreement with `QueuePolicy.next`.
@Suite("Queue explanation")
struct QueueExplanationTests {
    let policy = QueuePolicy(settings: QueueSettings(leaseDuration: 60, maxDeliveries: 3))

    func item(
        _ ticket: String, lane: Lane = .modal, priority: Int = 500, sequence: Int64, state: ItemState = .queued,
        atHead: Bool = false, deliveries: Int = 0, leaseUntil: Date? = nil, expiresAt: Date? = nil, notBefore: Date? = nil
    ) -> QueueItem {
        QueueItem(
            ticket: ticket, session: session, content: .alert(id: "app/\(ticket)", parameters: [:]), priority: priority,
            lane: lane, dedupeKey: ticket, state: state, sequence: sequence, enqueuedAt: t0, expiresAt: expiresAt,
            deliveries: deliveries, leaseUntil: leaseUntil, atHead: atHead, notBefore: notBefore)
    }

    func explain(_ items: [QueueItem], hold: Date? = nil, finished: [QueueItem] = [], now: Date = at(10)) -> QueueExplanation {
        QueueExplanation(SessionSnapshot(session: session, now: now, items: items, holdUntil: hold, finished: finished), policy: policy)
    }

    @Test("The winner is `next`, with why it beats the runner-up; the others wait `behind` it")
    func nextAndBehind() throws {
        // Given
        let why = explain([item("low", priority: 100, sequence: 1), item("high", priority: 900, sequence: 2),
                           item("toast", lane: .toast, priority: 500, sequence: 3)])
        // Then
        #expect(why.code == .next)
        let next = try #require(why.next)
        #expect(next.item.ticket == "high" && next.win == .priority && next.runnerUp?.ticket == "toast")
        #expect(why.item(ticket: "low")?.code == .behind)
        #expect(why.item(ticket: "low")?.blocker?.ticket == "high")
        #expect(why.item(ticket: "low")?.position == 2)
        #expect(why.item(ticket: "toast")?.code == .behind)
        #expect(why.item(ticket: "toast")?.blocker?.ticket == "high")
    }

    @Test("A scheduled item is `scheduled` until its time, before a hold; it is no one's blocker and no winner")
    func scheduled() throws {
        // Given: the best item of the modal lane scheduled at 60, two behind it, a toast
        let why = explain([
            item("later", priority: 900, sequence: 1, notBefore: at(60)), item("first", sequence: 2), item("second", sequence: 3),
            item("toast", lane: .toast, priority: 100, sequence: 4),
        ])
        // Then
        let later = try #require(why.item(ticket: "later"))
        #expect(later.code == .scheduled && later.until == at(60) && later.position == 1)
        #expect(why.next?.item.ticket == "first" && why.next?.runnerUp?.ticket == "second")
        #expect(why.item(ticket: "second")?.code == .behind && why.item(ticket: "second")?.blocker?.ticket == "first")
        #expect(why.item(ticket: "toast")?.blocker?.ticket == "first")
        // And held, it still says scheduled: the hold's end would not release it
        #expect(explain([item("later", sequence: 1, notBefore: at(60))], hold: at(30)).item(ticket: "later")?.code == .scheduled)
        #expect(explain([item("later", sequence: 1, notBefore: at(60))], now: at(60)).next?.item.ticket == "later")
    }

    @Test("Among equal priorities the older wins; a chain wins over any priority; alone it is `only`")
    func winReasons() {
        #expect(explain([item("a", sequence: 1), item("b", sequence: 2)]).next?.win == .older)
        #expect(explain([item("a", priority: 1000, sequence: 1), item("c", priority: 0, sequence: 2, atHead: true)]).next?.win == .chain)
        #expect(explain([item("a", sequence: 1)]).next?.win == .only)
    }

    @Test("A presenting item says until when it is leased; a queued item of its lane is `lane-busy` behind it")
    func presentingAndLaneBusy() throws {
        // Given: delivered at 5 with a 60 s lease
        let why = explain([item("shown", sequence: 1, state: .presenting, deliveries: 2, leaseUntil: at(65)), item("waiting", sequence: 2)])
        // Then
        let shown = try #require(why.item(ticket: "shown"))
        #expect(shown.code == .presenting && shown.until == at(65) && shown.since == at(5) && shown.item.deliveries == 2)
        let waiting = try #require(why.item(ticket: "waiting"))
        #expect(waiting.code == .laneBusy && waiting.blocker?.ticket == "shown" && waiting.until == at(65) && waiting.since == at(5))
        #expect(why.next == nil && why.code == .laneBusy)
    }

    @Test("A hold keeps modals and toasts `held` until it ends; a HUD still flows")
    func held() {
        // Given
        let why = explain([item("modal", priority: 900, sequence: 1), item("hud", lane: .hud, priority: 1, sequence: 2)], hold: at(40))
        // Then
        #expect(why.holdUntil == at(40))
        #expect(why.item(ticket: "modal")?.code == .held && why.item(ticket: "modal")?.until == at(40))
        #expect(why.next?.item.ticket == "hud")
        // A hold that ended holds nothing
        #expect(explain([item("modal", sequence: 1)], hold: at(5)).next?.item.ticket == "modal")
    }

    @Test("An item whose TTL passed is `expired` among the recent; an ended lease can make one `dead`")
    func expiredAndDead() {
        // Given: a TTL that ended at 8; a lease that ended at 9 on the third delivery
        let why = explain([item("late", sequence: 1, expiresAt: at(8)),
                           item("tired", sequence: 2, state: .presenting, deliveries: 3, leaseUntil: at(9))])
        // Then
        #expect(why.items.map(\.code) == [.dead])
        #expect(why.recent.map(\.code) == [.expired] && why.recent.first?.until == at(8))
        #expect(why.code == .queueEmpty && why.next == nil)
    }

    @Test("Finished items read from the store are explained by their state, newest first")
    func finished() {
        // Given
        let why = explain([], finished: [item("c", sequence: 3, state: .cancelled), item("d", sequence: 2, state: .done),
                                         item("e", sequence: 1, state: .expired, expiresAt: at(1))])
        // Then
        #expect(why.code == .queueEmpty)
        #expect(why.recent.map(\.code) == [.cancelled, .done, .expired])
        #expect(QueueExplanation.finished(item("x", sequence: 9, state: .dead, deliveries: 3)).code == .dead)
    }

    @Test("For generated sessions, exactly the item `next` delivers is explained as `next`")
    func agreesWithNext() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<2_000 {
            // Given: up to 8 items in random lanes, states, priorities, chains, TTLs and leases, maybe a hold
            let count = Int.random(in: 0...8, using: &random)
            var items: [QueueItem] = []
            var presentingLanes: Set<Lane> = []
            for index in 0..<count {
                let lane = Lane.allCases.randomElement(using: &random)!
                var state: ItemState = [.queued, .queued, .queued, .presenting, .dead].randomElement(using: &random)!
                if state == .presenting, lane == .hud || !presentingLanes.insert(lane).inserted { state = .queued }
                items.append(item(
                    "t\(index)", lane: lane, priority: [0, 500, 500, 900].randomElement(using: &random)!, sequence: Int64(index),
                    state: state, atHead: Int.random(in: 0..<6, using: &random) == 0, deliveries: state == .queued ? 0 : 1,
                    leaseUntil: state == .presenting ? at(Double.random(in: 0...20, using: &random)) : nil,
                    expiresAt: Bool.random(using: &random) ? at(Double.random(in: 0...20, using: &random)) : nil))
            }
            let hold: Date? = Bool.random(using: &random) ? at(Double.random(in: 0...20, using: &random)) : nil
            // When
            let why = explain(items, hold: hold)
            var stepItems = SessionItems(session: session, items: items)
            let delivered = policy.next(&stepItems, holdUntil: hold, now: at(10))
            // Then
            let winners = (why.items + why.recent).filter { $0.code == .next }.map(\.item.ticket)
            #expect(winners == (delivered.map { [$0.ticket] } ?? []))
            #expect(why.next?.item.ticket == delivered?.ticket)
        }
    }
}
