import AlertSpec
import Foundation
import Testing

/// `Period` (the one reader of `30d`-style text) and `Pacing`: reading a rule as people write
/// it, every problem with its pointer, tightening by an enqueue, and the gap a TTL cannot wait.
@Suite("Pacing rules and periods")
struct PacingTests {
    private func read(_ text: String) -> (pacing: Pacing?, issues: [SpecIssue]) {
        var issues: [SpecIssue] = []
        let json = (try? JSON(parsing: Array(text.utf8))) ?? .null
        return (Pacing(json: json, at: "/pacing", issues: &issues), issues)
    }

    @Test(
        "a period is a whole number and its unit, written back in the largest unit that divides it",
        arguments: [("90s", 90, "90s"), ("15m", 900, "15m"), ("12h", 43_200, "12h"), ("30d", 2_592_000, "30d"), ("120s", 120, "2m"), ("36h", 129_600, "36h")])
    func periods(text: String, seconds: Int, written: String) throws {
        let period = try #require(Period(text))
        #expect(period.seconds == seconds)
        #expect(period.description == written)
    }

    @Test("anything else is no period", arguments: ["", "30", "d", "0d", "-5m", "+5m", "1.5h", "5w", "５m", " 5m", "99999999999999999999d"])
    func notPeriods(text: String) {
        #expect(Period(text) == nil)
    }

    @Test("a full rule is read with its defaults: scope session, whenCapped defer")
    func readsARule() throws {
        let (pacing, issues) = read(#"""
            {"limits": [{"count": 3, "period": "1d"}, {"count": 1, "period": 3600, "scope": "user"}],
             "once": {}, "minGap": {"duration": "60s", "scope": "user"}}
            """#)
        #expect(issues.isEmpty, "\(issues)")
        #expect(pacing == Pacing(
            limits: [.init(count: 3, period: .days(1)), .init(count: 1, period: .hours(1), scope: .user)],
            once: .init(scope: .session), minGap: .init(duration: .seconds(60), scope: .user), whenCapped: .defer))
        #expect(read(#"{"whenCapped":"drop","once":{"scope":"user"}}"#).pacing == Pacing(once: .init(scope: .user), whenCapped: .drop))
    }

    @Test(
        "every bad value is an issue at its member, and no rule is read",
        arguments: [
            (#"{"limit": {"count": 1, "period": "1d"}}"#, "/pacing/limit", "unknown-field"),
            (#"{"limits": [{"count": 0, "period": "1d"}]}"#, "/pacing/limits/0/count", "out-of-range"),
            (#"{"limits": [{"count": -2, "period": "1d"}]}"#, "/pacing/limits/0/count", "out-of-range"),
            (#"{"limits": [{"count": 1.5, "period": "1d"}]}"#, "/pacing/limits/0/count", "out-of-range"),
            (#"{"limits": [{"period": "1d"}]}"#, "/pacing/limits/0/count", "missing-field"),
            (#"{"limits": [{"count": 1, "period": "0d"}]}"#, "/pacing/limits/0/period", "invalid-value"),
            (#"{"limits": [{"count": 1, "period": -60}]}"#, "/pacing/limits/0/period", "invalid-value"),
            (#"{"limits": [{"count": 1, "period": "a week"}]}"#, "/pacing/limits/0/period", "invalid-value"),
            (#"{"limits": [{"count": 1, "period": "367d"}]}"#, "/pacing/limits/0/period", "invalid-value"),
            (#"{"limits": [{"count": 1}]}"#, "/pacing/limits/0/period", "missing-field"),
            (#"{"limits": [{"count": 1, "period": "1d", "scope": "device"}]}"#, "/pacing/limits/0/scope", "invalid-value"),
            (#"{"limits": [{"count": 1, "period": "1d", "per": "user"}]}"#, "/pacing/limits/0/per", "unknown-field"),
            (#"{"limits": {"count": 1, "period": "1d"}}"#, "/pacing/limits", "invalid-type"),
            (#"{"once": true}"#, "/pacing/once", "invalid-type"),
            (#"{"once": {"scope": "app"}}"#, "/pacing/once/scope", "invalid-value"),
            (#"{"minGap": "60s"}"#, "/pacing/minGap", "invalid-type"),
            (#"{"minGap": {"duration": "1.5m"}}"#, "/pacing/minGap/duration", "invalid-value"),
            (#"{"minGap": {}}"#, "/pacing/minGap/duration", "missing-field"),
            (#"{"whenCapped": "wait"}"#, "/pacing/whenCapped", "invalid-value"),
            (#""1/day""#, "/pacing", "invalid-type"),
        ] as [(String, String, String)])
    func badValues(text: String, pointer: String, code: String) {
        let (pacing, issues) = read(text)
        #expect(pacing == nil)
        #expect(issues.map(\.pointer) == [pointer], "\(issues)")
        #expect(issues.first?.code == code, "\(issues)")
        #expect(issues.allSatisfy { !$0.message.isEmpty })
    }

    @Test("every problem of one rule is reported, not only the first")
    func everyProblem() {
        let (_, issues) = read(#"{"limits": [{"count": 0, "period": "0s"}], "whenCapped": "later", "x": 1}"#)
        #expect(Set(issues.map(\.pointer)) == ["/pacing/limits/0/count", "/pacing/limits/0/period", "/pacing/whenCapped", "/pacing/x"])
    }

    // MARK: Tightening

    private let monthly = Pacing.Limit(count: 1, period: .days(30))

    @Test("an enqueue's limit applies in addition to the alert's; one the other implies is left out")
    func limitsAdd() {
        let daily = Pacing(limits: [.init(count: 3, period: .days(1))])
        let hourly = Pacing(limits: [.init(count: 1, period: .hours(1))])
        // 3 a day and 1 an hour: neither implies the other, both stay
        #expect(daily.tightened(by: hourly).limits == daily.limits + hourly.limits)
        // 1 a month implies 3 a day: only the month stays, whichever side gave it
        #expect(daily.tightened(by: Pacing(limits: [monthly])).limits == [monthly])
        #expect(Pacing(limits: [monthly]).tightened(by: daily).limits == [monthly])
        // The same limit counted over the user implies it counted over the session
        let perUser = Pacing.Limit(count: 1, period: .days(30), scope: .user)
        #expect(Pacing(limits: [monthly]).tightened(by: Pacing(limits: [perUser])).limits == [perUser])
    }

    @Test("once takes the wider scope, the gap the longer duration and wider scope, drop beats defer")
    func strictestOfEach() {
        let alert = Pacing(once: .init(scope: .session), minGap: .init(duration: .seconds(60), scope: .user), whenCapped: .drop)
        let enqueue = Pacing(once: .init(scope: .user), minGap: .init(duration: .minutes(5)), whenCapped: .defer)
        let tightened = alert.tightened(by: enqueue)
        #expect(tightened.once == .init(scope: .user))
        #expect(tightened.minGap == .init(duration: .minutes(5), scope: .user))
        #expect(tightened.whenCapped == .drop)
        #expect(Pacing.none.tightened(by: Pacing(whenCapped: .drop)).whenCapped == .drop)
    }

    @Test("tightening by no rule changes nothing, and a rule is never looser than either side")
    func neverLooser() {
        let alert = Pacing(limits: [monthly], minGap: .init(duration: .seconds(60)))
        #expect(alert.tightened(by: .none) == alert)
        #expect(Pacing.none.tightened(by: alert) == alert)
        #expect(Pacing.none.tightened(by: .none).isNone)
        let looser = Pacing(limits: [.init(count: 5, period: .days(1))], minGap: .init(duration: .seconds(1)))
        #expect(alert.tightened(by: looser) == alert)
    }

    // MARK: Checks

    @Test("a deferred gap longer than the TTL cannot hold; dropped, shorter, or with no TTL it can")
    func gapPastTTL() throws {
        let gap = Pacing(minGap: .init(duration: .minutes(2)))
        let problem = try #require(gap.problem(ttl: 60))
        #expect(problem.contains("2m") && problem.contains("60s"), "\(problem)")
        #expect(gap.problem(ttl: 120) == nil)
        #expect(gap.problem(ttl: nil) == nil)
        #expect(Pacing(minGap: .init(duration: .minutes(2)), whenCapped: .drop).problem(ttl: 60) == nil)
    }

    @Test("a rule written in code with a count or period out of range has problems")
    func problemsInCode() {
        #expect(Pacing(limits: [.init(count: 0, period: .days(1))]).problems.count == 1)
        #expect(Pacing(minGap: .init(duration: .days(400))).problems.count == 1)
        #expect(Pacing(limits: [monthly], once: .init()).problems.isEmpty)
    }

    @Test("written as JSON with periods as text, and read back the same; a period may be read from seconds")
    func codable() throws {
        let pacing = Pacing(limits: [monthly], once: .init(scope: .user), minGap: .init(duration: .seconds(90)), whenCapped: .drop)
        let json = try JSONEncoder().encode(pacing)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains(#""period":"30d""#) && text.contains(#""duration":"90s""#), "\(text)")
        #expect(try JSONDecoder().decode(Pacing.self, from: json) == pacing)
        #expect(try JSONDecoder().decode(Pacing.self, from: Data("{}".utf8)) == .none)
        let seconds = #"{"minGap":{"duration":120,"scope":"session"}}"#
        #expect(try JSONDecoder().decode(Pacing.self, from: Data(seconds.utf8)).minGap?.duration == .minutes(2))
        #expect(String(decoding: try JSONEncoder().encode(Pacing.none), as: UTF8.self) == #"{"whenCapped":"defer"}"#)
    }
}
