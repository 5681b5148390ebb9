import Foundation
import Locking
import MicroHTTP
import Testing
@testable import HTTPTestSupport

// Responses whose body is `SharedBytes` are handed to libmicrohttpd without a copy: MHD holds a
// retain until it is done. These run under ASan and TSan too (`make test-sanitizers`), which is
// where a body freed too early or a retain crossing threads unsafely would show.

@Suite("SharedBytes responses")
struct SharedBytesTests {
    /// Answers every request with bytes made for it and dropped by the handler at once (so only
    /// MHD's retain keeps them alive), or with one long-lived buffer shared by all requests.
    struct Handler: HTTPHandler {
        let shared: SharedBytes

        func handle(_ request: HTTPRequest) -> HTTPReply {
            if request.path == "/fresh" {
                let bytes = (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
                return .respond(HTTPResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: SharedBytes(bytes)))
            }
            if request.path == "/later" {
                let body = shared
                return .later { promise in
                    DispatchQueue.global().async { _ = promise.fulfill(HTTPResponse(status: 200, body: body)) }
                }
            }
            return .respond(HTTPResponse(status: 200, body: shared))
        }

        func reject(_ failure: HTTPRequestFailure, method: String, path: String) -> HTTPResponse {
            HTTPResponse(status: 400)
        }
    }

    static let expectedFresh = (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }

    @Test("bytes made per request and dropped by the handler arrive whole; shared ones too, from many threads")
    func bodiesArriveWhole() throws {
        let shared = SharedBytes(Array("{\"shared\":true}".utf8))
        let server = try HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threads: 2), handler: Handler(shared: shared))
        defer { server.stop(grace: .seconds(2)) }
        let port = server.port
        let problems = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            do {
                let client = try RawHTTPClient(port: port)
                for round in 0..<25 {
                    let path = ["/fresh", "/shared", "/later"][(worker + round) % 3]
                    let response = try client.request("GET", path)
                    let expected = path == "/fresh" ? Self.expectedFresh : Array("{\"shared\":true}".utf8)
                    if response.status != 200 || response.body != expected {
                        problems.withLock { $0.append("\(path): \(response.status), \(response.body.count) bytes") }
                    }
                }
            } catch {
                problems.withLock { $0.append("\(error)") }
            }
        }
        #expect(problems.withLock { $0 } == [])
        #expect(shared.array == Array("{\"shared\":true}".utf8))
    }

    @Test("a response's body reads the same whether owned or shared")
    func bodyAccessor() {
        let bytes: [UInt8] = [1, 2, 3]
        #expect(HTTPResponse(status: 200, body: SharedBytes(bytes)).body == bytes)
        var response = HTTPResponse(status: 200, body: SharedBytes(bytes))
        response.body = [4]
        #expect(response.body == [4])
        #expect(SharedBytes(bytes) == SharedBytes(bytes))
        #expect(SharedBytes([UInt8]()).count == 0)
    }
}
