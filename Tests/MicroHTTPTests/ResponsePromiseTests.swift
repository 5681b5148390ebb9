import Dispatch
import Foundation
import Locking
import Testing

@testable import HTTPTestSupport
@testable import MicroHTTP

// The one way a handler waits: a promise fulfilled once from any thread, told when its client
// is gone, answered by shutdown; and, detached, the same without a connection.

@Suite("Response promises")
struct ResponsePromiseTests {
    /// Answers every request later: `/late` after a second, `/never` not at all. Tells `gone` of
    /// each request whose response did not reach its client.
    struct Handler: HTTPHandler {
        let gone: DispatchSemaphore

        func handle(_ request: HTTPRequest) -> HTTPReply {
            let path = request.path
            return .later { promise in
                promise.onClientGone { gone.signal() }
                guard path == "/late" else { return }
                DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(1)) {
                    promise.fulfill(HTTPResponse(status: 200, contentType: "text/plain", text: String(repeating: "x", count: 1 << 20)))
                }
            }
        }

        func reject(_ failure: HTTPRequestFailure, method: String, path: String) -> HTTPResponse {
            HTTPResponse(status: failure.status)
        }
    }

    @Test("a detached promise delivers its first fulfilment only, and runs work handed to it")
    func detachedDeliversOnce() async throws {
        let delivered = Locked<[Int]>([])
        let promise = ResponsePromise(detached: { response in delivered.withLock { $0.append(response.status) } })
        #expect(promise.fulfill(HTTPResponse(status: 201)))
        #expect(!promise.fulfill(HTTPResponse(status: 500)))
        #expect(delivered.withLock { $0 } == [201])
        let ran = DispatchSemaphore(value: 0)
        promise.execute { ran.signal() }
        #expect(ran.wait(timeout: .now() + 10) == .success)
    }

    @Test("a client that drops its connection before the answer is told of, once the answer is tried")
    func clientGoneIsTold() throws {
        let gone = DispatchSemaphore(value: 0)
        let server = try HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threads: 1), handler: Handler(gone: gone))
        defer { server.stop(grace: .seconds(2)) }
        // Given: a request waiting for its answer, whose client then resets the connection
        let client = try RawHTTPClient(port: server.port)
        try client.send(RawHTTPClient.requestBytes("GET", "/late"))
        #expect(eventually(within: .seconds(10)) { server.suspendedConnections == 1 })
        client.abort()
        // Then: when the answer comes and cannot be sent, the promise says its client is gone
        #expect(gone.wait(timeout: .now() + 10) == .success)
    }

    @Test("an answered request is not reported gone")
    func answeredIsNotGone() throws {
        let gone = DispatchSemaphore(value: 0)
        let server = try HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threads: 1), handler: Handler(gone: gone))
        let response = try RawHTTPClient(port: server.port).request("GET", "/late")
        #expect(response.status == 200)
        server.stop(grace: .seconds(2))
        #expect(gone.wait(timeout: .now() + 0.5) == .timedOut)
    }

    @Test("shutdown answers a request still waiting, 503 by default")
    func shutdownAnswers() throws {
        let server = try HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threads: 1), handler: Handler(gone: DispatchSemaphore(value: 0)))
        let client = try RawHTTPClient(port: server.port, timeout: .seconds(10))
        try client.send(RawHTTPClient.requestBytes("GET", "/never"))
        #expect(eventually(within: .seconds(10)) { server.suspendedConnections == 1 })
        DispatchQueue.global().async { server.stop(grace: .milliseconds(100)) }
        #expect(try client.readResponse().status == 503)
    }
}
