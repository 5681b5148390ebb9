import Foundation
import Locking
import Testing

@testable import MicroHTTP

// A crowded server resumes a waiting connection ahead of its answer when told the answer is on
// its way (`ResponsePromise.resumeAhead`), so that the worker's walk over its suspended
// connections overlaps the making of the answer. Told too early, the connection waits on.
//
// The test drives each promise itself, one step after the other, and waits to see each step
// land: timers would fire late whenever other tests keep Dispatch's threads busy.

@Suite("Connections resumed ahead of their answer")
struct ResumeAheadTests {
    /// Keeps the promise of the request to `/later` for the test; answers `/now` at once.
    final class Handler: HTTPHandler {
        private let promise = Locked<ResponsePromise?>(nil)

        /// The promise of the request to `/later`, once it came.
        var waiting: ResponsePromise? { promise.withLock { $0 } }

        func handle(_ request: HTTPRequest) -> HTTPReply {
            guard request.path == "/later" else { return .respond(HTTPResponse(status: 204)) }
            return .later { [promise] given in promise.withLock { $0 = given } }
        }

        func reject(_ failure: HTTPRequestFailure, method: String, path: String) -> HTTPResponse {
            HTTPResponse(status: 400)
        }
    }

    /// A server of one worker, crowded from `crowd` waiting requests, with a request to `/later`
    /// sent and its connection suspended.
    private func withWaitingRequest(
        crowd: Int, _ body: (HTTPServer, RawHTTPClient, ResponsePromise) throws -> Void
    ) throws {
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, threads: 1)
        configuration.crowd = crowd
        let handler = Handler()
        let server = try HTTPServer(configuration: configuration, handler: handler)
        defer { server.stop(grace: .seconds(2)) }
        let client = try RawHTTPClient(port: server.port, timeout: .seconds(10))
        try client.send(RawHTTPClient.requestBytes("GET", "/later"))
        let suspended = eventually(within: .seconds(10)) { handler.waiting != nil && server.suspendedConnections == 1 }
        try #require(suspended, "the request never waited")
        try body(server, client, try #require(handler.waiting))
    }

    /// Waits until the worker called the handler for every resume ahead so far, found no answer
    /// and suspended the connection again.
    private func waitedOn(_ server: HTTPServer, inVain: Int) -> Bool {
        eventually(within: .seconds(10)) { server.resumesAhead.inVain == inVain && server.suspendedConnections == 1 }
    }

    private static let answer = HTTPResponse(status: 200, contentType: "text/plain", text: "answered")

    @Test("resumed ahead, a connection whose answer has not come waits on for it")
    func waitsOnForItsAnswer() throws {
        try withWaitingRequest(crowd: 0) { server, client, promise in
            // Given: a crowded server told that the answer is coming, long before it does
            promise.resumeAhead()
            #expect(server.resumesAhead.all == 1)
            // When: the worker finds no answer, and the answer comes later
            #expect(waitedOn(server, inVain: 1), "\(server.resumesAhead)")
            promise.fulfill(Self.answer)
            // Then: the request is answered, after one resume ahead that found nothing
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == "answered")
            #expect(server.resumesAhead == (all: 1, inVain: 1))
            // And: the connection serves the next request as usual
            try client.send(RawHTTPClient.requestBytes("GET", "/now"))
            #expect(try client.readResponse().status == 204)
        }
    }

    @Test("resumed ahead in vain once, a request is not resumed ahead again")
    func onceInVainThenNoMore() throws {
        try withWaitingRequest(crowd: 0) { server, client, promise in
            // Given: a crowded server told that the answer is coming, too early
            promise.resumeAhead()
            #expect(waitedOn(server, inVain: 1), "\(server.resumesAhead)")
            // When: it is told again, then answered
            promise.resumeAhead()
            #expect(server.resumesAhead.all == 1)
            promise.fulfill(Self.answer)
            // Then: the second telling resumed nothing, and the answer came
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(server.resumesAhead == (all: 1, inVain: 1))
        }
    }

    @Test("a server that is not crowded does not resume ahead")
    func notCrowded() throws {
        try withWaitingRequest(crowd: 1_000) { server, client, promise in
            // Given: a server crowded only from 1,000 waiting requests, with one waiting
            // When: the request is told its answer is coming, and then answered
            promise.resumeAhead()
            #expect(server.resumesAhead.all == 0)
            promise.fulfill(Self.answer)
            // Then: it is answered without a resume ahead
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(server.resumesAhead == (all: 0, inVain: 0))
        }
    }
}
