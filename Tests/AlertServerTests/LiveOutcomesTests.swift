import AlertQueue
import AlertServer
import Foundation
import Testing
@testable import AlertdTestSupport
@testable import HTTPTestSupport
import TestClocks

// `GET /v1/alerts/{catalog}/{type}/outcomes` and `alertd_alert_outcomes_total` over real sockets,
// time driven by a manual clock (its start, 1_800_000_000, is 2027-01-15 in UTC).

@Suite("Live server: outcomes per alert")
struct LiveOutcomesTests {
    static let today = "2027-01-15"

    @Test("Shown and answered, expired, cancelled: the day's outcomes and the counters say so")
    func outcomesOfADay() throws {
        let clock = ManualClock()
        try withLiveServer(clock: clock) { port in
            // Given questionExit answered "leave" after 4 s in one session, expired in another,
            // cancelled in a third
            let ana = try SessionClient.open(port: port, session: "ana")
            let shown = try ana.enqueue(#"{"alert":"app/questionExit"}"#).ticket
            #expect(try ana.delivered().ticket == shown)
            clock.advance(by: 4)
            expectQueueAnswer(try ana.ack(shown, action: "leave"), status: 200)
            let bo = try SessionClient.open(port: port, session: "bo")
            _ = try bo.enqueue(#"{"alert":"app/questionExit","ttl":5}"#)
            clock.advance(by: 6)
            #expect(try bo.next().status == 204)
            let cy = try SessionClient(port: port, session: "cy")
            _ = try cy.enqueue(#"{"alert":"app/questionExit"}"#)
            expectQueueAnswer(try cy.admin("DELETE", "/queue"), status: 200)

            // When the admin asks for the day
            let response = try admin(port, "/v1/alerts/app/questionExit/outcomes?from=\(Self.today)&to=\(Self.today)")

            // Then
            expectQueueAnswer(response, status: 200)
            let body = try #require(try response.jsonObject())
            #expect(body["alert"] as? String == "app/questionExit")
            #expect(body["from"] as? String == Self.today && body["to"] as? String == Self.today)
            let days = try #require(body["days"] as? [[String: Any]])
            try #require(days.count == 1)
            let day = days[0]
            #expect(day["day"] as? String == Self.today)
            for (outcome, count) in ["enqueued": 3, "delivered": 1, "acknowledged": 1, "dismissed": 0, "expired": 1, "cancelled": 1, "dead": 0] {
                #expect(day[outcome] as? Int == count, "\(outcome): \(day)")
            }
            let actions = try #require(day["actions"] as? [[String: Any]])
            #expect(actions.count == 1 && actions.first?["action"] as? String == "leave" && actions.first?["role"] as? String == "destructive")
            let p50 = try #require((day["answerSeconds"] as? [String: Any])?["p50"] as? Double)
            #expect(abs(p50 - 4) < 0.4, "p50 \(p50)")
            #expect((body["total"] as? [String: Any])?["enqueued"] as? Int == 3)

            // And /metrics counts the same
            let metrics = try RawHTTPClient(port: port).request("GET", "/metrics").text
            for (outcome, count) in ["enqueued": 3, "delivered": 1, "acknowledged": 1, "expired": 1, "cancelled": 1] {
                let series = #"alertd_alert_outcomes_total{alert="app/questionExit",outcome="\#(outcome)"} \#(count)"#
                #expect(metrics.contains(series), "\(series) in \(metrics)")
            }
        }
    }

    @Test("Without from and to, the 30 days to today; an alert with no outcome yet has zeros")
    func defaultRange() throws {
        try withLiveServer(clock: ManualClock()) { port in
            let response = try admin(port, "/v1/alerts/app/logoutConfirm/outcomes")
            expectQueueAnswer(response, status: 200)
            let body = try #require(try response.jsonObject())
            let days = try #require(body["days"] as? [[String: Any]])
            #expect(days.count == 30)
            #expect(body["from"] as? String == "2026-12-17" && body["to"] as? String == Self.today)
            #expect(days.last?["day"] as? String == Self.today)
            #expect(days.allSatisfy { $0["enqueued"] as? Int == 0 && $0["answerSeconds"] == nil })
        }
    }

    @Test("A span past 400 days is cut to its last 400; from after to lists no day")
    func spans() throws {
        try withLiveServer(clock: ManualClock()) { port in
            let long = try #require(try admin(port, "/v1/alerts/app/questionExit/outcomes?from=2000-01-01").jsonObject())
            #expect(long["from"] as? String == "2025-12-12" && (long["days"] as? [Any])?.count == 400)
            let backwards = try #require(try admin(port, "/v1/alerts/app/questionExit/outcomes?from=2027-01-16&to=2027-01-15").jsonObject())
            #expect((backwards["days"] as? [Any])?.isEmpty == true)
            #expect((backwards["total"] as? [String: Any])?["enqueued"] as? Int == 0)
        }
    }

    @Test("Admin only; a day that is not one, an unknown alert are problems")
    func refusals() throws {
        try withLiveServer(clock: ManualClock()) { port in
            let path = "/v1/alerts/app/questionExit/outcomes"
            #expect(try expectProblem(RawHTTPClient(port: port).request("GET", path), status: 401).status == 401)
            let app = try SessionClient.open(port: port, session: "ana")
            let asApp = try RawHTTPClient(port: port).request("GET", path, headers: [("Authorization", "Bearer \(app.token)")])
            _ = try expectProblem(asApp, status: 403)
            for query in ["from=2027-13-01", "to=yesterday", "from=2027-1-16", "to=2027-02-29"] {
                let problem = try expectProblem(try admin(port, "\(path)?\(query)"), status: 400)
                #expect(!problem.detail.isEmpty, "\(query)")
            }
            _ = try expectProblem(try admin(port, "/v1/alerts/app/noSuchAlert/outcomes"), status: 404)
            _ = try expectProblem(try admin(port, "/v1/alerts/nocatalog/questionExit/outcomes"), status: 404)
        }
    }

    private func admin(_ port: Int, _ path: String) throws -> RawHTTPResponse {
        try RawHTTPClient(port: port).request("GET", path, headers: [("Authorization", "Bearer \(TestCredentials.adminToken)")])
    }
}
