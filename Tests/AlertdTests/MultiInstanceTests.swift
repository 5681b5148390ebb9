import Foundation
import PostgresTestSupport
import TestExecutors
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// Several alertd processes on one PostgreSQL database, as behind a load balancer with nothing
// sticky: every guarantee of the queue holds across them, and a long-poll waiting on one is
// woken by a write on another.

@Suite("alertd executables on one PostgreSQL database", .serialized, .ownThread)
struct MultiInstanceTests {
    /// A fresh database on the test process's shared cluster.
    private func database() async throws -> String {
        try await PostgresCluster.shared().createDatabase()
    }

    /// What one racing request answered.
    struct Answer: Sendable {
        var status: Int
        var body: String
        var ticket: String?
    }

    @Test("a long-poll waiting on one instance is answered by an enqueue on the other, long before its deadline")
    func wakeAcrossInstances() async throws {
        let instances = try AlertdInstances(store: try await database())
        defer { instances.stop() }

        for (waiting, writing) in [(0, 1), (1, 0)] {
            // Given an app waiting up to 30 s on one instance, with nothing queued
            let session = "wake-\(waiting)"
            let app = try SessionClient.open(
                port: instances.ports[waiting], session: session, adminToken: instances.adminToken, timeout: .seconds(35))
            try app.client.send(
                RawHTTPClient.requestBytes("GET", "/v1/sessions/\(session)/next?wait=30", headers: [("Authorization", "Bearer \(app.token)")]))
            // and seen parked by its instance (so the wake-up crosses instances, not a race)
            #expect(eventually(within: .seconds(10)) { waitingPolls(port: instances.ports[waiting]) == 1 })

            // When the backend enqueues an alert for that session on the other instance
            let backend = try SessionClient(port: instances.ports[writing], session: session, adminToken: instances.adminToken)
            let enqueued = try backend.enqueue(#"{"alert":"app/questionExit"}"#)
            let sent = ContinuousClock.now

            // Then the waiting poll answers with it, far from its 30 s deadline
            let response = try app.client.readResponse()
            expectQueueAnswer(response, status: 200)
            #expect(try response.decode(DeliveryBody.self).ticket == enqueued.ticket)
            #expect(ContinuousClock.now - sent < .seconds(15), "answered \(ContinuousClock.now - sent) after the enqueue")
        }
    }

    @Test("a recall on one instance withdraws the alert presenting through a poll waiting on the other")
    func recallWithdrawsAcrossInstances() async throws {
        let instances = try AlertdInstances(store: try await database())
        defer { instances.stop() }

        // Given an app on instance 0 showing the alert, and polling again up to 30 s
        let app = try SessionClient.open(
            port: instances.ports[0], session: "recall-across", adminToken: instances.adminToken, timeout: .seconds(35))
        let shown = try app.enqueue(#"{"alert":"app/questionExit"}"#).ticket
        #expect(try app.delivered().ticket == shown)
        try app.client.send(
            RawHTTPClient.requestBytes("GET", "/v1/sessions/recall-across/next?wait=30", headers: [("Authorization", "Bearer \(app.token)")]))
        #expect(eventually(within: .seconds(10)) { waitingPolls(port: instances.ports[0]) == 1 })

        // When the backend recalls the alert on instance 1
        let recall = try RawHTTPClient(port: instances.ports[1]).request(
            "POST", "/v1/alerts/app/questionExit/recall", headers: [("Authorization", "Bearer \(instances.adminToken)")])
        let sent = ContinuousClock.now
        expectQueueAnswer(recall, status: 200)
        #expect(try recall.jsonObject()?["withdrawn"] as? Int == 1)

        // Then the waiting poll answers with the withdraw, far from its deadline
        let response = try app.client.readResponse()
        expectQueueAnswer(response, status: 200)
        #expect(try response.jsonObject()?["withdraw"] as? String == shown)
        #expect(ContinuousClock.now - sent < .seconds(15), "answered \(ContinuousClock.now - sent) after the recall")
    }

    @Test("a campaign's fan-out survives the instance running it being killed: the other finishes it, each session once")
    func campaignSurvivesKill() async throws {
        let instances = try AlertdInstances(store: try await database())
        defer { instances.stop() }
        let admin = [("Authorization", "Bearer \(instances.adminToken)"), ("Content-Type", "application/json")]
        let sessions = (0..<6_000).map { "fan-\($0)" }
        let body = try JSONSerialization.data(withJSONObject: ["id": "crash", "alert": "app/questionExit", "audience": ["sessions": sessions]])

        // When instance 0 makes the campaign and is killed at once, in the middle of its fan-out
        let made = try RawHTTPClient(port: instances.ports[0]).request("POST", "/v1/campaigns", headers: admin, body: Array(body))
        instances.kill(0)
        expectQueueAnswer(made, status: 202)

        // Then instance 1 finishes it: every session reached once
        var shown: [String: Any] = [:]
        #expect(eventually(within: .seconds(60)) {
            let status = try? RawHTTPClient(port: instances.ports[1]).request("GET", "/v1/campaigns/crash", headers: admin)
            shown = (try? status?.jsonObject()) ?? [:]
            return shown["state"] as? String == "done"
        }, "\(shown)")
        #expect(shown["targeted"] as? Int == sessions.count && shown["queued"] as? Int == sessions.count, "\(shown)")
        for session in sessions.shuffled().prefix(200) {
            let listed = try SessionClient(port: instances.ports[1], session: session, adminToken: instances.adminToken).list()
            #expect(listed.items.count == 1, "\(session): \(listed.items.count) copies")
        }
    }

    @Test("a feed reader waiting on one instance is answered by an enqueue on the other")
    func feedWakeAcrossInstances() async throws {
        let instances = try AlertdInstances(store: try await database())
        defer { instances.stop() }
        let admin = [("Authorization", "Bearer \(instances.adminToken)")]

        // Given a backend waiting up to 30 s on instance 0's feed, after everything so far
        let first = try RawHTTPClient(port: instances.ports[0]).request("GET", "/v1/events", headers: admin)
        let cursor = try #require(try first.jsonObject()?["next"] as? String)
        let reader = try RawHTTPClient(port: instances.ports[0], timeout: .seconds(35))
        try reader.send(RawHTTPClient.requestBytes("GET", "/v1/events?after=\(cursor)&wait=30", headers: admin))
        #expect(eventually(within: .seconds(10)) { waitingReaders(port: instances.ports[0]) == 1 })

        // When an alert is enqueued on instance 1
        let backend = try SessionClient(port: instances.ports[1], session: "feed-across", adminToken: instances.adminToken)
        let enqueued = try backend.enqueue(#"{"alert":"app/questionExit"}"#)

        // Then the reader answers with its event (at its deadline it would have none)
        let response = try reader.readResponse()
        expectQueueAnswer(response, status: 200)
        let events = try #require(try response.jsonObject()?["events"] as? [[String: Any]])
        #expect(events.map { $0["ticket"] as? String } == [enqueued.ticket])
        #expect(events.first?["type"] as? String == "enqueued")
    }

    @Test("20 racing next calls over both instances hand out exactly one modal")
    func racingNextHandsOutOneModal() async throws {
        let instances = try AlertdInstances(store: try await database())
        defer { instances.stop() }

        // Given a session with three modal alerts queued
        let owner = try SessionClient.open(port: instances.ports[0], session: "racer", adminToken: instances.adminToken)
        let queued = [
            try owner.enqueue(#"{"alert":"app/questionExit","priority":10}"#),
            try owner.enqueue(#"{"alert":"app/shareSheet","priority":5}"#),
            try owner.enqueue(#"{"alert":"app/questionExit","dedupeKey":"again"}"#),
        ].map(\.ticket)
        let first = try #require(try owner.list().items.first?.ticket)  // in delivery order
        let token = owner.token
        let ports = instances.ports
        let admin = instances.adminToken

        // When 20 connections, half to each instance, ask for the next alert at the same moment
        let answers = race(20) { index in
            let client = try SessionClient(port: ports[index % 2], session: "racer", adminToken: admin)
            client.token = token
            return client
        } _: { _, client in
            let response = try client.next()
            return Answer(
                status: response.status, body: response.text,
                ticket: response.status == 200 ? try response.decode(DeliveryBody.self).ticket : nil)
        }

        // Then exactly one is given an alert — the first in line — and the others nothing
        let delivered = answers.compactMap { try? $0.get() }.filter { $0.status == 200 }
        #expect(answers.allSatisfy { (try? $0.get()).map { [200, 204].contains($0.status) } == true }, "\(answers)")
        #expect(delivered.count == 1, "\(delivered.map(\.body))")
        #expect(delivered.first?.ticket == first)
        // And the queue shows that one presenting, the other two still queued
        let listed = try owner.list().items
        #expect(listed.filter { $0.state == "presenting" }.map(\.ticket) == [first])
        #expect(Set(listed.filter { $0.state == "queued" }.map(\.ticket)) == Set(queued).subtracting([first]))
    }

    @Test("16 racing duplicate enqueues over both instances leave one item, whose ticket all of them get")
    func racingDuplicatesLeaveOne() async throws {
        let instances = try AlertdInstances(store: try await database())
        defer { instances.stop() }
        let ports = instances.ports
        let admin = instances.adminToken

        // When 16 connections, half to each instance, enqueue the same alert at the same moment
        let answers = race(16) { index in
            try SessionClient(port: ports[index % 2], session: "dupes", adminToken: admin)
        } _: { _, client in
            let response = try client.admin("POST", "/queue", json: #"{"alert":"app/questionExit","dedupeKey":"once"}"#)
            let ticket = [200, 201].contains(response.status) ? try response.decode(EnqueuedBody.self).ticket : nil
            return Answer(status: response.status, body: response.text, ticket: ticket)
        }

        // Then one is created (201), fifteen are told it is a duplicate (200), all with one ticket
        let statuses = answers.map { (try? $0.get())?.status ?? -1 }
        #expect(statuses.filter { $0 == 201 }.count == 1, "\(answers)")
        #expect(statuses.filter { $0 == 200 }.count == 15, "\(answers)")
        let tickets = Set(answers.compactMap { try? $0.get().ticket })
        #expect(tickets.count == 1)
        // And the session holds that one item
        let listed = try SessionClient(port: ports[1], session: "dupes", adminToken: admin).list().items
        #expect(listed.map(\.ticket) == Array(tickets))
    }

    @Test("the queue and the session tokens survive a restart of every instance")
    func queueSurvivesRestartOfAll() async throws {
        let instances = try AlertdInstances(store: try await database())
        defer { instances.stop() }

        // Given a session token issued by one instance, two alerts queued on the other, one delivered
        let before = try SessionClient.open(port: instances.ports[0], session: "lasting", adminToken: instances.adminToken)
        let backend = try SessionClient(port: instances.ports[1], session: "lasting", adminToken: instances.adminToken)
        let exit = try backend.enqueue(#"{"alert":"app/questionExit","priority":900}"#)
        let messages = try backend.enqueue(#"{"alert":"app/shareSheet","priority":1,"ttl":3600}"#)
        #expect(try before.delivered().ticket == exit.ticket)
        let listedBefore = try backend.list().items

        // When every instance stops and new ones start on the same database
        #expect(try instances.restart(), "an instance did not stop cleanly")

        // Then each new instance lists the queue as it was
        for port in instances.ports {
            let after = try SessionClient(port: port, session: "lasting", adminToken: instances.adminToken)
            let listed = try after.list().items
            #expect(listed.map(\.ticket) == listedBefore.map(\.ticket))
            #expect(listed.map(\.state) == listedBefore.map(\.state))
            #expect(listed.first { $0.ticket == exit.ticket }?.state == "presenting")
            #expect(listed.map(\.expiresAt) == listedBefore.map(\.expiresAt))
        }
        // And the token issued before opens the session: the delivered alert is acknowledged on
        // one instance and the next one delivered by the other
        let appOnSecond = try SessionClient(port: instances.ports[1], session: "lasting", adminToken: instances.adminToken)
        appOnSecond.token = before.token
        expectQueueAnswer(try appOnSecond.ack(exit.ticket), status: 200)
        let appOnFirst = try SessionClient(port: instances.ports[0], session: "lasting", adminToken: instances.adminToken)
        appOnFirst.token = before.token
        #expect(try appOnFirst.delivered().ticket == messages.ticket)
    }
}
