import AlertQueue
import AlertSpec
import Foundation
import Testing

@Suite struct OutcomeTallyTests {
    private func event(_ kind: ItemEvent.Kind, alert: String? = "app/a", at seconds: Double = 0, _ detail: [String: ParameterValue] = [:])
        -> FeedEvent
    {
        FeedEvent(cursor: .start, event: ItemEvent(kind: kind, session: "s", ticket: "t", at: at(seconds), detail: detail), alert: alert)
    }

    @Test("Events count as outcomes; refreshes and requeues do not; a replaced HUD is cancelled")
    func outcomesOfEvents() {
        let tally = OutcomeTally([
            event(.enqueued), event(.refreshed), event(.delivered), event(.requeued), event(.superseded), event(.dead),
            event(.enqueued, alert: nil),
        ])
        #expect(tally.totals == [
            OutcomeTotal(alert: "app/a", outcome: .enqueued): 1, OutcomeTotal(alert: "app/a", outcome: .delivered): 1,
            OutcomeTotal(alert: "app/a", outcome: .cancelled): 1, OutcomeTotal(alert: "app/a", outcome: .dead): 1,
            OutcomeTotal(alert: AlertOutcome.adhoc, outcome: .enqueued): 1,
        ])
    }

    @Test("An ack with no action or a cancel action also counts as dismissed")
    func dismissals() {
        let tally = OutcomeTally([
            event(.acknowledged, ["action": .string("later"), "role": .string("cancel"), "onScreen": .number(2)]),
            event(.acknowledged, ["onScreen": .number(1)]),
            event(.acknowledged, ["action": .string("ok"), "role": .string("default"), "onScreen": .number(3)]),
        ])
        #expect(tally.totals[OutcomeTotal(alert: "app/a", outcome: .acknowledged)] == 3)
        #expect(tally.totals[OutcomeTotal(alert: "app/a", outcome: .dismissed)] == 2)
        let day = OutcomeDay(t0)
        let report = OutcomeReport(alert: "app/a", days: day...day, counters: tally.counts.map { OutcomeCounter(key: $0.key, count: $0.value) })
        #expect(report.total.dismissed == 2 && report.total.acknowledged == 3)
        #expect(Set(report.total.actions.map(\.action)) == ["later", "", "ok"])
    }

    @Test("Events fall on their UTC day; a report lists every day asked, empty ones too")
    func days() {
        let tally = OutcomeTally([event(.enqueued, at: 0), event(.enqueued, at: 86_400 * 2)])
        let first = OutcomeDay(t0)
        let report = OutcomeReport(
            alert: "app/a", days: first...first.adding(3), counters: tally.counts.map { OutcomeCounter(key: $0.key, count: $0.value) })
        #expect(report.days.map(\.enqueued) == [1, 0, 1, 0])
        #expect(report.total.enqueued == 2)
    }

    @Test("A quantile read from the buckets is within 9% of the true one", arguments: [0.05, 0.3, 1, 7.5, 42, 600, 3_600, 80_000])
    func bucketPrecision(_ seconds: Double) {
        let read = AnswerTimeBuckets.seconds(ofBucket: AnswerTimeBuckets.bucket(seconds: seconds))
        #expect(seconds <= 0.1 ? read <= 0.1 : abs(read - seconds) / seconds < 0.09)
    }

    @Test("Days read from text and write back the same", arguments: ["1970-01-01", "2026-12-05", "2024-02-29"])
    func dayText(_ text: String) {
        #expect(OutcomeDay(text: text)?.description == text)
    }

    @Test("Text that is not a day is refused", arguments: ["", "2026-2-05", "2026-02-30", "2023-02-29", "26-12-05", "2026/12/05", "2026-12-05T00"])
    func badDay(_ text: String) {
        #expect(OutcomeDay(text: text) == nil)
    }
}
