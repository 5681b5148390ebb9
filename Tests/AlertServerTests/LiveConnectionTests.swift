#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AlertCatalogs
import AlertServer
import AlertSpec
import Dispatch
import Foundation
import MicroHTTP
import Locking
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// Connections: body limits, keep-alive, pipelining, many clients, checked over real sockets against the real server: MicroHTTP on libmicrohttpd
// serving AlertService with the built-in catalogs, on an ephemeral port.

@Suite("Live server: connections")
struct LiveConnectionTests {
    @Test("A declared Content-Length over the limit is 413 before the body is sent")
    func declaredBodyTooLarge() throws {
        try withLiveServer(maxBodySize: 1024) { port in
            // Given a server that takes bodies up to 1024 bytes
            let client = try RawHTTPClient(port: port)
            // When a client announces 5000 bytes and sends only the headers
            try client.send(
                "POST /v1/specs/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 5000\r\n\r\n")
            let response = try client.readResponse(method: "POST")
            // Then it is refused at once with 413 problem+json
            let problem = try expectProblem(response, status: 413)
            #expect(problem.detail.contains("1024"))
            // And the connection is not kept for a body the server will not read
            #expect(response.closesConnection || client.closedByPeer(within: .seconds(2)))
        }
    }

    @Test("A chunked body that grows past the limit is 413")
    func chunkedBodyTooLarge() throws {
        try withLiveServer(maxBodySize: 1024) { port in
            // Given a server that takes bodies up to 1024 bytes
            let client = try RawHTTPClient(port: port)
            // When a client streams 3 × 600 bytes in chunks, with no declared length
            try client.send(
                "POST /v1/specs/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n")
            let chunk = Array("258\r\n".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 600) + Array("\r\n".utf8)
            do {
                for _ in 0..<3 { try client.send(chunk) }
                try client.send("0\r\n\r\n")
            } catch {
                // A server may answer early and stop reading; the answer is what counts.
            }
            // Then it is 413 problem+json (MHD 0.9.75 refuses a response queued mid-body, so the
            // server drains the rest and answers on the final call)
            let response: RawHTTPResponse
            do {
                response = try client.readResponse(method: "POST")
            } catch {
                Issue.record("no response to an oversized chunked body (expected 413 problem+json): \(error)")
                return
            }
            let problem = try expectProblem(response, status: 413)
            #expect(problem.detail.contains("1024"))
        }
    }

    @Test("A body under the limit is not refused for its size")
    func smallBodyPasses() throws {
        try withLiveServer(maxBodySize: 1024) { port in
            // Given a server that takes bodies up to 1024 bytes
            let client = try RawHTTPClient(port: port)
            // When a client POSTs 1000 bytes, declared and then chunked, to a GET-only resource
            let declared = try client.request("POST", "/livez", body: [UInt8](repeating: 0x20, count: 1000))
            let chunked = try client.request(
                "POST", "/livez", headers: [("Transfer-Encoding", "chunked")],
                body: Array("3e8\r\n".utf8) + [UInt8](repeating: 0x20, count: 1000) + Array("\r\n0\r\n\r\n".utf8))
            // Then routing answers (405), not the size limit (413), and the connection stays usable
            #expect(declared.status == 405)
            #expect(chunked.status == 405)
            #expect(try client.request("GET", "/livez").status == 200)
        }
    }

    // MARK: Connections

    @Test("Three requests on one connection are all answered and the connection stays open")
    func keepAlive() throws {
        try withLiveServer { port in
            // Given one TCP connection
            let client = try RawHTTPClient(port: port)
            // When three requests go over it one after the other
            let targets = ["/livez", "/v1/catalogs", "/v1/catalogs/app/alerts/questionExit"]
            let responses = try targets.map { try client.request("GET", $0) }
            // Then each is answered, none announces a close
            #expect(responses.map(\.status) == [200, 200, 200])
            #expect(responses.allSatisfy { !$0.closesConnection })
            #expect(try responses[2].decode(EnvelopeBody.self).id == "app/questionExit")
            // And the server has not closed the connection
            #expect(!client.closedByPeer(within: .milliseconds(300)))
            #expect(try client.request("GET", "/readyz").status == 200)
        }
    }

    @Test("Pipelined requests sent in one write are answered in order")
    func pipelining() throws {
        try withLiveServer { port in
            // Given one connection
            let client = try RawHTTPClient(port: port)
            // When two requests are written back to back before reading
            try client.send(
                RawHTTPClient.requestBytes("GET", "/v1/catalogs/app/alerts/nope")
                    + RawHTTPClient.requestBytes("GET", "/livez"))
            // Then the answers come in request order
            let first = try client.readResponse()
            let second = try client.readResponse()
            #expect(first.status == 404)
            #expect(second.status == 200)
        }
    }

    @Test("300 connections at once, 3 keep-alive requests each, all answered 200")
    func manyConnections() throws {
        try withLiveServer { port in
            // Given 300 clients, each on its own thread, all connected before any sends
            let connections = 300
            let targets = ["/livez", "/v1/catalogs", "/v1/catalogs/app/alerts/questionExit"]
            let outcomes = Outcomes()
            let connected = DispatchGroup()
            let finished = DispatchGroup()
            let start = DispatchSemaphore(value: 0)
            for index in 0..<connections {
                connected.enter()
                finished.enter()
                let thread = Thread {
                    defer { finished.leave() }
                    let client: RawHTTPClient
                    do {
                        client = try RawHTTPClient(port: port, timeout: .seconds(5))
                    } catch {
                        connected.leave()
                        outcomes.record(index, .failure("connect: \(error)"))
                        return
                    }
                    connected.leave()
                    guard start.wait(timeout: .now() + 10) == .success else {
                        outcomes.record(index, .failure("never started"))
                        return
                    }
                    // When each sends three requests on its connection
                    var statuses: [Int] = []
                    for target in targets {
                        do {
                            statuses.append(try client.request("GET", target).status)
                        } catch {
                            outcomes.record(index, .failure("\(target): \(error)"))
                            return
                        }
                    }
                    outcomes.record(index, .statuses(statuses))
                    client.close()
                }
                thread.stackSize = 512 * 1024
                thread.start()
            }
            // One deadline for the whole exchange: the test fails rather than hangs.
            let deadline = DispatchTime.now() + 10
            let allConnected = connected.wait(timeout: deadline)
            for _ in 0..<connections { start.signal() }
            let allFinished = finished.wait(timeout: deadline)

            // Then every client got three 200s
            #expect(allConnected == .success)
            #expect(allFinished == .success)
            let results = outcomes.snapshot()
            #expect(results.count == connections)
            let failures = results.filter { $0.value != .statuses([200, 200, 200]) }
            #expect(failures.isEmpty, "\(failures.count) clients failed, e.g. \(failures.first.map { "\($0)" } ?? "")")

            // And the server still answers afterwards
            let after = try RawHTTPClient(port: port).request("GET", "/livez")
            #expect(after.status == 200)
        }
    }
}

/// What each concurrent client saw, keyed by client index.
private final class Outcomes: Sendable {
    enum Outcome: Equatable, Sendable {
        case statuses([Int])
        case failure(String)
    }

    private let results = Locked<[Int: Outcome]>([:])

    func record(_ index: Int, _ outcome: Outcome) {
        results.withLock { $0[index] = outcome }
    }

    func snapshot() -> [Int: Outcome] { results.withLock { $0 } }
}
