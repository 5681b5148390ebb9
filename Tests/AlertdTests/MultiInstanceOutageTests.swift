import Foundation
import PostgresTestSupport
import TestExecutors
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// Two alertd processes on one PostgreSQL cluster of their own, which is stopped mid-run and
// started again: the instances answer 503 problems while it is down (never hang, never crash),
// and serve again by themselves when it is back.

@Suite("alertd executables while their PostgreSQL is down", .ownThread)
struct MultiInstanceOutageTests {
    @Test("a database that stops gives 503 problems and an unready /readyz; both instances recover by themselves")
    func outageAndRecovery() async throws {
        // Given two instances on a cluster of their own, ready, with a store call timeout of 2 s
        let cluster = try await PostgresCluster.make()
        defer { cluster.remove() }
        let instances = try AlertdInstances(store: try await cluster.createDatabase(), arguments: ["--store-timeout", "2"])
        defer { instances.stop() }
        do {
            try await outageAndRecovery(of: instances, on: cluster)
        } catch {
            // A connection the server closed may be an instance that died: say what each wrote.
            let errors = instances.ports.indices.map { "instance \($0) stderr: \(instances.standardError($0))" }
            Issue.record("\(error)\n\(errors.joined(separator: "\n"))")
        }
    }

    private func outageAndRecovery(of instances: AlertdInstances, on cluster: PostgresCluster) async throws {
        let ports = instances.ports
        for port in ports {
            #expect(eventually(within: .seconds(10)) { status(port, "/readyz") == 200 }, "instance on \(port) never ready")
        }
        let app = try SessionClient.open(port: ports[0], session: "outage", adminToken: instances.adminToken, timeout: .seconds(20))
        _ = try app.enqueue(#"{"alert":"app/questionExit"}"#)
        // And a long-poll of another session waiting 5 s on the second instance
        let waiter = try SessionClient.open(port: ports[1], session: "waiting", adminToken: instances.adminToken, timeout: .seconds(20))
        try waiter.client.send(
            RawHTTPClient.requestBytes("GET", "/v1/sessions/waiting/next?wait=5", headers: [("Authorization", "Bearer \(waiter.token)")]))

        // When the database stops
        try await cluster.stop()

        // Then both instances are alive but soon not ready
        for port in ports {
            #expect(status(port, "/livez") == 200)
            #expect(eventually(within: .seconds(10)) { status(port, "/readyz") == 503 }, "instance on \(port) still ready")
        }
        // And queue calls on either instance answer 503 store-unavailable problems, not hangs
        let onSecond = try SessionClient(port: ports[1], session: "outage", adminToken: instances.adminToken, timeout: .seconds(20))
        onSecond.token = app.token
        for response in [
            try app.admin("POST", "/queue", json: #"{"alert":"app/shareSheet"}"#), try onSecond.next(),
            try onSecond.admin("GET", "/queue"), try app.ack("no-such-ticket"),
        ] {
            let problem = try expectProblem(response, status: 503)
            #expect(problem.type == "urn:alertd:problem:store-unavailable")
            #expect(response.header("Cache-Control") == "no-store")
        }
        // And the poll that was waiting gets its answer at its deadline: a 503 too
        let waited = try waiter.client.readResponse()
        #expect(try expectProblem(waited, status: 503).type == "urn:alertd:problem:store-unavailable")

        // When the database starts again
        try await cluster.start()

        // Then both instances become ready again by themselves, and serve the queue as it was
        for port in ports {
            #expect(eventually(within: .seconds(30)) { status(port, "/readyz") == 200 }, "instance on \(port) never ready again")
        }
        let delivered = try onSecond.delivered()
        #expect(try app.list().items.map(\.ticket) == [delivered.ticket])
        // And a long-poll on one is woken by an enqueue on the other again
        try waiter.client.send(
            RawHTTPClient.requestBytes("GET", "/v1/sessions/waiting/next?wait=15", headers: [("Authorization", "Bearer \(waiter.token)")]))
        #expect(eventually(within: .seconds(10)) { waitingPolls(port: ports[1]) == 1 })
        let enqueued = try SessionClient(port: ports[0], session: "waiting", adminToken: instances.adminToken)
            .enqueue(#"{"alert":"app/shareSheet"}"#)
        let woken = try waiter.client.readResponse()
        expectQueueAnswer(woken, status: 200)
        #expect(try woken.decode(DeliveryBody.self).ticket == enqueued.ticket)
        #expect(instances.stop(), "an instance did not stop cleanly")
    }

    /// The status of `GET path` on a connection of its own; -1 when there is no answer.
    private func status(_ port: Int, _ path: String) -> Int {
        (try? RawHTTPClient(port: port, timeout: .seconds(10)).request("GET", path).status) ?? -1
    }
}
