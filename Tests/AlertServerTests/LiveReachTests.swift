import AlertQueue
import AlertServer
import Foundation
import Testing
@testable import AlertdTestSupport
@testable import HTTPTestSupport

// A user's devices over real sockets: `POST /v1/users/{user}/queue` queues a copy on each of
// the user's sessions; with `reach: once` the first answer withdraws the copy another device
// shows, through that device's waiting poll.

@Suite("Live server: reaching a user's devices")
struct LiveReachTests {
    static func userQueue(_ port: Int, _ user: String, json: String) throws -> RawHTTPResponse {
        try RawHTTPClient(port: port).request(
            "POST", "/v1/users/\(user)/queue",
            headers: [("Authorization", "Bearer \(TestCredentials.adminToken)"), ("Content-Type", "application/json")],
            body: Array(json.utf8))
    }

    @Test("reach once: both devices get the alert, the phone answers, the tablet's waiting poll gets the withdraw")
    func onceWithdrawsOnOtherDevice() throws {
        try withLiveService { port, service in
            // Given ana's phone and tablet
            let phone = try SessionClient(port: port, session: "ana-phone")
            phone.token = try phone.admin("POST", "/token", json: #"{"user":"ana"}"#).decode(IssuedTokenBody.self).token
            let tablet = try SessionClient(port: port, session: "ana-tablet", timeout: .seconds(25))
            tablet.token = try tablet.admin("POST", "/token", json: #"{"user":"ana"}"#).decode(IssuedTokenBody.self).token
            // When the backend queues once for ana
            let queued = try Self.userQueue(port, "ana", json: #"{"alert":"app/questionExit"}"#)
            // Then one copy per device, as one group
            expectQueueAnswer(queued, status: 201)
            let body = try #require(try queued.jsonObject())
            #expect(body["reach"] as? String == "once" && (body["group"] as? String)?.hasPrefix("g_") == true)
            let copies = try #require(body["copies"] as? [[String: Any]])
            #expect(Set(copies.compactMap { $0["session"] as? String }) == ["ana-phone", "ana-tablet"])
            // Both devices show it; the tablet polls again
            let onPhone = try phone.delivered()
            let onTablet = try tablet.delivered()
            try tablet.client.send(
                RawHTTPClient.requestBytes("GET", "/v1/sessions/ana-tablet/next?wait=20", headers: [("Authorization", "Bearer \(tablet.token)")]))
            #expect(eventually { service.queue.polls.count == 1 }, "the tablet's poll never waited")
            // When the phone answers
            let answered = ContinuousClock.now
            expectQueueAnswer(try phone.ack(onPhone.ticket, action: "leave"), status: 200)
            // Then the tablet's poll is handed the withdraw at once, and its ack is gone
            let withdraw = try tablet.client.readResponse()
            #expect(withdraw.status == 200)
            #expect(try withdraw.jsonObject()?["withdraw"] as? String == onTablet.ticket)
            #expect(ContinuousClock.now - answered < .seconds(10))
            #expect(try tablet.ack(onTablet.ticket).status == 410)
            let timeline = try #require(try tablet.admin("GET", "/queue/\(onTablet.ticket)").jsonObject()?["timeline"] as? [[String: Any]])
            #expect(timeline.last?["type"] as? String == "withdrawn")
            #expect((timeline.last?["detail"] as? [String: Any])?["after"] as? String == onPhone.ticket)
        }
    }

    @Test("every-device queues independent copies; a user without sessions is 404; bad input is 422 or 400")
    func everyDeviceAndBadInput() throws {
        try withLiveServer { port in
            for session in ["bo-1", "bo-2"] {
                _ = try SessionClient(port: port, session: session).admin("POST", "/token", json: #"{"user":"bo"}"#)
            }
            let queued = try Self.userQueue(port, "bo", json: #"{"alert":"app/questionExit","reach":"every-device"}"#)
            expectQueueAnswer(queued, status: 201)
            #expect(try queued.jsonObject()?["group"] == nil)
            // The same again: duplicates, 200
            let again = try Self.userQueue(port, "bo", json: #"{"alert":"app/questionExit","reach":"every-device"}"#)
            expectQueueAnswer(again, status: 200)
            #expect((try again.jsonObject()?["copies"] as? [[String: Any]])?.allSatisfy { $0["duplicate"] as? Bool == true } == true)
            // A user no session names
            _ = try expectProblem(try Self.userQueue(port, "nobody", json: #"{"alert":"app/questionExit"}"#), status: 404)
            // A bad reach and a bad alert, reported together
            let bad = try Self.userQueue(port, "bo", json: #"{"alert":"app/nope","reach":"sometimes"}"#)
            #expect(Set(try expectInvalidRequest(bad).map(\.pointer)) == ["/alert", "/reach"])
            // A bad user id
            _ = try expectProblem(try Self.userQueue(port, "bad%20id", json: #"{"alert":"app/questionExit"}"#), status: 400)
        }
    }
}
