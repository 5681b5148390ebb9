import Dispatch
import Foundation
import Locking
import Testing

@testable import HTTPTestSupport
@testable import MicroHTTP

// Answers given inside a resume batch reach their clients together, when it ends; an answer
// given after it ended, by work started inside it, goes at once.

@Suite("Resume batches")
struct ResumeBatchTests {
    /// Keeps every request's promise, unanswered.
    struct Parking: HTTPHandler {
        let parked: Locked<[ResponsePromise]>

        func handle(_ request: HTTPRequest) -> HTTPReply {
            .later { promise in parked.withLock { $0.append(promise) } }
        }

        func reject(_ failure: HTTPRequestFailure, method: String, path: String) -> HTTPResponse {
            HTTPResponse(status: failure.status)
        }
    }

    /// A client handed to the one thread that reads from it from then on.
    struct HandedOver: @unchecked Sendable {
        let value: RawHTTPClient
    }

    /// A server that parks every request, and `count` clients whose requests are parked.
    static func parkedClients(_ count: Int) throws -> (HTTPServer, Locked<[ResponsePromise]>, [RawHTTPClient]) {
        let parked = Locked<[ResponsePromise]>([])
        let server = try HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threads: 2), handler: Parking(parked: parked))
        let clients = try (0..<count).map { _ in try RawHTTPClient(port: server.port, timeout: .seconds(10)) }
        for client in clients { try client.send(RawHTTPClient.requestBytes("GET", "/wait")) }
        #expect(eventually(within: .seconds(10)) { server.suspendedConnections == count })
        return (server, parked, clients)
    }

    @Test("answers given inside a batch reach every client, none before the batch ends")
    func answersWaitForTheEnd() throws {
        let (server, parked, clients) = try Self.parkedClients(3)
        defer { server.stop(grace: .seconds(2)) }
        let arrivals = Locked<[(status: Int, at: ContinuousClock.Instant)]>([])
        let read = DispatchGroup()
        for client in clients.map(HandedOver.init) {
            DispatchQueue.global().async(group: read) {
                if let response = try? client.value.readResponse() { arrivals.withLock { $0.append((response.status, .now)) } }
            }
        }
        // When: every request is answered in one batch, which goes on a while after
        let ended = ResumeBatch.collect { () -> ContinuousClock.Instant in
            for (index, promise) in parked.withLock({ $0 }).enumerated() {
                #expect(promise.fulfill(HTTPResponse(status: 200 + index)))
            }
            Thread.sleep(forTimeInterval: 0.3)
            return .now
        }
        // Then: each client has its answer, and none had it before the batch ended
        #expect(read.wait(timeout: .now() + 10) == .success)
        let received = arrivals.withLock { $0 }
        #expect(received.map(\.status).sorted() == [200, 201, 202])
        #expect(received.allSatisfy { $0.at >= ended }, "an answer was sent before its batch ended")
    }

    @Test("an answer given after the batch ended, by work started in it, is sent at once")
    func lateAnswerGoesAtOnce() async throws {
        let (server, parked, clients) = try Self.parkedClients(1)
        defer { server.stop(grace: .seconds(2)) }
        let promise = try #require(parked.withLock { $0.first })
        // When: a task started inside the batch (it carries the batch) answers once it ended
        let answered = ResumeBatch.collect {
            Task {
                try await Task.sleep(for: .milliseconds(200))
                return promise.fulfill(HTTPResponse(status: 204))
            }
        }
        #expect(try await answered.value)
        // Then: the answer reaches the client, no later resume needed
        #expect(try clients[0].readResponse().status == 204)
    }
}
