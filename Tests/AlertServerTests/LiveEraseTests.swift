import AlertServer
import Foundation
import Logging
import Testing
@testable import AlertdTestSupport
@testable import HTTPTestSupport

// `DELETE /v1/sessions/{session}`: the admin erases a session, over real sockets. Who may call
// it is pinned with the other admin calls in `LiveAuthTests`.

@Suite("Live server: erasing a session")
struct LiveEraseTests {
    @Test("an erased session shows nothing of its items, their inputs or its hold; another session keeps its own")
    func eraseLeavesNothing() throws {
        let logs = LogCollector()
        try withLiveService(logger: logs.logger(.json, level: .trace)) { port, _ in
            // Given a session with a done item whose ack carried input, a queued one and a hold,
            // and another session with an item of its own
            let app = try SessionClient.open(port: port, session: "gone")
            let done = try app.enqueue(#"{"alert":"app/redeemInvite"}"#).ticket
            #expect(try app.delivered().ticket == done)
            expectQueueAnswer(try app.app("POST", "/queue/\(done)/ack", json: #"{"action":"redeem","input":"erase-me-91c2"}"#), status: 200)
            let queued = try app.enqueue(#"{"alert":"app/questionExit"}"#).ticket
            expectQueueAnswer(try app.app("PUT", "/hold", json: #"{"seconds":60}"#), status: 200)
            let other = try SessionClient(port: port, session: "kept")
            let kept = try other.enqueue(#"{"alert":"app/questionExit"}"#).ticket

            // When the admin erases the session
            let response = try app.admin("DELETE", "")

            // Then it says what went, and no read of the session finds any of it
            expectQueueAnswer(response, status: 200)
            let body = try #require(try response.jsonObject())
            #expect(body["session"] as? String == "gone")
            let erased = try #require(body["erased"] as? [String: Any])
            #expect(erased["items"] as? Int == 2)
            #expect(erased["events"] as? Int == 4)  // enqueued, delivered, acknowledged; enqueued
            #expect(try app.list().items.isEmpty)
            for ticket in [done, queued] {
                let item = try app.admin("GET", "/queue/\(ticket)")
                #expect(item.status == 404)
                #expect(try expectProblem(item, status: 404).type == "urn:alertd:problem:unknown-ticket")
            }
            let reads = try ["/queue", "/history", "/explain"].map { try app.admin("GET", $0) }
            for read in reads {
                expectQueueAnswer(read, status: 200)
                #expect(!read.text.contains("erase-me") && !read.text.contains(done) && !read.text.contains(queued), "\(read.text)")
            }
            let history = try #require(try reads[1].jsonObject()?["items"] as? [Any])
            #expect(history.isEmpty)
            let explained = try #require(try reads[2].jsonObject())
            #expect(explained["held"] is NSNull && explained["code"] as? String == "queue-empty")
            #expect((explained["recent"] as? [Any])?.isEmpty == true)
            #expect(try other.list().items.map(\.ticket) == [kept])
            // And the input was never in the log
            #expect(logs.line(containing: "DELETE") != nil, "lines: \(logs.all)")
            #expect(!logs.all.contains { $0.contains("erase-me") }, "lines: \(logs.all)")
        }
    }

    @Test("erasing again, or a session never seen, answers 200 with zeros; the session can be used again")
    func eraseIsIdempotent() throws {
        try withLiveServer { port in
            let app = try SessionClient.open(port: port, session: "twice")
            _ = try app.enqueue(#"{"alert":"app/questionExit"}"#)
            expectQueueAnswer(try app.admin("DELETE", ""), status: 200)
            for session in ["twice", "never-seen"] {
                let again = try SessionClient(port: port, session: session).admin("DELETE", "")
                expectQueueAnswer(again, status: 200)
                let erased = try #require(try again.jsonObject()?["erased"] as? [String: Any])
                #expect(erased["items"] as? Int == 0 && erased["events"] as? Int == 0)
            }
            // The session token still opens it, from empty
            let ticket = try app.enqueue(#"{"alert":"app/questionExit"}"#).ticket
            #expect(try app.delivered().ticket == ticket)
        }
    }

    @Test("a long-poll waiting on the session answers 204 as soon as the session is erased")
    func eraseAnswersWaitingPoll() throws {
        try withLiveService { port, service in
            // Given an app waiting up to 20 s, with nothing deliverable (the session is held)
            let app = try SessionClient.open(port: port, session: "polled", timeout: .seconds(25))
            _ = try app.enqueue(#"{"alert":"app/questionExit"}"#)
            expectQueueAnswer(try app.app("PUT", "/hold", json: #"{"seconds":60}"#), status: 200)
            try app.client.send(
                RawHTTPClient.requestBytes("GET", "/v1/sessions/polled/next?wait=20", headers: [("Authorization", "Bearer \(app.token)")]))
            #expect(eventually { service.queue.polls.count == 1 }, "the poll never waited")
            // When the admin erases the session
            let erased = ContinuousClock.now
            expectQueueAnswer(try SessionClient(port: port, session: "polled").admin("DELETE", ""), status: 200)
            // Then the poll answers 204 long before its deadline
            let response = try app.client.readResponse()
            #expect(response.status == 204)
            #expect(ContinuousClock.now - erased < .seconds(10))
            #expect(service.queue.polls.count == 0)
        }
    }
}
