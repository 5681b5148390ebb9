import AlertQueue
import AlertServer
import Foundation
import TestClocks
import Testing
@testable import AlertdTestSupport
@testable import HTTPTestSupport

// Pacing over real sockets, time driven by a manual clock: a rule given with the enqueue (or
// declared with the alert) decides `next`, explain says why and until when, outcomes count
// what it dropped.

@Suite("Live server: pacing")
struct LivePacingTests {
    /// A session of `user`, its token issued by the admin.
    static func device(_ port: Int, _ session: String, user: String) throws -> SessionClient {
        let device = try SessionClient(port: port, session: session)
        device.token = try device.admin("POST", "/token", json: #"{"user":"\#(user)"}"#).decode(IssuedTokenBody.self).token
        return device
    }

    @Test("a promo shown once ever per user: enqueued on both of ana's devices, shown on one only; explain says why")
    func onceEverAcrossDevices() throws {
        let clock = ManualClock()
        try withLiveServer(clock: clock) { port in
            let phone = try Self.device(port, "ana-phone", user: "ana")
            let tablet = try Self.device(port, "ana-tablet", user: "ana")
            let once = #""pacing":{"once":{"scope":"user"}}"#
            _ = try phone.enqueue(#"{"alert":"app/redeemInvite",\#(once)}"#)
            let onTablet = try tablet.enqueue(#"{"alert":"app/redeemInvite",\#(once)}"#)
            // Shown and answered on the phone
            let shown = try phone.delivered()
            expectQueueAnswer(try phone.ack(shown.ticket), status: 200)
            // The tablet's copy waits, and explain says it was shown once already
            clock.advance(by: 600)
            #expect(try tablet.next().status == 204)
            let why = try #require(try tablet.admin("GET", "/explain?ticket=\(onTablet.ticket)").jsonObject()?["item"] as? [String: Any])
            #expect(why["code"] as? String == "pacing-once")
            #expect(why["until"] == nil)
        }
    }

    @Test("a second modal inside its gap waits, explain says until when, and it is delivered then")
    func gapWaits() throws {
        let clock = ManualClock()
        try withLiveServer(clock: clock) { port in
            let app = try SessionClient.open(port: port, session: "gap")
            let gap = #""pacing":{"minGap":{"duration":"2m"}}"#
            let first = try app.enqueue(#"{"alert":"app/questionExit","dedupeKey":"q1",\#(gap)}"#)
            #expect(try app.delivered().ticket == first.ticket)
            expectQueueAnswer(try app.ack(first.ticket), status: 200)
            let second = try app.enqueue(#"{"alert":"app/questionExit","dedupeKey":"q2",\#(gap)}"#)
            clock.advance(by: 30)
            #expect(try app.next().status == 204)
            let why = try #require(try app.admin("GET", "/explain").jsonObject())
            let item = try #require((why["items"] as? [[String: Any]])?.first)
            #expect(item["code"] as? String == "pacing-gap")
            let lifts = clock.now().addingTimeInterval(90)
            #expect(item["until"] as? String == lifts.formatted(.iso8601))
            clock.advance(by: 90)
            #expect(try app.delivered().ticket == second.ticket)
        }
    }

    @Test("a capped item with whenCapped drop is finished as capped: its timeline and the alert's outcomes say so")
    func droppedIsCounted() throws {
        let clock = ManualClock()
        try withLiveServer(clock: clock) { port in
            let app = try SessionClient.open(port: port, session: "drop")
            let rule = #""pacing":{"limits":[{"count":1,"period":"1d"}],"whenCapped":"drop"}"#
            let first = try app.enqueue(#"{"alert":"app/logoutConfirm","dedupeKey":"l1",\#(rule)}"#)
            #expect(try app.delivered().ticket == first.ticket)
            expectQueueAnswer(try app.ack(first.ticket), status: 200)
            let second = try app.enqueue(#"{"alert":"app/logoutConfirm","dedupeKey":"l2",\#(rule)}"#)
            #expect(try app.next().status == 204)
            let timeline = try #require(try app.admin("GET", "/queue/\(second.ticket)").jsonObject()?["timeline"] as? [[String: Any]])
            #expect(timeline.last?["type"] as? String == "capped")
            #expect((timeline.last?["detail"] as? [String: Any])?["rule"] as? String == "limit")
            let outcomes = try RawHTTPClient(port: port).request(
                "GET", "/v1/alerts/app/logoutConfirm/outcomes", headers: [("Authorization", "Bearer \(TestCredentials.adminToken)")])
            #expect(outcomes.status == 200)
            let total = try #require(try outcomes.jsonObject()?["total"] as? [String: Any])
            #expect(total["capped"] as? Int == 1 && total["delivered"] as? Int == 1)
        }
    }

    @Test("a session in its quiet hours gets its HUD but not its promo until morning, unless the promo is critical")
    func quietHoursUntilMorning() throws {
        // 23:00 in Berlin
        let clock = ManualClock(start: Date(timeIntervalSince1970: 1_800_000_000 - 10 * 3_600))
        try withLiveServer(clock: clock) { port in
            let app = try SessionClient(port: port, session: "night")
            let profile = #"{"profile":{"timeZone":"Europe/Berlin","quietHours":"22:00-08:00"}}"#
            app.token = try app.admin("POST", "/token", json: profile).decode(IssuedTokenBody.self).token
            let promo = try app.enqueue(#"{"alert":"app/redeemInvite"}"#)
            let saved = try app.enqueue(#"{"alert":"app/saved"}"#)
            // The HUD flows; the promo waits, and explain says until 08:00 in Berlin
            #expect(try app.delivered().ticket == saved.ticket)
            #expect(try app.next().status == 204)
            let why = try #require(try app.admin("GET", "/explain?ticket=\(promo.ticket)").jsonObject()?["item"] as? [String: Any])
            #expect(why["code"] as? String == "quiet-hours")
            #expect(why["until"] as? String == "2027-01-15T07:00:00Z")
            // A critical alert passes
            let critical = try app.enqueue(#"{"alert":"app/logoutConfirm","priority":950}"#)
            #expect(try app.delivered().ticket == critical.ticket)
            expectQueueAnswer(try app.ack(critical.ticket), status: 200)
            // In the morning the promo is shown
            clock.advance(by: 9 * 3_600)
            app.token = try app.admin("POST", "/token").decode(IssuedTokenBody.self).token
            #expect(try app.delivered().ticket == promo.ticket)
        }
    }
}
