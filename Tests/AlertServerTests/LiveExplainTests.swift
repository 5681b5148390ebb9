import AlertQueue
import AlertServer
import Foundation
import Testing
@testable import AlertdTestSupport
@testable import HTTPTestSupport
import TestClocks

// `GET /v1/sessions/{session}/explain` over real sockets, time driven by a manual clock.

@Suite("Live server: explain")
struct LiveExplainTests {
    @Test("Three alerts, one expired, the session held: explain gives each its reason")
    func doneWhen() throws {
        let clock = ManualClock()
        try withLiveServer(clock: clock) { port in
            // Given three alerts, one with a TTL of 5 s (dropped when capped: its alert's deferred
            // 60 s gap could not be waited out in 5 s)
            let s = try SessionClient.open(port: port, session: "ana")
            let exit = try s.enqueue(#"{"alert":"app/questionExit"}"#)  // 700
            let messages = try s.enqueue(
                #"{"alert":"app/newMessages","params":{"count":1,"sender":"Bo"},"ttl":5,"pacing":{"whenCapped":"drop"}}"#)  // 400
            let push = try s.enqueue(#"{"alert":"app/pushPermission"}"#)  // 300
            // Before anything happens, the highest priority wins and the others wait behind it
            let before = try explain(s)
            #expect(before.code == "next" && before.next?.ticket == exit.ticket && before.next?.win == "priority")
            #expect(before.items.map(\.code) == ["next", "behind", "behind"])
            #expect(before.items[2].blocker?.ticket == messages.ticket)

            // When one expires and the app holds the session
            clock.advance(by: 6)
            expectQueueAnswer(try s.app("PUT", "/hold", json: #"{"seconds":60}"#), status: 200)
            let answer = try s.admin("GET", "/explain")

            // Then the session is held, nothing is delivered, and each item says why
            expectQueueAnswer(answer, status: 200)
            let why = try answer.decode(ExplainBody.self)
            #expect(why.session == "ana" && why.code == "held" && why.next == nil)
            #expect(why.held?.until != nil)
            #expect(why.items.map(\.ticket) == [exit.ticket, push.ticket])
            #expect(why.items.map(\.code) == ["held", "held"])
            #expect(why.items.allSatisfy { $0.until == why.held?.until && $0.reason.contains("held") })
            #expect(why.recent.map(\.ticket) == [messages.ticket])
            #expect(why.recent.map(\.code) == ["expired"])
            #expect(why.recent.first?.alert == "app/newMessages")
            // It ended when its TTL passed, though no step has written its expiry yet
            #expect(why.recent.first?.endedAt != nil && why.recent.first?.endedAt == why.recent.first?.until)
            let object = try answer.jsonObject()
            let recent = (object?["recent"] as? [[String: Any]])?.first
            #expect((recent?["params"] as? [String: Any])?["sender"] as? String == "Bo")
            #expect(object?["next"] is NSNull, "next is null, not left out")

            // And each ticket on its own says the same
            for (ticket, code) in [(exit.ticket, "held"), (messages.ticket, "expired"), (push.ticket, "held")] {
                let one = try s.admin("GET", "/explain?ticket=\(ticket)")
                expectQueueAnswer(one, status: 200)
                #expect(try one.decode(TicketExplainBody.self).item.code == code)
            }

            // And explaining changed nothing: once the hold ends, the winner is delivered
            expectQueueAnswer(try s.app("DELETE", "/hold"), status: 200)
            #expect(try s.delivered().ticket == exit.ticket)
            let after = try explain(s)
            #expect(after.items.map(\.code) == ["presenting", "lane-busy"])
            #expect(after.items[1].blocker?.ticket == exit.ticket)

            // And once the user picks "cancel", its timeline says how it ended
            expectQueueAnswer(try s.ack(exit.ticket, action: "cancel"), status: 200)
            let ended = try explain(s)
            let done = try #require(ended.recent.first { $0.ticket == exit.ticket })
            #expect(done.code == "done" && done.action == "cancel" && done.endedAt != nil)
            #expect(done.reason.hasPrefix("Done by action \"cancel\" (cancel) at "), "\(done.reason)")
        }
    }

    @Test("Explain is for the admin; a bad session is 400, an unknown ticket 404")
    func refusals() throws {
        try withLiveServer { port in
            let s = try SessionClient.open(port: port, session: "bo")
            #expect(try s.app("GET", "/explain").status == 403)
            #expect(try s.call("GET", "/explain", bearer: nil).status == 401)
            _ = try expectProblem(try s.admin("GET", "/explain?ticket=AAAAAAAAAAAAAAAAAAAAAA"), status: 404)
            let bad = try s.client.request(
                "GET", "/v1/sessions/b%20o/explain", headers: [("Authorization", "Bearer \(TestCredentials.adminToken)")])
            #expect(bad.status == 400)
            // An empty session explains itself as empty
            let empty = try explain(s)
            #expect(empty.code == "queue-empty" && empty.items.isEmpty && empty.recent.isEmpty && empty.held == nil)
        }
    }

    private func explain(_ s: SessionClient, sourceLocation: SourceLocation = #_sourceLocation) throws -> ExplainBody {
        let answer = try s.admin("GET", "/explain")
        expectQueueAnswer(answer, status: 200, sourceLocation: sourceLocation)
        return try answer.decode(ExplainBody.self)
    }
}

struct ExplainBody: Decodable {
    struct Held: Decodable { var until: String }
    var session: String
    var now: String
    var code: String
    var reason: String
    var held: Held?
    var next: ExplainedItem?
    var items: [ExplainedItem]
    var recent: [ExplainedItem]
}

struct TicketExplainBody: Decodable {
    var session: String
    var item: ExplainedItem
}

struct ExplainedItem: Decodable {
    struct Other: Decodable { var ticket: String }
    var ticket: String
    var state: String
    var alert: String?
    var code: String
    var reason: String
    var blocker: Other?
    var until: String?
    var win: String?
    var action: String?
    var endedAt: String?
}
