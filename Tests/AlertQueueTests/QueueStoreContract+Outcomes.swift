import AlertQueue
import AlertSpec
import Foundation
import Testing

/// Outcomes per alert and day, rolled up from the event feed into counters that outlive items.
extension QueueStoreContract {
    @Test("A roll-up counts each event once into the alert's day", arguments: StoreFactory.all)
    func outcomesRolledUp(_ factory: StoreFactory) async throws {
        try await factory.withStore(QueueSettings(leaseDuration: 60)) { store in
            // Given: app/a shown and answered "ok" after 7.5 s, app/a expired elsewhere, app/b cancelled
            let a = try await store.enqueue(alert("app/a"), now: t0).item.ticket
            _ = try await store.enqueue(alert("app/a", in: "s2", ttl: 5), now: t0)
            _ = try await store.enqueue(alert("app/b", in: "s3"), now: t0)
            _ = try await store.next(session: session, now: at(2))
            _ = try await store.acknowledge(session: session, ticket: a, input: nil, now: at(9.5)) { _ in
                AckAnswer(action: "ok", role: "primary")
            }
            _ = try await store.next(session: "s2", now: at(6))
            _ = try await store.cancel(session: "s3", ticket: nil, by: .session, now: at(7))
            // When
            let rolled = try await store.rollUpAll(events: 7)
            let again = try await store.rollUpOutcomes(limit: 100)
            // Then
            let day = OutcomeDay(t0)
            let report = OutcomeReport(alert: "app/a", days: day...day, counters: try await store.outcomes(alert: "app/a", days: day...day))
            let figures = try #require(report.days.first)
            #expect(rolled == 7 && again.events == 0)
            #expect([figures.enqueued, figures.delivered, figures.acknowledged, figures.dismissed, figures.expired] == [2, 1, 1, 0, 1] as [Int])
            #expect(figures.actions == [OutcomeReport.ActionCount(action: "ok", role: "primary", count: 1)])
            let answer = try #require(figures.answerSeconds)
            #expect(abs(answer.p50 - 7.5) / 7.5 < 0.1)
            let b = OutcomeReport(alert: "app/b", days: day...day, counters: try await store.outcomes(alert: "app/b", days: day...day))
            #expect(b.total.enqueued == 1 && b.total.cancelled == 1)
        }
    }

    @Test("Counters outlive an erased session, and go when their day is purged", arguments: StoreFactory.all)
    func outcomesOutliveErasure(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            // Given
            _ = try await store.enqueue(alert("app/a"), now: t0)
            _ = try await store.enqueue(alert("app/a", in: "s2"), now: at(86_400))
            #expect(try await store.rollUpAll(events: 2) == 2)
            let days = OutcomeDay(t0)...OutcomeDay(at(86_400))
            // When
            _ = try await store.erase(session: session)
            let kept = try await store.outcomes(alert: "app/a", days: days)
            let purged = try await store.purgeOutcomes(before: OutcomeDay(at(86_400)))
            let left = try await store.outcomes(alert: "app/a", days: days)
            // Then
            #expect(kept.map(\.count).reduce(0, +) == 2)
            #expect(purged == 1)
            #expect(left.map(\.key.day) == [OutcomeDay(at(86_400))])
        }
    }

    @Test("A roll-up reads at most its limit and the next goes on from there", arguments: StoreFactory.all)
    func outcomesInSteps(_ factory: StoreFactory) async throws {
        try await factory.withStore { store in
            for index in 0..<5 { _ = try await store.enqueue(alert("app/a", in: "s\(index)"), now: t0) }
            var steps: [Int] = []
            while steps.reduce(0, +) < 5, steps.count < 1000 {
                let step = try await store.rollUpOutcomes(limit: 2).events
                if step > 0 { steps.append(step) } else { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(steps.allSatisfy { $0 <= 2 } && steps.reduce(0, +) == 5)
            let day = OutcomeDay(t0)
            #expect(try await store.outcomes(alert: "app/a", days: day...day).map(\.count) == [5])
        }
    }
}

extension QueueStore {
    /// Rolls up until `events` events were counted or 20 s passed (see `settledEvents`); how many were.
    func rollUpAll(events: Int) async throws -> Int {
        let deadline = ContinuousClock.now + .seconds(20)
        var counted = 0
        while counted < events, ContinuousClock.now < deadline {
            let step = try await rollUpOutcomes(limit: 100).events
            counted += step
            if step == 0 { try await Task.sleep(for: .milliseconds(20)) }
        }
        return counted
    }
}
