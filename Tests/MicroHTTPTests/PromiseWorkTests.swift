import Dispatch
import Foundation
import Locking
import Testing

@testable import MicroHTTP
@testable import HTTPTestSupport

// An async handler's continuations run through `ResponsePromise.execute`: on the worker thread
// that serves the request, resumed for them, so that no other thread is woken between a store's
// answer and the response; on a Dispatch thread when that cannot be.

@Suite("Work handed to a response promise")
struct PromiseWorkTests {
    /// Answers `/work` 50 ms later from a Dispatch thread, through `execute`: the body names the
    /// thread that handled the request and the one that ran the work. `/gone` does the same
    /// once its client has gone, and tells `ran`.
    struct Handler: HTTPHandler {
        let ran: DispatchSemaphore

        func handle(_ request: HTTPRequest) -> HTTPReply {
            let handledOn = pthread_self()
            let path = request.path
            return .later { promise in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(path == "/gone" ? 300 : 50)) {
                    promise.execute {
                        if path == "/gone" { ran.signal() }
                        promise.fulfill(HTTPResponse(
                            status: 200, contentType: "text/plain", text: "\(pthread_equal(handledOn, pthread_self()) != 0)"))
                    }
                }
            }
        }

        func reject(_ failure: HTTPRequestFailure, method: String, path: String) -> HTTPResponse {
            HTTPResponse(status: 400)
        }
    }

    @Test("work resumes the suspended connection and runs on the worker thread that serves it")
    func runsOnTheWorker() throws {
        let server = try HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threads: 1), handler: Handler(ran: DispatchSemaphore(value: 0)))
        defer { server.stop(grace: .seconds(2)) }
        let client = try RawHTTPClient(port: server.port)
        for _ in 0..<3 {
            let response = try client.request("GET", "/work")
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == "true")
        }
    }

    @Test("a crowded server runs work that would resume a connection on a Dispatch thread")
    func crowdedRunsElsewhere() throws {
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, threads: 1)
        configuration.crowd = 0
        let server = try HTTPServer(configuration: configuration, handler: Handler(ran: DispatchSemaphore(value: 0)))
        defer { server.stop(grace: .seconds(2)) }
        let response = try RawHTTPClient(port: server.port).request("GET", "/work")
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "false")
    }

    @Test("work for a request whose client went away still runs")
    func strandedWorkRuns() throws {
        let ran = DispatchSemaphore(value: 0)
        let server = try HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threads: 1), handler: Handler(ran: ran))
        defer { server.stop(grace: .seconds(2)) }
        let client = try RawHTTPClient(port: server.port)
        try client.send(RawHTTPClient.requestBytes("GET", "/gone"))
        client.close()
        #expect(ran.wait(timeout: .now() + 10) == .success)
    }
}
