import AlertQueue
import AlertServer
import Foundation
import TestClocks
import Testing
@testable import AlertdTestSupport
@testable import HTTPTestSupport

// `notBefore` on `POST …/queue` over real sockets, time driven by a manual clock: both forms,
// what listings, explain and `next` make of it, and the bodies it refuses.

@Suite("Live server: scheduled delivery")
struct LiveScheduleTests {
    @Test("notBefore in seconds: listed with its time, explained as scheduled, delivered from its time")
    func secondsFromNow() throws {
        let clock = ManualClock()
        try withLiveServer(clock: clock) { port in
            // Given an alert scheduled a minute ahead
            let app = try SessionClient.open(port: port, session: "later")
            let item = try app.enqueue(#"{"alert":"app/logoutConfirm","notBefore":60,"ttl":30}"#)
            let due = clock.now().addingTimeInterval(60)
            // Then it is listed with its time, its TTL counted from it, and not delivered before it
            let listed = try #require(try app.list().items.first)
            #expect(listed.notBefore == due.formatted(.iso8601))
            #expect(listed.expiresAt == due.addingTimeInterval(30).formatted(.iso8601))
            let why = try #require(try app.admin("GET", "/explain").jsonObject())
            #expect(why["code"] as? String == "scheduled")
            let first = try #require((why["items"] as? [[String: Any]])?.first)
            #expect(first["until"] as? String == due.formatted(.iso8601))
            #expect(try app.next().status == 204)
            // When its time comes
            clock.advance(by: 60)
            // Then it is delivered, and its timeline's enqueued event carried the time
            #expect(try app.delivered().ticket == item.ticket)
            let timeline = try app.admin("GET", "/queue/\(item.ticket)").jsonObject()?["timeline"] as? [[String: Any]]
            let enqueued = (timeline?.first?["detail"] as? [String: Any])?["notBefore"] as? String
            #expect(enqueued == ItemEvent.timeText(due))
        }
    }

    @Test("notBefore as an RFC 3339 time, with an offset; one in the past is now")
    func rfc3339Time() throws {
        let clock = ManualClock()
        try withLiveServer(clock: clock) { port in
            let app = try SessionClient.open(port: port, session: "at")
            let due = clock.now().addingTimeInterval(3_600)
            // 2 hours east of UTC: the same instant written another way
            let text = due.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(secondsFromGMT: 7_200)!))
            let later = try app.enqueue(#"{"alert":"app/logoutConfirm","notBefore":"\#(text)"}"#)
            let past = clock.now().addingTimeInterval(-5).formatted(.iso8601)
            let now = try app.enqueue(#"{"alert":"app/questionExit","notBefore":"\#(past)"}"#)
            let listed = Dictionary(uniqueKeysWithValues: try app.list().items.map { ($0.ticket, $0.notBefore) })
            #expect(listed == [later.ticket: due.formatted(.iso8601), now.ticket: nil])
            #expect(try app.delivered().ticket == now.ticket)
            expectQueueAnswer(try app.ack(now.ticket), status: 200)
            #expect(try app.next().status == 204)
            clock.advance(by: 3_600)
            #expect(try app.delivered().ticket == later.ticket)
        }
    }

    @Test("a waiting long-poll is answered when a scheduled item comes due, with no write to wake it")
    func longPollWokenAtSchedule() throws {
        let clock = ManualClock()
        try withLiveService(clock: clock) { port, service in
            // Given the app waiting for its next alert, and then an alert scheduled 20 s ahead
            let app = try SessionClient.open(port: port, session: "waiting", timeout: .seconds(10))
            try app.client.send(
                RawHTTPClient.requestBytes("GET", "/v1/sessions/waiting/next?wait=30", headers: [("Authorization", "Bearer \(app.token)")]))
            #expect(eventually { service.queue.polls.count == 1 }, "the poll never waited")
            let backend = try SessionClient(port: port, session: "waiting")
            let item = try backend.enqueue(#"{"alert":"app/logoutConfirm","notBefore":20}"#)
            // The enqueue woke the poll, which found nothing deliverable and waits again
            #expect(eventually { service.queue.polls.count == 1 })
            clock.advance(by: 10)
            #expect(service.queue.polls.count == 1, "answered before the item was due")
            // When its time comes on the clock
            clock.advance(by: 10.01)
            // Then the poll answers with it, well before its own deadline
            let response = try app.client.readResponse()
            expectQueueAnswer(response, status: 200)
            #expect(try response.decode(DeliveryBody.self).ticket == item.ticket)
        }
    }

    @Test(
        "a notBefore that is not a time, negative, too far ahead or of another type is a 422 at /notBefore",
        arguments: [
            (#""tomorrow at 9""#, "invalid-value"), (#""2026-12-24 09:00""#, "invalid-value"), (#""2026-12-24T09:00:00""#, "invalid-value"),
            ("-1", "out-of-range"), ("31622401", "out-of-range"), (#""2999-01-01T00:00:00Z""#, "out-of-range"),
            ("true", "invalid-type"), (#"{"at":"2026-12-24T09:00:00Z"}"#, "invalid-type"), ("[60]", "invalid-type"),
        ])
    func badNotBefore(_ value: String, _ code: String) throws {
        try withLiveServer { port in
            let app = try SessionClient(port: port, session: "bad")
            let issues = try expectInvalidRequest(try app.admin("POST", "/queue", json: #"{"alert":"app/logoutConfirm","notBefore":\#(value)}"#))
            #expect(issues.map(\.description) == ["/notBefore \(code)"])
            #expect(try app.list().items.isEmpty)
        }
    }

    @Test("the milestone's other names are unknown fields, not a schedule")
    func otherNames() throws {
        try withLiveServer { port in
            let app = try SessionClient(port: port, session: "bad")
            let issues = try expectInvalidRequest(try app.admin("POST", "/queue", json: #"{"alert":"app/logoutConfirm","deliverAt":60}"#))
            #expect(issues.map(\.description) == ["/deliverAt unknown-field"])
        }
    }
}
