import Dispatch
import Foundation
import Testing

@testable import MicroHTTP

// A crowded server resumes a waiting connection ahead of its answer when told the answer is on
// its way (`ResponsePromise.resumeAhead`), so that the worker's walk over its suspended
// connections overlaps the making of the answer. Told too early, the connection waits on.

@Suite("Connections resumed ahead of their answer")
struct ResumeAheadTests {
    /// Suspends each request, then at each of `aheadAfter` says its answer is coming, and
    /// answers it `answerAfter` (milliseconds from the request).
    struct Handler: HTTPHandler {
        let aheadAfter: [Int]
        let answerAfter: Int

        func handle(_ request: HTTPRequest) -> HTTPReply {
            .later { promise in
                for delay in aheadAfter {
                    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delay)) { promise.resumeAhead() }
                }
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(answerAfter)) {
                    promise.fulfill(HTTPResponse(status: 200, contentType: "text/plain", text: "answered"))
                }
            }
        }

        func reject(_ failure: HTTPRequestFailure, method: String, path: String) -> HTTPResponse {
            HTTPResponse(status: 400)
        }
    }

    /// A server of one worker running `handler`, crowded from `crowd` waiting requests.
    private func withServer(_ handler: Handler, crowd: Int, _ body: (HTTPServer, RawHTTPClient) throws -> Void) throws {
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, threads: 1)
        configuration.crowd = crowd
        let server = try HTTPServer(configuration: configuration, handler: handler)
        defer { server.stop(grace: .seconds(2)) }
        try body(server, try RawHTTPClient(port: server.port))
    }

    @Test("resumed ahead, a connection whose answer has not come waits on for it")
    func waitsOnForItsAnswer() throws {
        // Given: a crowded server told at 50 ms that the answer is coming, which comes at 300 ms
        try withServer(Handler(aheadAfter: [50], answerAfter: 300), crowd: 0) { server, client in
            // When: a request comes
            let started = ContinuousClock.now
            let response = try client.request("GET", "/")
            // Then: it is answered, at 300 ms, after one resume ahead that found nothing
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == "answered")
            #expect(ContinuousClock.now - started >= .milliseconds(250))
            #expect(server.resumesAhead == (all: 1, inVain: 1))
            // And: the connection serves the next request as usual
            #expect(try client.request("GET", "/").status == 200)
        }
    }

    @Test("resumed ahead in vain once, a request is not resumed ahead again")
    func onceInVainThenNoMore() throws {
        // Given: a crowded server told twice that the answer is coming, long before it does
        try withServer(Handler(aheadAfter: [30, 150], answerAfter: 300), crowd: 0) { server, client in
            // When: a request comes
            let response = try client.request("GET", "/")
            // Then: only the first telling resumed the connection
            #expect(response.status == 200)
            #expect(server.resumesAhead == (all: 1, inVain: 1))
        }
    }

    @Test("a server that is not crowded does not resume ahead")
    func notCrowded() throws {
        // Given: a server crowded only from 1,000 waiting requests, with one waiting
        try withServer(Handler(aheadAfter: [30], answerAfter: 100), crowd: 1_000) { server, client in
            // When: the request is told its answer is coming, and then answered
            let response = try client.request("GET", "/")
            // Then: it is answered without a resume ahead
            #expect(response.status == 200)
            #expect(server.resumesAhead == (all: 0, inVain: 0))
        }
    }
}
