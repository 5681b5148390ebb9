import AlertQueue
import AlertSpec
import Foundation
import Testing

/// Pacing as `QueuePolicy.next` and `QueueExplanation` decide it, from a `PacingHistory`: plain
/// values, no store.
@Suite("Queue policy: pacing")
struct QueuePolicyPacingTests {
    let policy = QueuePolicy(settings: QueueSettings(leaseDuration: 60, maxDeliveries: 3, maxQueueLength: 10))

    /// A queued item of alert `app/<alert>`, paced by `pacing`.
    func item(_ ticket: String, alert: String? = nil, priority: Int = 500, sequence: Int64, pacing: Pacing = .none) -> QueueItem {
        QueueItem(
            ticket: ticket, session: session, content: .alert(id: "app/\(alert ?? ticket)", parameters: [:]), priority: priority,
            lane: .modal, dedupeKey: ticket, state: .queued, sequence: sequence, enqueuedAt: t0, expiresAt: nil, deliveries: 0,
            leaseUntil: nil, atHead: false, pacing: pacing)
    }

    /// A history where `app/<alert>` was shown at `seconds` (from t0) in `scope`.
    func history(_ alert: String, scope: Pacing.Scope = .session, shownAt seconds: [Double]) -> PacingHistory {
        var history = PacingHistory()
        history.add(alert: "app/\(alert)", scope: scope, shownAt: seconds.map(at))
        return history
    }

    @Test("A limit holds the alert back once it was shown its count in the period, until the oldest of those leaves it")
    func limitAtItsBoundary() {
        let rule = Pacing(limits: [.init(count: 2, period: .hours(1))])
        let shown = history("promo", shownAt: [0, 600])
        // Two in the last hour: held until the first is an hour old
        #expect(rule.verdict(alert: "app/promo", history: shown, now: at(1_200)) == .capped(rule: .limit, until: at(3_600)))
        #expect(rule.verdict(alert: "app/promo", history: shown, now: at(3_599.999)) == .capped(rule: .limit, until: at(3_600)))
        // From then on one of them lies outside the hour
        #expect(rule.verdict(alert: "app/promo", history: shown, now: at(3_600)) == .allowed)
        // Another alert's deliveries do not count
        #expect(rule.verdict(alert: "app/other", history: shown, now: at(1_200)) == .allowed)
    }

    @Test("Once ever holds for good in its scope; a minimum gap holds until it has passed since the last showing")
    func onceAndGap() {
        let once = Pacing(once: .init(scope: .user))
        #expect(once.verdict(alert: "app/promo", history: history("promo", scope: .user, shownAt: [-86_400 * 300]), now: t0)
            == .capped(rule: .once, until: nil))
        // Shown on this session only counts for a user-wide rule through the user's history
        #expect(once.verdict(alert: "app/promo", history: history("promo", scope: .session, shownAt: [0]), now: at(10)) == .allowed)
        var ever = PacingHistory()
        ever.add(alert: "app/promo", scope: .user, shownAt: [], ever: true)
        #expect(once.verdict(alert: "app/promo", history: ever, now: t0) == .capped(rule: .once, until: nil))

        let gap = Pacing(minGap: .init(duration: .seconds(60)))
        let shown = history("news", shownAt: [0, 30])
        #expect(gap.verdict(alert: "app/news", history: shown, now: at(89)) == .capped(rule: .minGap, until: at(90)))
        #expect(gap.verdict(alert: "app/news", history: shown, now: at(90)) == .allowed)
    }

    @Test("Of several parts holding an alert back, the one that lifts last is named")
    func latestLiftWins() {
        let rule = Pacing(limits: [.init(count: 1, period: .minutes(10))], minGap: .init(duration: .minutes(30)))
        #expect(rule.verdict(alert: "app/a", history: history("a", shownAt: [0]), now: at(60)) == .capped(rule: .minGap, until: at(1_800)))
    }

    @Test("next steps over a deferred item and delivers the next best; the deferred one stays queued")
    func deferSteppedOver() {
        let paced = item("promo", priority: 900, sequence: 1, pacing: Pacing(minGap: .init(duration: .seconds(60))))
        var items = SessionItems(session: session, items: [paced, item("other", sequence: 2)])
        var pacing = history("promo", shownAt: [0])
        // When
        let delivered = policy.next(&items, holdUntil: nil, pacing: &pacing, now: at(30))
        // Then
        #expect(delivered?.ticket == "other")
        #expect(items.item(ticket: "promo")?.state == .queued)
        #expect(pacing.recorded.isEmpty, "an unpaced item's delivery is not recorded")
    }

    @Test("next drops an item its rule caps with whenCapped drop: cancelled, its event capped with the rule")
    func dropCapped() {
        let paced = item("promo", sequence: 1, pacing: Pacing(once: .init(), whenCapped: .drop))
        var items = SessionItems(session: session, items: [paced])
        var pacing = history("promo", shownAt: [-3_600])
        // When
        let delivered = policy.next(&items, holdUntil: nil, pacing: &pacing, now: t0)
        // Then
        #expect(delivered == nil)
        #expect(items.item(ticket: "promo")?.state == .cancelled)
        let event = items.events.last
        #expect(event?.kind == .capped && event?.detail["rule"] == .string("once") && event?.detail["until"] == nil)
        #expect(AlertOutcome(.capped) == .capped)
    }

    @Test("A paced item delivered is recorded, so a second item of its alert in the same step waits")
    func deliveryRecorded() {
        let rule = Pacing(limits: [.init(count: 1, period: .days(1))])
        var items = SessionItems(session: session, items: [item("a1", alert: "promo", sequence: 1, pacing: rule)])
        var pacing = PacingHistory()
        // When
        let first = policy.next(&items, holdUntil: nil, pacing: &pacing, now: t0)
        // Then
        #expect(first?.ticket == "a1")
        #expect(pacing.recorded.map(\.alert) == ["app/promo"] && pacing.recorded.map(\.at) == [t0])
        #expect(rule.verdict(alert: "app/promo", history: pacing, now: at(60)) == .capped(rule: .limit, until: at(86_400)))
    }

    @Test("Explain names the pacing part that holds an item back and when it lifts; next goes to the item after it")
    func explained() throws {
        let paced = item("promo", priority: 900, sequence: 1, pacing: Pacing(minGap: .init(duration: .seconds(60))))
        let once = item("tour", sequence: 2, pacing: Pacing(once: .init()))
        var shown = history("promo", shownAt: [0])
        shown.add(alert: "app/tour", scope: .session, shownAt: [at(-10)])
        let snapshot = SessionSnapshot(
            session: session, now: at(30), items: [paced, once, item("other", priority: 100, sequence: 3)], holdUntil: nil,
            finished: [], pacing: shown)
        // When
        let why = QueueExplanation(snapshot, policy: policy)
        // Then
        #expect(why.next?.item.ticket == "other")
        let promo = try #require(why.item(ticket: "promo"))
        #expect(promo.code == .pacingGap && promo.until == at(60))
        let tour = try #require(why.item(ticket: "tour"))
        #expect(tour.code == .pacingOnce && tour.until == nil)
    }

    @Test("An enqueue's rule is carried to the item it makes")
    func carriedByMakeItem() {
        let rule = Pacing(limits: [.init(count: 3, period: .days(1), scope: .user)], whenCapped: .drop)
        let new = NewItem(
            session: session, content: .alert(id: "app/promo", parameters: [:]), priority: 500, lane: .modal, dedupeKey: "p",
            pacing: rule)
        #expect(policy.makeItem(new, ticket: "t", sequence: 1, now: t0).pacing == rule)
        let adhoc = QueueItem(
            ticket: "t", session: session, content: .spec(SpecDraft(priority: 500, body: .hud(.init(state: .success, text: "Saved")))), priority: 500, lane: .modal, dedupeKey: "k",
            state: .queued, sequence: 1, enqueuedAt: t0, expiresAt: nil, deliveries: 0, leaseUntil: nil, atHead: false)
        #expect(adhoc.pacedAlert == "adhoc:k")
    }
}
