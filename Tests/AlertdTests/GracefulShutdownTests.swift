#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChildProcesses
import Dispatch
import Foundation
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// The built alertd executable on SIGTERM: it stops accepting, answers every waiting long-poll
// 204, lets a request in flight finish within --shutdown-grace, leaves its SQLite file whole and
// exits 0. (ProcessTests already proves exit 0 on SIGTERM with nothing in flight, and
// LiveProblemTests the 503 an in-process server gives polls it stops without closing them.)

@Suite("alertd executable: graceful shutdown on SIGTERM", .serialized)
struct GracefulShutdownTests {
    static let longPolls = 50

    /// Whether a new TCP connection to `port` is refused (nothing listens any more).
    static func refused(port: Int) -> Bool {
        do {
            let client = try RawHTTPClient(port: port, timeout: .seconds(2))
            client.close()
            return false
        } catch RawHTTPError.system(_, let code) {
            return code == ECONNREFUSED
        } catch {
            return false
        }
    }

    @Test("SIGTERM: no new connections, 50 long-polls answered 204, a half-uploaded enqueue finishes, the store is whole, exit 0")
    func drainsAndExits() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alertd-shutdown-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("q.sqlite")
        let adminToken = "shutdown-admin-\(UUID().uuidString)"
        let grace = 10
        let arguments = [
            "--store", "sqlite:" + database.path, "--data-dir", folder.path, "--admin-token", adminToken,
            "--shutdown-grace", "\(grace)",
        ]
        let (server, port) = try AlertdProcess.serving(arguments)
        defer { server.kill() }
        server.waitForStandardError(containing: "info listening", within: .seconds(5))

        // Given an alert queued before the signal
        let backend = try SessionClient(port: port, session: "kept", adminToken: adminToken)
        let kept = try backend.enqueue(#"{"alert":"app/questionExit"}"#)

        // And 50 apps waiting on long-polls (wait=30, far beyond the test)
        var pollers: [SessionClient] = []
        for index in 0..<Self.longPolls {
            let app = try SessionClient.open(port: port, session: "poll-\(index)", adminToken: adminToken, timeout: .seconds(20))
            try app.client.send(
                RawHTTPClient.requestBytes(
                    "GET", "/v1/sessions/poll-\(index)/next?wait=30", headers: [("Authorization", "Bearer \(app.token)")]))
            pollers.append(app)
        }

        // And an enqueue in flight: its head sent, its body only half (a slow client upload)
        let body = Array(#"{"alert":"app/shareSheet","dedupeKey":"slow-upload"}"#.utf8)
        let slow = try RawHTTPClient(port: port, timeout: .seconds(20))
        try slow.send(
            RawHTTPClient.requestBytes(
                "POST", "/v1/sessions/slow/queue",
                headers: [
                    ("Authorization", "Bearer \(adminToken)"), ("Content-Type", "application/json"),
                    ("Content-Length", "\(body.count)"),
                ]))
        try slow.send(Array(body[..<(body.count / 2)]))
        // The server has read its head once it counts it in flight, beside the polls and the scrape
        let inFlight = Double(Self.longPolls + 2)
        #expect(eventually(within: .seconds(10)) { requestsInFlight(port: port) == inFlight }, "the upload's head was not read")

        // When it is sent SIGTERM
        let signalled = ContinuousClock.now
        #expect(signalProcess(server.process.processIdentifier, SIGTERM) == 0)

        // Then every waiting long-poll is answered 204 at once (not at its 30 s deadline)
        var statuses: [Int: Int] = [:]
        for app in pollers {
            let status = (try? app.client.readResponse().status) ?? -1
            statuses[status, default: 0] += 1
        }
        #expect(statuses == [204: Self.longPolls], "long-poll answers by status: \(statuses)")

        // And it stops accepting new connections while the upload is still in flight
        #expect(eventually(within: .seconds(5)) { Self.refused(port: port) }, "still accepting after SIGTERM")
        #expect(server.process.isRunning, "exited before the request in flight finished")

        // And the request in flight, finished now, is answered and kept
        try slow.send(Array(body[(body.count / 2)...]))
        let answer = try slow.readResponse(method: "POST")
        #expect(answer.status == 201, "\(answer.status) \(answer.text)")
        let slowTicket = try answer.decode(EnqueuedBody.self).ticket

        // And it exits 0 through its shutdown path, within the grace period (plus a margin)
        let exited = server.waitForExit(within: .seconds(grace + 5))
        #expect(exited, "still running \(grace + 5) s after SIGTERM")
        if exited {
            #expect(server.process.terminationReason == .exit, "killed by signal \(server.process.terminationStatus)")
            #expect(server.process.terminationStatus == 0)
        }
        #expect(ContinuousClock.now - signalled < .seconds(grace + 5))
        let log = server.waitForStandardError(containing: "info stopped", within: .seconds(1))
        let events = log.split(separator: "\n").filter { !$0.contains(" info request ") }.map { $0.split(separator: " ").dropFirst().joined(separator: " ") }
        // (The stop writes the polls' last-seen times between the two: SeenAtStopTests.)
        let shutdown = events.filter { !$0.hasPrefix("info last-seen times written") }
        #expect(shutdown.suffix(2) == ["info stopping", "info stopped"], "last events: \(events)")

        // And the store was closed: SQLite checkpointed and removed its write-ahead log
        #expect(
            !FileManager.default.fileExists(atPath: database.path + "-wal"),
            "q.sqlite-wal left behind: the SQLite store was not closed")

        // And the file is whole: a new server on it lists both alerts
        let (again, againPort) = try AlertdProcess.serving(arguments)
        defer { again.kill() }
        let keptList = try SessionClient(port: againPort, session: "kept", adminToken: adminToken).list().items
        #expect(keptList.map(\.ticket) == [kept.ticket])
        let slowList = try SessionClient(port: againPort, session: "slow", adminToken: adminToken).list().items
        #expect(slowList.map(\.ticket) == [slowTicket])
        #expect(slowList.map(\.dedupeKey) == ["slow-upload"])  // a given key is listed as given
        #expect(again.terminate(), "the second server did not stop cleanly")
    }

    @Test("--shutdown-grace 1: a request that never finishes holds the exit at most the grace period; exit 0")
    func graceBoundsAStalledRequest() throws {
        let grace = 1
        let (server, port) = try AlertdProcess.serving(["--store", "memory", "--shutdown-grace", "\(grace)"])
        defer { server.kill() }

        // Given a request whose body never comes
        let stalled = try RawHTTPClient(port: port, timeout: .seconds(20))
        try stalled.send(
            "POST /v1/sessions/s/queue HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
        #expect(eventually(within: .seconds(10)) { requestsInFlight(port: port) == 2 }, "the stalled head was not read")

        // When it is sent SIGTERM
        #expect(signalProcess(server.process.processIdentifier, SIGTERM) == 0)

        // Then it gives up on that request after the grace period and still exits 0
        let exited = server.waitForExit(within: .seconds(grace + 5))
        #expect(exited, "still running \(grace + 5) s after SIGTERM with --shutdown-grace \(grace)")
        if exited {
            #expect(server.process.terminationReason == .exit, "killed by signal \(server.process.terminationStatus)")
            #expect(server.process.terminationStatus == 0)
        }
        // And the stalled client's connection is closed, not left hanging
        #expect(stalled.closedByPeer(within: .seconds(2)))
    }

    @Test("--shutdown-grace 0 is accepted; a negative grace (flag or ALERTD_SHUTDOWN_GRACE) is refused at start")
    func graceValidation() throws {
        let zero = try AlertdProcess.serving(["--store", "memory", "--shutdown-grace", "0"]).0
        defer { zero.kill() }
        #expect(zero.terminate(within: .seconds(10)), "--shutdown-grace 0 did not stop cleanly")

        for (arguments, environment) in [
            (["--shutdown-grace=-1"], [String: String]()), ([], ["ALERTD_SHUTDOWN_GRACE": "-5"]),
        ] {
            let run = try AlertdProcess.launch(
                ["serve", "--host", "127.0.0.1", "--port", "0", "--store", "memory"] + arguments, environment: environment)
            defer { run.kill() }
            #expect(run.waitForExit(within: .seconds(10)), "\(arguments) \(environment): still running")
            #expect(run.process.terminationStatus == 2, "\(arguments) \(environment): status \(run.process.terminationStatus)")
            let errors = run.standardErrorSoFar()
            #expect(errors.contains("--shutdown-grace must not be negative"), "stderr: \(errors)")
            #expect(run.readStandardOutputLine(within: .milliseconds(200)) == nil, "it started listening")
        }
    }
}
