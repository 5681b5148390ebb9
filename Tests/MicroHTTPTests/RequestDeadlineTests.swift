import Dispatch
import Foundation
import Locking
import Testing

@testable import HTTPTestSupport
@testable import MicroHTTP

// A request must arrive in time: its head within the head timeout of its first byte, its body at
// the least rate after the grace. A request being handled (a suspended long-poll) and a
// connection idle between requests have no such deadline. The tests wait for the server's own
// signals (connections closed, looks taken by the deadline thread), never for time to pass.

@Suite("Request deadlines")
struct RequestDeadlineTests {
    /// `/now` answers at once; `/wait` waits until the test fulfils it.
    final class Handler: HTTPHandler, @unchecked Sendable {
        let waiting = Locked<[ResponsePromise]>([])

        func handle(_ request: HTTPRequest) -> HTTPReply {
            guard request.path == "/wait" else { return .respond(HTTPResponse(status: 200, contentType: "text/plain", text: "ok")) }
            return .later { [waiting] promise in waiting.withLock { $0.append(promise) } }
        }

        func reject(_ failure: HTTPRequestFailure, method: String, path: String) -> HTTPResponse {
            HTTPResponse(status: failure.status)
        }
    }

    /// A server with 1 s deadlines and a 60 s idle timeout, so that only a deadline closes early.
    static func server(_ handler: Handler = Handler()) throws -> HTTPServer {
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, threads: 1, connectionTimeout: 60)
        configuration.requestHeadTimeout = 1
        configuration.requestBodyGrace = 1
        configuration.requestBodyMinRate = 100
        return try HTTPServer(configuration: configuration, handler: handler)
    }

    /// Waits until the deadline thread has looked `looks` more times: over 2 s at a 250 ms tick.
    static func letDeadlinesLook(_ server: HTTPServer, looks: Int = 10) {
        let start = server.deadlineScans
        _ = eventually(within: .seconds(30)) { server.deadlineScans >= start + looks }
    }

    @Test("a head stalled after its first bytes is closed at the head deadline, not the idle timeout")
    func stalledHead() throws {
        let server = try Self.server()
        defer { server.stop(grace: .seconds(2)) }
        let client = try RawHTTPClient(port: server.port, timeout: .seconds(30))
        try client.send("GET /now HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow:")
        #expect(client.closedByPeer(within: .seconds(20)))
        #expect(server.deadlineCuts == 1)
    }

    @Test("a head trickled a byte at a time is closed though each byte is fresh activity")
    func trickledHead() throws {
        let server = try Self.server()
        defer { server.stop(grace: .seconds(2)) }
        let client = try RawHTTPClient(port: server.port, timeout: .seconds(30))
        let head = Array("GET /now HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8) + Array(repeating: UInt8(ascii: "a"), count: 10_000)
        var sent = 0
        // A byte, then as long as 200 ms for the server to close; again, up to the whole head
        while sent < head.count, !client.closedByPeer(within: .milliseconds(200)) {
            do { try client.send([head[sent]]) } catch { break }
            sent += 1
        }
        #expect(client.closedByPeer(within: .seconds(20)), "still open after \(sent) bytes")
        #expect(sent < head.count)
        #expect(server.deadlineCuts == 1)
    }

    @Test("a body slower than the least rate is closed after its grace")
    func slowBody() throws {
        let server = try Self.server()
        defer { server.stop(grace: .seconds(2)) }
        let client = try RawHTTPClient(port: server.port, timeout: .seconds(30))
        try client.send("POST /now HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n0123456789")
        #expect(client.closedByPeer(within: .seconds(20)))
        #expect(server.deadlineCuts == 1)
    }

    @Test("a connection idle between requests is left to the idle timeout")
    func idleKeepAlive() throws {
        let server = try Self.server()
        defer { server.stop(grace: .seconds(2)) }
        let client = try RawHTTPClient(port: server.port, timeout: .seconds(30))
        #expect(try client.request("GET", "/now").status == 200)
        // When the deadline thread has looked for over twice the head timeout
        Self.letDeadlinesLook(server)
        // Then the same connection still serves
        #expect(!client.closedByPeer(within: .milliseconds(1)))
        #expect(try client.request("GET", "/now").status == 200)
        #expect(server.deadlineCuts == 0)
    }

    @Test("a request waiting for its answer (a long-poll) is not cut, however long it waits")
    func suspendedWaits() throws {
        let handler = Handler()
        let server = try Self.server(handler)
        defer { server.stop(grace: .seconds(2)) }
        let client = try RawHTTPClient(port: server.port, timeout: .seconds(30))
        try client.send(RawHTTPClient.requestBytes("GET", "/wait"))
        #expect(eventually(within: .seconds(10)) { server.suspendedConnections == 1 })
        Self.letDeadlinesLook(server)
        for promise in handler.waiting.withLock({ $0 }) {
            promise.fulfill(HTTPResponse(status: 200, contentType: "text/plain", text: "late"))
        }
        #expect(try client.readResponse().status == 200)
        #expect(server.deadlineCuts == 0)
    }

    @Test("a body sent at a fair pace is read and answered")
    func fairBody() throws {
        let server = try Self.server()
        defer { server.stop(grace: .seconds(2)) }
        let response = try RawHTTPClient(port: server.port).request("POST", "/now", body: Array(repeating: 0x41, count: 100_000))
        #expect(response.status == 200)
        #expect(server.deadlineCuts == 0)
    }
}
