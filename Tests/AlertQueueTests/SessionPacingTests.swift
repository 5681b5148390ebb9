import AlertQueue
import AlertSpec
import Foundation
import Testing

/// Session-wide pacing (`SessionProfile`): quiet hours in the session's time zone, the least time
/// between modals, the most modals a day, and the priority that passes them. Plain values.
@Suite("Session pacing")
struct SessionPacingTests {
    /// An instant written as RFC 3339.
    func instant(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }

    func item(_ ticket: String, lane: Lane = .modal, priority: Int = 500, sequence: Int64 = 1) -> QueueItem {
        QueueItem(
            ticket: ticket, session: session, content: .alert(id: "app/\(ticket)", parameters: [:]), priority: priority, lane: lane,
            dedupeKey: ticket, state: .queued, sequence: sequence, enqueuedAt: t0, expiresAt: nil, deliveries: 0, leaseUntil: nil,
            atHead: false)
    }

    func modalsShown(_ times: [Date]) -> PacingHistory {
        var history = PacingHistory()
        history.add(alert: PacingHistory.modals, scope: .user, shownAt: times)
        return history
    }

    @Test("Quiet hours are read as HH:MM-HH:MM, and refuse anything else")
    func quietHoursText() {
        #expect(QuietHours("22:00-08:00")?.description == "22:00-08:00")
        #expect(QuietHours("07:05-07:30").map { ($0.start, $0.end) }! == (425, 450))
        for bad in ["22-08", "24:00-08:00", "22:00-22:00", "22:00-8:00", "22:00 - 08:00", "", "22:60-08:00"] {
            #expect(QuietHours(bad) == nil, "\(bad)")
        }
    }

    @Test("Quiet hours hold modals and toasts until their end in the session's zone; HUDs and critical items pass")
    func quietHours() {
        let night = SessionProfile(timeZone: "Europe/Berlin", quietHours: QuietHours("22:00-08:00"))
        let now = instant("2026-06-10T21:30:00Z")  // 23:30 in Berlin (CEST)
        let end = instant("2026-06-11T06:00:00Z")  // 08:00 in Berlin
        #expect(night.hold(item("m"), history: PacingHistory(), bypassPriority: 900, now: now)! == (.quietHours, end))
        #expect(night.hold(item("t", lane: .toast), history: PacingHistory(), bypassPriority: 900, now: now)?.until == end)
        #expect(night.hold(item("h", lane: .hud), history: PacingHistory(), bypassPriority: 900, now: now) == nil)
        #expect(night.hold(item("c", priority: 900), history: PacingHistory(), bypassPriority: 900, now: now) == nil)
        // Outside them, and at their end exactly
        #expect(night.hold(item("m"), history: PacingHistory(), bypassPriority: 900, now: instant("2026-06-10T12:00:00Z")) == nil)
        #expect(night.hold(item("m"), history: PacingHistory(), bypassPriority: 900, now: end) == nil)
    }

    @Test("Quiet hours across a change of clock end at their local time as the calendar has it")
    func quietHoursAcrossDST() {
        // Autumn: 25 October 2026, Berlin goes from CEST to CET at 03:00; 08:00 CET is 07:00 UTC
        let night = SessionProfile(timeZone: "Europe/Berlin", quietHours: QuietHours("22:00-08:00"))
        #expect(night.hold(item("m"), history: PacingHistory(), bypassPriority: 900, now: instant("2026-10-24T21:00:00Z"))?.until
            == instant("2026-10-25T07:00:00Z"))
        // Spring: 29 March 2026, 02:00 CET becomes 03:00 CEST; an end at 02:30 comes at 03:00 CEST
        let early = SessionProfile(timeZone: "Europe/Berlin", quietHours: QuietHours("01:00-02:30"))
        #expect(early.hold(item("m"), history: PacingHistory(), bypassPriority: 900, now: instant("2026-03-29T00:30:00Z"))?.until
            == instant("2026-03-29T01:00:00Z"))
    }

    @Test("The least time between modals counts from the last modal shown; toasts are not held by it")
    func modalGap() {
        let gap = SessionProfile(minModalGap: .seconds(30))
        let history = modalsShown([at(0), at(10)])
        #expect(gap.hold(item("m"), history: history, bypassPriority: 900, now: at(20))! == (.modalGap, at(40)))
        #expect(gap.hold(item("m"), history: history, bypassPriority: 900, now: at(40)) == nil)
        #expect(gap.hold(item("t", lane: .toast), history: history, bypassPriority: 900, now: at(20)) == nil)
        #expect(gap.countsModals)
    }

    @Test("The most modals a day count the calendar day in the session's zone, until its next midnight")
    func dailyCap() {
        let cap = SessionProfile(timeZone: "Europe/Berlin", maxModalsPerDay: 2)
        // 23:30 the evening before (Berlin) does not count for the 10th; two on the 10th do
        let history = modalsShown([instant("2026-06-09T21:30:00Z"), instant("2026-06-10T06:00:00Z"), instant("2026-06-10T09:00:00Z")])
        let now = instant("2026-06-10T12:00:00Z")
        #expect(cap.hold(item("m"), history: history, bypassPriority: 900, now: now)! == (.dailyCap, instant("2026-06-10T22:00:00Z")))
        #expect(cap.hold(item("m"), history: modalsShown([instant("2026-06-10T06:00:00Z")]), bypassPriority: 900, now: now) == nil)
    }

    @Test("next under a session profile: a held modal waits, a HUD flows, a modal shown is recorded for the next step")
    func nextUnderAProfile() {
        let policy = QueuePolicy(settings: QueueSettings(profile: SessionProfile(minModalGap: .seconds(60))))
        var items = SessionItems(session: session, items: [item("m1", sequence: 1), item("m2", sequence: 2)])
        var history = PacingHistory()
        // The first modal goes, and is counted
        #expect(policy.next(&items, holdUntil: nil, pacing: &history, now: t0)?.ticket == "m1")
        #expect(history.recorded.map(\.alert) == [PacingHistory.modals])
        _ = try? policy.ack(ticket: "m1", chain: nil, in: &items, now: at(1))
        // The second waits out the gap
        #expect(policy.next(&items, holdUntil: nil, pacing: &history, now: at(30)) == nil)
        #expect(policy.next(&items, holdUntil: nil, pacing: &history, now: at(60))?.ticket == "m2")
        // A session's own profile over the server's
        let quiet = SessionProfile(quietHours: QuietHours("00:00-23:59"))
        var night = SessionItems(session: session, items: [item("m3"), item("h", lane: .hud, sequence: 2)])
        var none = PacingHistory()
        #expect(policy.next(&night, holdUntil: nil, pacing: &none, profile: quiet, now: t0)?.ticket == "h")
    }

    @Test("Explain names quiet hours, the modal gap and the daily cap, with when they lift")
    func explained() throws {
        let snapshot = SessionSnapshot(
            session: session, now: at(20), items: [item("m")], holdUntil: nil, finished: [], pacing: modalsShown([at(10)]),
            profile: SessionProfile(minModalGap: .seconds(30)))
        let why = QueueExplanation(snapshot, policy: QueuePolicy())
        let explained = try #require(why.item(ticket: "m"))
        #expect(explained.code == .modalGap && explained.until == at(40))
        #expect(why.next == nil)
    }
}
