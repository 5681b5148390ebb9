import AlertServer
import Foundation
import Testing
@testable import AlertdTestSupport
@testable import HTTPTestSupport

// An item's timeline (`GET …/queue/{ticket}`) and a session's past items (`GET …/history`),
// over real sockets.

@Suite("Live server: timelines and history")
struct LiveTimelineTests {
    @Test("an acknowledged item shows its alert, its dedupeKey as given and its timeline")
    func timelineOfAnAck() throws {
        try withLiveServer { port in
            // Given an invite alert queued with a key, delivered and redeemed with a code
            let app = try SessionClient.open(port: port, session: "tl")
            let queued = try app.enqueue(#"{"alert":"app/redeemInvite","dedupeKey":"invite-1"}"#)
            #expect(try app.delivered().ticket == queued.ticket)
            expectQueueAnswer(try app.app("POST", "/queue/\(queued.ticket)/ack", json: #"{"action":"redeem","input":"Q7"}"#), status: 200)
            // When the app reads the item
            let response = try app.app("GET", "/queue/\(queued.ticket)")
            // Then
            expectQueueAnswer(response, status: 200)
            let view = try #require(try response.jsonObject())
            #expect(view["alert"] as? String == "app/redeemInvite")
            #expect((view["params"] as? [String: Any])?.isEmpty == true)
            #expect(view["dedupeKey"] as? String == "invite-1")
            let timeline = try #require(view["timeline"] as? [[String: Any]])
            #expect(timeline.map { $0["type"] as? String } == ["enqueued", "delivered", "acknowledged"])
            let ids = timeline.compactMap { $0["id"] as? Int }
            #expect(ids.count == 3 && ids == ids.sorted())
            #expect((timeline[0]["detail"] as? [String: Any])?["by"] as? String == "admin")
            #expect((timeline[1]["detail"] as? [String: Any])?["delivery"] as? Int == 1)
            let ack = try #require(timeline[2]["detail"] as? [String: Any])
            #expect(ack["action"] as? String == "redeem")
            #expect(ack["role"] as? String == "primary")
            #expect(ack["input"] as? String == "Q7")
            #expect(ack["onScreen"] is NSNumber)
            #expect(timeline.allSatisfy { ($0["at"] as? String).flatMap(eventDate) != nil })
        }
    }

    @Test("an ad-hoc item shows its kind and title; a key the server made is not shown; a cancel says by whom")
    func adHocAndCancel() throws {
        try withLiveServer { port in
            let app = try SessionClient.open(port: port, session: "adhoc")
            let queued = try app.enqueue(#"{"spec":{"kind":"alert","title":"Saved","actions":[{"id":"ok","label":"OK"}]}}"#)
            let listed = try #require(try app.admin("GET", "/queue").jsonObject()?["items"] as? [[String: Any]])
            #expect(listed.first?["kind"] as? String == "alert")
            #expect(listed.first?["title"] as? String == "Saved")
            #expect(listed.first?["dedupeKey"] == nil)
            #expect(listed.first?["alert"] == nil)
            expectQueueAnswer(try app.admin("DELETE", "/queue/\(queued.ticket)"), status: 200)
            let view = try #require(try app.admin("GET", "/queue/\(queued.ticket)").jsonObject())
            let last = try #require((view["timeline"] as? [[String: Any]])?.last)
            #expect(last["type"] as? String == "cancelled")
            #expect((last["detail"] as? [String: Any])?["by"] as? String == "admin")
        }
    }

    @Test("history pages through finished items newest first with an opaque cursor")
    func historyPages() throws {
        try withLiveServer { port in
            let app = try SessionClient.open(port: port, session: "hist")
            var tickets: [String] = []
            for index in 0..<3 {
                let ticket = try app.enqueue(#"{"alert":"app/questionExit","dedupeKey":"k\#(index)"}"#).ticket
                expectQueueAnswer(try app.admin("DELETE", "/queue/\(ticket)"), status: 200)
                tickets.append(ticket)
            }
            _ = try app.enqueue(#"{"alert":"app/questionExit","dedupeKey":"live"}"#)
            let first = try app.app("GET", "/history?limit=2")
            expectQueueAnswer(first, status: 200)
            let page = try #require(try first.jsonObject())
            #expect((page["items"] as? [[String: Any]])?.map { $0["ticket"] as? String } == [tickets[2], tickets[1]])
            #expect((page["items"] as? [[String: Any]])?.allSatisfy { $0["timeline"] == nil } == true)
            let cursor = try #require(page["next"] as? String)
            let second = try #require(try app.admin("GET", "/history?limit=2&before=\(cursor)").jsonObject())
            #expect((second["items"] as? [[String: Any]])?.map { $0["ticket"] as? String } == [tickets[0]])
            #expect(second["next"] == nil)
            // The default page holds all three
            let whole = try #require(try app.app("GET", "/history").jsonObject())
            #expect((whole["items"] as? [Any])?.count == 3)
        }
    }

    @Test(
        "a bad limit or cursor is 400",
        arguments: ["limit=0", "limit=101", "limit=x", "before=", "before=%21%21", "before=aDEuLTE", "before=bm90IGEgY3Vyc29y"])
    func historyBadQuery(query: String) throws {
        try withLiveServer { port in
            let app = try SessionClient.open(port: port, session: "bad")
            let problem = try expectProblem(try app.app("GET", "/history?\(query)"), status: 400)
            #expect(problem.type == "urn:alertd:problem:bad-request")
        }
    }

    @Test("an unknown ticket is 404 unknown-ticket, also to the session")
    func unknownTicket() throws {
        try withLiveServer { port in
            let app = try SessionClient.open(port: port, session: "none")
            let problem = try expectProblem(try app.app("GET", "/queue/AAAAAAAAAAAAAAAAAAAAAA"), status: 404)
            #expect(problem.type == "urn:alertd:problem:unknown-ticket")
        }
    }
}

/// An event's time: RFC 3339 in UTC, to the millisecond.
private func eventDate(_ text: String) -> Date? {
    try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
}
