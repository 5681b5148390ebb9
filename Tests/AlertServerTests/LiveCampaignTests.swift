import AlertQueue
import AlertServer
import Foundation
import TestExecutors
import Testing
@testable import AlertdTestSupport
@testable import HTTPTestSupport

// Campaigns over real sockets: made with `POST /v1/campaigns` (202), fanned out in the
// background to a topic's sessions, their progress and outcomes read back, and recalled.

// The tests block their threads on sockets: on threads of their own (`.ownThread`), and the
// runner on another, so that neither waits for Swift's shared pool, which a loaded run fills
// with blocked tests.
@Suite("Live server: campaigns", .ownThread)
struct LiveCampaignTests {
    static func admin(_ port: Int, _ method: String, _ path: String, json: String? = nil) throws -> RawHTTPResponse {
        var headers = [("Authorization", "Bearer \(TestCredentials.adminToken)")]
        if json != nil { headers.append(("Content-Type", "application/json")) }
        return try RawHTTPClient(port: port).request(method, path, headers: headers, body: json.map { Array($0.utf8) })
    }

    @Test("a campaign to a topic reaches its sessions (a waiting poll at once), reports progress, and a recall withdraws it")
    func campaignToTopic() throws {
        // Connections kept open across the campaign's steps: not closed as idle under a loaded run.
        try withLiveService(connectionTimeout: 120) { port, service in
            let runner = Task(executorPreference: OwnThread()) { await service.campaigns?.run() }
            defer { runner.cancel() }
            // Given three beta sessions, one polling, and one session outside the topic
            var apps: [SessionClient] = []
            for session in ["beta-1", "beta-2", "beta-3", "other"] {
                let app = try SessionClient(port: port, session: session, timeout: .seconds(25))
                let topics = session == "other" ? "[]" : #"["beta"]"#
                app.token = try app.admin("POST", "/token", json: #"{"topics":\#(topics)}"#).decode(IssuedTokenBody.self).token
                apps.append(app)
            }
            try apps[0].client.send(
                RawHTTPClient.requestBytes("GET", "/v1/sessions/beta-1/next?wait=20", headers: [("Authorization", "Bearer \(apps[0].token)")]))
            #expect(eventually { service.queue.polls.count == 1 }, "the poll never waited")
            // When
            let made = try Self.admin(
                port, "POST", "/v1/campaigns", json: #"{"id":"spring","alert":"app/questionExit","audience":{"topic":"beta"},"ttl":3600}"#)
            // Then: 202 at once, the waiting poll delivered the copy
            expectQueueAnswer(made, status: 202)
            #expect(made.header("Location") == "/v1/campaigns/spring")
            #expect(try made.jsonObject()?["state"] as? String == "running")
            let delivered = try apps[0].client.readResponse()
            #expect(delivered.status == 200, "\(delivered.text)")
            let shown = try delivered.decode(DeliveryBody.self)
            #expect(eventually(within: .seconds(30)) { (try? Self.admin(port, "GET", "/v1/campaigns/spring").jsonObject()?["state"] as? String) == "done" })
            #expect(try apps[3].list().items.isEmpty)
            // beta-2 answers
            let second = try apps[1].delivered()
            expectQueueAnswer(try apps[1].ack(second.ticket, action: "leave"), status: 200)
            let status = try #require(try Self.admin(port, "GET", "/v1/campaigns/spring").jsonObject())
            #expect(status["targeted"] as? Int == 3 && status["queued"] as? Int == 3)
            let progress = try #require(status["progress"] as? [String: Any])
            #expect(progress["delivered"] as? Int == 2 && progress["presenting"] as? Int == 1 && progress["queued"] as? Int == 1)
            #expect(progress["answered"] as? Int == 1 && (progress["actions"] as? [String: Int]) == ["leave": 1])
            #expect(try Self.admin(port, "GET", "/v1/campaigns").jsonObject()?["campaigns"] as? [[String: Any]] != nil)
            // When it is recalled
            let recalled = try Self.admin(port, "POST", "/v1/campaigns/spring/recall")
            expectQueueAnswer(recalled, status: 200)
            #expect(try recalled.jsonObject()?["withdrawn"] as? Int == 1 && recalled.jsonObject()?["cancelled"] as? Int == 1)
            // Then beta-1 is told to take it off the screen; the campaign says recalled
            #expect(try apps[0].next().decode([String: String].self) == ["withdraw": shown.ticket])
            let after = try #require(try Self.admin(port, "GET", "/v1/campaigns/spring").jsonObject())
            #expect(after["state"] as? String == "recalled")
            #expect((after["progress"] as? [String: Any])?["withdrawn"] as? Int == 1)
        }
    }

    @Test("bad campaigns are refused with every problem; a taken id is 409; an unknown one 404; only the admin may call")
    func badCampaigns() throws {
        try withLiveServer { port in
            let bad = try Self.admin(port, "POST", "/v1/campaigns", json: #"{"alert":"app/questionExit","audience":{"topic":"x","users":["a"]}}"#)
            #expect(try expectInvalidRequest(bad).map(\.pointer) == ["/audience"])
            let missing = try Self.admin(port, "POST", "/v1/campaigns", json: #"{"alert":"app/questionExit"}"#)
            #expect(try expectInvalidRequest(missing).map(\.code) == ["missing-field"])
            let wrong = try Self.admin(
                port, "POST", "/v1/campaigns", json: #"{"alert":"app/nope","audience":{"seenWithin":"soon"},"priority":2000}"#)
            #expect(Set(try expectInvalidRequest(wrong).map(\.pointer)) == ["/alert", "/audience/seenWithin", "/priority"])
            let first = try Self.admin(port, "POST", "/v1/campaigns", json: #"{"id":"c1","alert":"app/questionExit","audience":{"sessions":["a"]}}"#)
            expectQueueAnswer(first, status: 202)
            let twice = try Self.admin(port, "POST", "/v1/campaigns", json: #"{"id":"c1","alert":"app/questionExit","audience":{"sessions":["a"]}}"#)
            #expect(try expectProblem(twice, status: 409).type == "urn:alertd:problem:campaign-exists")
            _ = try expectProblem(try Self.admin(port, "GET", "/v1/campaigns/none"), status: 404)
            _ = try expectProblem(try Self.admin(port, "POST", "/v1/campaigns/none/recall"), status: 404)
            _ = try expectProblem(try Self.admin(port, "GET", "/v1/campaigns?limit=0"), status: 400)
            let app = try SessionClient.open(port: port, session: "a")
            let asSession = try app.client.request("GET", "/v1/campaigns", headers: [("Authorization", "Bearer \(app.token)")])
            _ = try expectProblem(asSession, status: 403)
        }
    }
}
