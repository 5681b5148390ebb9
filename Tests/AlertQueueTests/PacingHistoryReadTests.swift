import AlertSpec
import Foundation
import Testing

@testable import AlertQueue

/// A history read for the rules' needs (`PacingHistory.Needs`, `Read`) judges as the whole
/// history does; the local times the session-wide rules keep per zone agree with the calendar.
@Suite("Pacing history: reads for the rules' needs")
struct PacingHistoryReadTests {
    /// What a store reads of `times` for `needs`, worked out the long way: the deliveries in each
    /// window, the ranks asked for up to the most a window holds (and the last always).
    static func read(_ times: [Date], _ needs: PacingHistory.Needs) -> PacingHistory.Read {
        let sorted = times.sorted()
        var read = PacingHistory.Read(ever: !sorted.isEmpty)
        for window in needs.windows { read.set(sorted.filter(window.holds).count, in: window) }
        for rank in Set(needs.ranks).union([1]) where rank <= sorted.count && (rank == 1 || rank <= read.most) {
            read.set(sorted[sorted.count - rank], ofRank: rank)
        }
        return read
    }

    /// What `rule` asks of `app/a`, and the profile of the modals, at `now`.
    static func demand(_ rule: Pacing? = nil, profile: SessionProfile = .none, now: Date) -> PacingHistory.Demand {
        PacingHistory.Demand(rules: rule.map { [("app/a", $0)] } ?? [], profile: profile, now: now)
    }

    static let rules: [Pacing] = [
        Pacing(limits: [.init(count: 1, period: .minutes(10))]),
        Pacing(limits: [.init(count: 3, period: .hours(1))]),
        Pacing(limits: [.init(count: 2, period: .minutes(30)), .init(count: 5, period: .hours(2))]),
        Pacing(minGap: .init(duration: .minutes(5))),
        Pacing(limits: [.init(count: 4, period: .hours(1))], minGap: .init(duration: .minutes(2))),
        Pacing(once: .init(scope: .session)),
    ]

    @Test("Over random histories, a read for the needs judges as every delivery does, before and after the step records one")
    func readJudgesAsWhole() {
        var random = SplitMix64(seed: 0xFACE_0042)
        for trial in 0..<600 {
            let rule = Self.rules[trial % Self.rules.count]
            let count = Int.random(in: 0...12, using: &random)
            // Whole seconds, some equal, some exactly a period before now.
            let times = (0..<count).map { _ in
                at(-Double([600, 1_800, 3_600, 7_200].randomElement(using: &random)!) + (Bool.random(using: &random) ? 0 : -Double(Int.random(in: 0...7_200, using: &random))))
            }
            let now = t0
            var whole = PacingHistory()
            whole.add(alert: "app/a", scope: .session, shownAt: times)
            var read = PacingHistory()
            for (key, needs) in Self.demand(rule, now: now).keys {
                read.add(alert: key.alert, scope: key.scope, read: Self.read(times, needs))
            }
            #expect(rule.verdict(alert: "app/a", history: read, now: now) == rule.verdict(alert: "app/a", history: whole, now: now),
                    "trial \(trial): \(rule) over \(times.map { $0.timeIntervalSince(t0) })")
            whole.recordShown(alert: "app/a", at: now)
            read.recordShown(alert: "app/a", at: now)
            #expect(rule.verdict(alert: "app/a", history: read, now: now) == rule.verdict(alert: "app/a", history: whole, now: now),
                    "trial \(trial), after a delivery: \(rule) over \(times.map { $0.timeIntervalSince(t0) })")
        }
    }

    @Test("The most modals a day and the modal gap judge a read as the whole history")
    func sessionWideRead() throws {
        let profile = SessionProfile(timeZone: "Europe/Berlin", minModalGap: .minutes(1), maxModalsPerDay: 2)
        let now = try! Date("2026-06-10T10:00:00Z", strategy: .iso8601)
        let modal = QueueItem(
            ticket: "m", session: session, content: .alert(id: "app/m", parameters: [:]), priority: 500, lane: .modal, dedupeKey: "m",
            state: .queued, sequence: 1, enqueuedAt: now, expiresAt: nil, deliveries: 0, leaseUntil: nil, atHead: false)
        for hoursAgo in [[], [1], [1, 2], [11, 12], [9, 30], [0.01], [1, 2, 3]] as [[Double]] {
            let times = hoursAgo.map { now.addingTimeInterval(-$0 * 3_600) }
            var whole = PacingHistory()
            whole.add(alert: PacingHistory.modals, scope: .user, shownAt: times)
            var read = PacingHistory()
            let needs = try #require(Self.demand(profile: profile, now: now).keys.first?.needs)
            read.add(alert: PacingHistory.modals, scope: .user, read: Self.read(times, needs))
            #expect(profile.hold(modal, history: read, bypassPriority: 900, now: now).map { "\($0.rule) \($0.until)" }
                    == profile.hold(modal, history: whole, bypassPriority: 900, now: now).map { "\($0.rule) \($0.until)" }, "\(hoursAgo)")
        }
        #expect(Self.demand(profile: SessionProfile(timeZone: "Europe/Berlin"), now: now).isEmpty)
    }

    static let zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "America/St_Johns", "Pacific/Chatham", "UTC"]

    @Test("Local minutes and days kept per zone agree with the calendar, around changes of clock and in any order")
    func localTimesAgreeWithCalendar() throws {
        var random = SplitMix64(seed: 0x7153)
        for name in Self.zones {
            let zone = try #require(TimeZone(identifier: name))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            // Instants around the next four changes of clock (or a year's days without any), shuffled.
            var instants: [Date] = []
            var from = try Date("2026-01-01T00:00:00Z", strategy: .iso8601)
            for _ in 0..<4 {
                let change = zone.nextDaylightSavingTimeTransition(after: from) ?? from.addingTimeInterval(86_400 * 91)
                instants += stride(from: -3 * 3_600.0, through: 3 * 3_600, by: 7 * 60 + 1).map { change.addingTimeInterval($0) }
                from = change.addingTimeInterval(1)
            }
            instants.shuffle(using: &random)
            for instant in instants {
                let local = calendar.dateComponents([.hour, .minute], from: instant)
                #expect(LocalDay.minute(of: instant, in: zone) == local.hour! * 60 + local.minute!, "\(name) \(instant)")
                let start = calendar.startOfDay(for: instant)
                #expect(LocalDay.holding(instant, in: zone) == LocalDay(start: start, end: calendar.date(byAdding: .day, value: 1, to: start)!),
                        "\(name) \(instant)")
            }
        }
    }
}
