import AlertCatalogs
import AlertQueue
import AlertServer
import Foundation
import Testing

@testable import MicroHTTP

// On a crowded server (thousands of long-polls waiting; here the threshold is lowered to none),
// an enqueue resumes its session's waiting poll ahead of the answer, before it writes the item,
// so that libmicrohttpd's walk over the suspended connections runs meanwhile. The poll still gets
// exactly what it would have got, and one that cannot take the item waits on.

@Suite("Live server: long-polls resumed ahead of their answer")
struct LiveResumeAheadTests {
    /// A server crowded however few requests wait.
    private static let crowded = {
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, threads: 2, perClientConnectionLimit: 0)
        configuration.crowd = 0
        return configuration
    }()

    /// Sends `GET …/next?wait=5` for `app`'s session on a connection of its own, and waits until
    /// the poll is parked and its connection suspended.
    private func startPoll(_ app: SessionClient, server: HTTPServer, service: AlertService) throws -> SessionClient {
        let poller = try SessionClient(port: server.port, session: app.session, timeout: .seconds(10))
        poller.token = app.token
        try poller.client.send(RawHTTPClient.requestBytes(
            "GET", "/v1/sessions/\(app.session)/next?wait=5", headers: [("Authorization", "Bearer \(app.token)")]))
        #expect(eventually { service.queue.polls.count == 1 && server.suspendedConnections == 1 }, "the poll never waited")
        return poller
    }

    /// Waits until the poll is parked again and every resume ahead so far came back to a worker
    /// that found nothing and suspended the connection again.
    private func waitsAgain(_ server: HTTPServer, _ service: AlertService) -> Bool {
        eventually(within: .seconds(10)) {
            service.queue.polls.count == 1 && server.suspendedConnections == 1
                && server.resumesAhead.inVain == server.resumesAhead.all
        }
    }

    @Test("an enqueue resumes the waiting poll ahead, and the poll answers with the item")
    func enqueueResumesAhead() throws {
        try withLiveHTTPServer(Self.crowded) { server, service in
            // Given: an app waiting for its next alert on a crowded server
            let app = try SessionClient.open(port: server.port, session: "ahead", timeout: .seconds(10))
            let poller = try startPoll(app, server: server, service: service)

            // When: the backend enqueues an alert for the session
            let enqueued = try app.enqueue(#"{"alert":"app/redPacket","params":{"amount":8.88,"sender":"Wei"}}"#)

            // Then: the poll was resumed once ahead of its answer, and answers with the alert
            let response = try poller.client.readResponse()
            expectQueueAnswer(response, status: 200)
            #expect(try response.decode(DeliveryBody.self).ticket == enqueued.ticket)
            #expect(server.resumesAhead.all == 1)
            #expect(service.queue.polls.count == 0)
        }
    }

    @Test("a poll resumed ahead for an item it cannot take waits on, and is not resumed ahead again")
    func busyLaneWaitsOn() throws {
        try withLiveHTTPServer(Self.crowded) { server, service in
            // Given: a session whose modal lane is busy, and the app waiting for what comes next
            let app = try SessionClient.open(port: server.port, session: "busy", timeout: .seconds(10))
            _ = try app.enqueue(#"{"alert":"app/logoutConfirm"}"#)
            _ = try app.delivered()
            let poller = try startPoll(app, server: server, service: service)

            // When: two more modals are enqueued, which the busy lane keeps back, each once the
            // poll waits again (a telling that found its connection still resumed would do
            // nothing, whatever the rule: with both connections on one worker it comes first)
            let second = try app.enqueue(#"{"alert":"app/answerExit"}"#)
            #expect(waitsAgain(server, service), "the poll did not wait again: \(server.resumesAhead)")
            _ = try app.enqueue(#"{"alert":"app/questionExit"}"#)
            #expect(waitsAgain(server, service), "the poll did not wait again: \(server.resumesAhead)")

            // Then: only the first resumed the poll ahead, in vain; the poll still waits
            #expect(server.resumesAhead == (all: 1, inVain: 1))
            #expect(try app.list().items.first(where: { $0.ticket == second.ticket })?.state == "queued")

            // When: a HUD is enqueued, which its own lane lets through
            let hud = try app.enqueue(#"{"alert":"app/uploadProgress","params":{"percent":40}}"#)

            // Then: the poll answers with the HUD, without another resume ahead
            let response = try poller.client.readResponse()
            expectQueueAnswer(response, status: 200)
            #expect(try response.decode(DeliveryBody.self).ticket == hud.ticket)
            #expect(server.resumesAhead.all == 1)
        }
    }

    @Test("a poll that waits through a hold is not resumed ahead by an enqueue the hold keeps back")
    func heldIsNotResumedAhead() throws {
        try withLiveHTTPServer(Self.crowded) { server, service in
            // Given: a held session, and the app waiting for what comes next
            let app = try SessionClient.open(port: server.port, session: "held", timeout: .seconds(10))
            expectQueueAnswer(try app.app("PUT", "/hold", json: #"{"seconds":60}"#), status: 200)
            let poller = try startPoll(app, server: server, service: service)

            // When: a modal is enqueued, then the hold released
            let modal = try app.enqueue(#"{"alert":"app/logoutConfirm"}"#)
            #expect(eventually { service.queue.polls.count == 1 }, "the poll did not wait again")
            #expect(server.resumesAhead.all == 0)
            expectQueueAnswer(try app.app("DELETE", "/hold"), status: 200)

            // Then: the release brings the modal
            let response = try poller.client.readResponse()
            expectQueueAnswer(response, status: 200)
            #expect(try response.decode(DeliveryBody.self).ticket == modal.ticket)
        }
    }
}
