import AlertServer
import Foundation
import Testing
@testable import AlertdTestSupport
@testable import HTTPTestSupport

// The event feed (`GET /v1/events`): every session's events in commit order, for the backend,
// over real sockets.

@Suite("Live server: the event feed")
struct LiveEventFeedTests {
    @Test("the backend reads the ack with its action, role and input, after the enqueue and the delivery")
    func feedShowsTheAck() throws {
        try withLiveServer { port in
            // Given an invite queued, delivered and redeemed with a code
            let app = try SessionClient.open(port: port, session: "feed")
            let queued = try app.enqueue(#"{"alert":"app/redeemInvite","dedupeKey":"invite-1"}"#)
            #expect(try app.delivered().ticket == queued.ticket)
            expectQueueAnswer(try app.app("POST", "/queue/\(queued.ticket)/ack", json: #"{"action":"redeem","input":"Q7"}"#), status: 200)

            // When the backend reads the feed from the start
            let response = try feed(port: port, "")

            // Then it has the three events of the item, in order, with the ack's detail
            expectQueueAnswer(response, status: 200)
            let page = try #require(try response.jsonObject())
            let events = try #require(page["events"] as? [[String: Any]])
            #expect(events.map { $0["type"] as? String } == ["enqueued", "delivered", "acknowledged"])
            #expect(events.allSatisfy { $0["session"] as? String == "feed" && $0["ticket"] as? String == queued.ticket })
            #expect(events.allSatisfy { $0["alert"] as? String == "app/redeemInvite" })
            let ids = events.compactMap { $0["id"] as? Int }
            #expect(ids.count == 3 && ids == ids.sorted())
            #expect(events.compactMap { $0["cursor"] as? String } == ids.map(String.init))
            #expect(page["next"] as? String == events.last?["cursor"] as? String)
            let ack = try #require(events[2]["detail"] as? [String: Any])
            #expect(ack["action"] as? String == "redeem")
            #expect(ack["role"] as? String == "primary")
            #expect(ack["input"] as? String == "Q7")
            #expect(ack["onScreen"] is NSNumber)

            // And the timeline shows each event the same way
            let timeline = try #require(try app.admin("GET", "/queue/\(queued.ticket)").jsonObject()?["timeline"] as? [[String: Any]])
            for (shown, fed) in zip(timeline, events) {
                for key in ["id", "type", "at"] { #expect("\(shown[key] ?? "")" == "\(fed[key] ?? "")") }
                #expect(NSDictionary(dictionary: shown["detail"] as? [String: Any] ?? [:]).isEqual(to: fed["detail"] as? [String: Any] ?? [:]))
            }
        }
    }

    @Test("pages follow next: limit events at a time, then an empty page whose next is the cursor asked from")
    func paging() throws {
        try withLiveServer { port in
            let app = try SessionClient.open(port: port, session: "pages")
            let first = try app.enqueue(#"{"alert":"app/questionExit","dedupeKey":"a"}"#)
            let second = try app.enqueue(#"{"alert":"app/questionExit","dedupeKey":"b"}"#)
            expectQueueAnswer(try app.admin("DELETE", "/queue/\(first.ticket)"), status: 200)

            let one = try #require(try feed(port: port, "limit=2").jsonObject())
            let oneEvents = try #require(one["events"] as? [[String: Any]])
            #expect(oneEvents.map { $0["ticket"] as? String } == [first.ticket, second.ticket])
            let cursor = try #require(one["next"] as? String)

            let two = try #require(try feed(port: port, "limit=2&after=\(cursor)").jsonObject())
            let twoEvents = try #require(two["events"] as? [[String: Any]])
            #expect(twoEvents.map { $0["type"] as? String } == ["cancelled"])
            let last = try #require(two["next"] as? String)

            let empty = try feed(port: port, "after=\(last)")
            expectQueueAnswer(empty, status: 200)
            let emptyPage = try #require(try empty.jsonObject())
            #expect((emptyPage["events"] as? [Any])?.isEmpty == true)
            #expect(emptyPage["next"] as? String == last)
        }
    }

    @Test("an ad-hoc spec's events say alert null")
    func adHocAlertIsNull() throws {
        try withLiveServer { port in
            let app = try SessionClient.open(port: port, session: "adhoc-feed")
            _ = try app.enqueue(#"{"spec":\#(adHocAlert)}"#)
            let events = try #require(try feed(port: port, "").jsonObject()?["events"] as? [[String: Any]])
            #expect(events.count == 1)
            #expect(events.first?.keys.contains("alert") == true)
            #expect(events.first?["alert"] is NSNull)
        }
    }

    @Test("a reader waiting after the last event is answered by the next enqueue")
    func waitingReaderWokenByEnqueue() throws {
        try withLiveService { port, service in
            // Given a backend waiting on the feed after everything so far
            let app = try SessionClient.open(port: port, session: "woken")
            _ = try app.enqueue(#"{"alert":"app/questionExit"}"#)
            let cursor = try #require(try feed(port: port, "").jsonObject()?["next"] as? String)
            let reader = try RawHTTPClient(port: port, timeout: .seconds(20))
            try reader.send(RawHTTPClient.requestBytes("GET", "/v1/events?after=\(cursor)&wait=15", headers: adminHeaders))
            #expect(eventually { service.queue.polls.feed.count == 1 }, "the reader never waited")

            // When another session is enqueued to
            let other = try SessionClient(port: port, session: "other")
            let enqueued = try other.enqueue(#"{"alert":"app/logoutConfirm"}"#)

            // Then the reader answers with its event
            let response = try reader.readResponse()
            expectQueueAnswer(response, status: 200)
            let events = try #require(try response.jsonObject()?["events"] as? [[String: Any]])
            #expect(events.map { $0["ticket"] as? String } == [enqueued.ticket])
            #expect(events.first?["session"] as? String == "other")
            #expect(service.queue.polls.feed.count == 0)
        }
    }

    @Test("a wait that ends with nothing answers 200, no events, next the cursor asked from")
    func waitEndsEmpty() throws {
        try withLiveServer { port in
            let response = try feed(port: port, "after=7&wait=1")
            expectQueueAnswer(response, status: 200)
            let page = try #require(try response.jsonObject())
            #expect((page["events"] as? [Any])?.isEmpty == true)
            #expect(page["next"] as? String == "7")
        }
    }

    @Test("at shutdown a waiting reader answers its empty page")
    func shutdownAnswersReaders() throws {
        try withLiveService { port, service in
            let reader = try RawHTTPClient(port: port, timeout: .seconds(20))
            try reader.send(RawHTTPClient.requestBytes("GET", "/v1/events?wait=30", headers: adminHeaders))
            #expect(eventually { service.queue.polls.feed.count == 1 }, "the reader never waited")
            service.queue.polls.close()
            let response = try reader.readResponse()
            expectQueueAnswer(response, status: 200)
            #expect(try response.jsonObject()?["next"] as? String == "0")
        }
    }

    @Test("no token is 401, a session token 403")
    func adminOnly() throws {
        try withLiveServer { port in
            let app = try SessionClient.open(port: port, session: "auth-feed")
            _ = try expectProblem(try RawHTTPClient(port: port).request("GET", "/v1/events"), status: 401)
            let forbidden = try RawHTTPClient(port: port).request("GET", "/v1/events", headers: [("Authorization", "Bearer \(app.token)")])
            _ = try expectProblem(forbidden, status: 403)
        }
    }

    @Test(
        "a bad cursor is 400 invalid-cursor; a bad limit or wait 400 bad-request",
        arguments: [
            ("after=", "invalid-cursor"), ("after=x", "invalid-cursor"), ("after=-1", "invalid-cursor"),
            ("after=0.5", "invalid-cursor"), ("after=1.2.3", "invalid-cursor"), ("after=99999999999999999999", "invalid-cursor"),
            ("limit=0", "bad-request"), ("limit=1001", "bad-request"), ("limit=x", "bad-request"),
            ("wait=31", "bad-request"), ("wait=-1", "bad-request"), ("wait=1.5", "bad-request"),
        ])
    func badQuery(query: String, code: String) throws {
        try withLiveServer { port in
            let response = try feed(port: port, query)
            let problem = try expectProblem(response, status: 400)
            #expect(problem.type == "urn:alertd:problem:\(code)")
            #expect(response.header("Cache-Control") == "no-store")
        }
    }
}

private let adminHeaders = [("Authorization", "Bearer \(TestCredentials.adminToken)")]

/// `GET /v1/events?<query>` with the admin token, on a connection of its own.
private func feed(port: Int, _ query: String) throws -> RawHTTPResponse {
    try RawHTTPClient(port: port).request("GET", "/v1/events" + (query.isEmpty ? "" : "?" + query), headers: adminHeaders)
}
