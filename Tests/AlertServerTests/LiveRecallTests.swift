import AlertServer
import Foundation
import Testing
@testable import AlertdTestSupport
@testable import HTTPTestSupport

// `POST /v1/alerts/{catalog}/{type}/recall` over real sockets: every live copy of an alert taken
// back, a waiting poll woken with the withdraw.

@Suite("Live server: recalling an alert")
struct LiveRecallTests {
    @Test("a recall cancels queued copies, withdraws a presenting one through the waiting poll, and counts both")
    func recallWithdrawsEverywhere() throws {
        try withLiveService { port, service in
            // Given: the promo shown in one session whose app polls again, queued in another
            let shown = try SessionClient.open(port: port, session: "recall-shown", timeout: .seconds(25))
            let showing = try shown.enqueue(#"{"alert":"app/questionExit"}"#).ticket
            #expect(try shown.delivered().ticket == showing)
            let queued = try SessionClient.open(port: port, session: "recall-queued")
            let waiting = try queued.enqueue(#"{"alert":"app/questionExit"}"#).ticket
            let other = try queued.enqueue(#"{"alert":"app/redeemInvite"}"#).ticket
            try shown.client.send(
                RawHTTPClient.requestBytes("GET", "/v1/sessions/recall-shown/next?wait=20", headers: [("Authorization", "Bearer \(shown.token)")]))
            #expect(eventually { service.queue.polls.count == 1 }, "the poll never waited")
            // When
            let started = ContinuousClock.now
            let response = try shown.client(port: port).request(
                "POST", "/v1/alerts/app/questionExit/recall", headers: [("Authorization", "Bearer \(TestCredentials.adminToken)")])
            // Then: counts, the withdraw on the waiting poll at once, the ack gone, the other alert next
            expectQueueAnswer(response, status: 200)
            let body = try #require(try response.jsonObject())
            #expect(body["alert"] as? String == "app/questionExit")
            #expect(body["cancelled"] as? Int == 1 && body["withdrawn"] as? Int == 1)
            let withdraw = try shown.client.readResponse()
            #expect(withdraw.status == 200)
            #expect(try withdraw.jsonObject()?["withdraw"] as? String == showing)
            #expect(ContinuousClock.now - started < .seconds(10))
            #expect(try shown.ack(showing).status == 410)
            #expect(try queued.delivered().ticket == other)
            let timeline = try #require(try queued.admin("GET", "/queue/\(waiting)").jsonObject()?["timeline"] as? [[String: Any]])
            #expect(timeline.last?["type"] as? String == "cancelled")
            #expect((timeline.last?["detail"] as? [String: Any])?["by"] as? String == "recall")
            // A second recall finds nothing; an alert no catalog has is 404; only the admin may recall
            let again = try shown.client(port: port).request(
                "POST", "/v1/alerts/app/questionExit/recall", headers: [("Authorization", "Bearer \(TestCredentials.adminToken)")])
            #expect(try again.jsonObject()?["cancelled"] as? Int == 0)
            let unknown = try shown.client(port: port).request(
                "POST", "/v1/alerts/app/noSuchAlert/recall", headers: [("Authorization", "Bearer \(TestCredentials.adminToken)")])
            _ = try expectProblem(unknown, status: 404)
            let bySession = try shown.client(port: port).request(
                "POST", "/v1/alerts/app/questionExit/recall", headers: [("Authorization", "Bearer \(shown.token)")])
            _ = try expectProblem(bySession, status: 403)
        }
    }
}

extension SessionClient {
    /// A connection of its own, for a call while this one waits on a poll.
    func client(port: Int) throws -> RawHTTPClient { try RawHTTPClient(port: port, timeout: .seconds(5)) }
}
