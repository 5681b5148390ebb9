import Foundation
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// X-Request-Id: the client's when it is 1 to 128 visible ASCII characters, else one made by
// the server; echoed on every answer, problems, refusals and 304s included.

@Suite("X-Request-Id")
struct RequestIDTests {
    /// What a made id looks like.
    static func isMade(_ id: String) -> Bool {
        id.utf8.count == 15 && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x76).contains($0) }
    }

    @Test("a usable id is echoed as it was sent")
    func echoed() throws {
        try withLiveServer { port in
            for id in ["abc-123", "a", "Req_42.x:y/z+=@!~", String(repeating: "7", count: 128)] {
                let response = try RawHTTPClient(port: port).request("GET", "/livez", headers: [("X-Request-Id", id)])
                #expect(response.header("X-Request-Id") == id)
            }
        }
    }

    @Test("without one, each request gets a new id of its own")
    func generated() throws {
        try withLiveServer { port in
            let client = try RawHTTPClient(port: port)
            let ids = try (0..<5).map { _ in try #require(try client.request("GET", "/livez").header("X-Request-Id")) }
            #expect(ids.allSatisfy(Self.isMade), "\(ids)")
            #expect(Set(ids).count == 5)
        }
    }

    @Test("an unusable id is replaced, not echoed", arguments: [
        String(repeating: "x", count: 129), "two words", "tab\there", "caf\u{E9}",
    ])
    func replaced(_ id: String) throws {
        try withLiveServer { port in
            let response = try RawHTTPClient(port: port).request("GET", "/livez", headers: [("X-Request-Id", id)])
            #expect(response.status == 200)
            let answered = try #require(response.header("X-Request-Id"))
            #expect(answered != id)
            #expect(Self.isMade(answered), "\(answered)")
        }
    }

    @Test("problems, refusals, 304s and long-poll answers carry it too")
    func everyAnswer() throws {
        try withLiveServer { port in
            let client = try RawHTTPClient(port: port)
            // 404 problem
            let missing = try client.request("GET", "/nowhere", headers: [("X-Request-Id", "id-404")])
            #expect(missing.status == 404 && missing.header("X-Request-Id") == "id-404")
            // 401 problem from an async route
            let unauthorized = try client.request("GET", "/v1/sessions/s/queue", headers: [("X-Request-Id", "id-401")])
            #expect(unauthorized.status == 401 && unauthorized.header("X-Request-Id") == "id-401")
            // 304
            let spec = try client.request("GET", "/v1/catalogs/app/alerts/questionExit")
            let tag = try #require(spec.header("ETag"))
            let notModified = try client.request(
                "GET", "/v1/catalogs/app/alerts/questionExit", headers: [("If-None-Match", tag), ("X-Request-Id", "id-304")])
            #expect(notModified.status == 304 && notModified.header("X-Request-Id") == "id-304")
            // 204 after a long-poll's wait
            let app = try SessionClient.open(port: port, session: "ids")
            let empty = try app.next(wait: 1, headers: [("X-Request-Id", "id-204")])
            #expect(empty.status == 204 && empty.header("X-Request-Id") == "id-204")
            // a refusal before the request was read (413, the connection closed after it)
            let tooLarge = try RawHTTPClient(port: port).request(
                "POST", "/v1/specs/validate",
                headers: [("Content-Type", "application/json"), ("Content-Length", "99999999"), ("X-Request-Id", "id-413")], body: [])
            #expect(tooLarge.status == 413 && tooLarge.header("X-Request-Id") == "id-413")
        }
    }
}
