import AlertServer
import Foundation
import MicroHTTP
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// Requests that a proxy, a cache or a browser could read differently from alertd are refused
// with a problem, never served as something else: control characters in the target (a NUL cut
// a path short), paths in any but their one canonical form, a missing or doubled `Host`, a
// doubled `Authorization`. Every case is answered (a response is read), then closed.

@Suite("Live server: strict request targets and headers")
struct StrictRequestTests {
    /// One request line and its head, sent as raw bytes, and the problem it must get.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        let status: Int
        let code: String
        var testDescription: String { name }

        init(_ name: String, _ bytes: [UInt8], _ status: Int, _ code: String) {
            (self.name, self.bytes, self.status, self.code) = (name, bytes, status, code)
        }

        /// `GET target` with a Host (and `extra` header lines).
        init(_ name: String, target: [UInt8], extra: String = "", _ status: Int, _ code: String) {
            self.init(name, Array("GET ".utf8) + target + Array(" HTTP/1.1\r\nHost: 127.0.0.1\r\n\(extra)\r\n".utf8), status, code)
        }

        init(_ name: String, target: String, extra: String = "", _ status: Int, _ code: String) {
            self.init(name, target: Array(target.utf8), extra: extra, status, code)
        }
    }

    static let controls: [Case] = [
        Case("%00 in the path", target: "/v1/catalogs/app%00/alerts/questionExit", 400, "bad-encoding"),
        Case("a raw NUL in the path", target: Array("/v1/catalogs/app".utf8) + [0] + Array("/alerts/questionExit".utf8), 400, "bad-encoding"),
        Case("a raw NUL at the end of the target", target: Array("/v1/catalogs".utf8) + [0], 400, "bad-encoding"),
        Case("%01 in the path", target: "/v1/catalogs/a%01b", 400, "bad-encoding"),
        Case("a raw 0x01 in the path", target: Array("/v1/catalogs/a".utf8) + [1] + Array("b".utf8), 400, "bad-encoding"),
        Case("%1F in a query value", target: "/v1/catalogs/app/alerts/newMessages?count=3&sender=a%1Fb", 400, "bad-encoding"),
        Case("%0A in a query name", target: "/v1/catalogs?x%0Ay=1", 400, "bad-encoding"),
        Case("%7F in the path", target: "/v1/catalogs/%7F", 400, "bad-encoding"),
        Case("a raw DEL in the query", target: Array("/v1/catalogs?x=".utf8) + [0x7F], 400, "bad-encoding"),
        Case("a raw tab in the path", target: "/v1/cata\tlogs", 400, "bad-encoding"),
    ]

    static let paths: [Case] = [
        Case("a leading //", target: "//v1/catalogs", 404, "not-found"),
        Case("// inside", target: "/v1//catalogs/app", 404, "not-found"),
        Case("a trailing /", target: "/v1/catalogs/", 404, "not-found"),
        Case("a trailing / before the query", target: "/v1/catalogs/?x=1", 404, "not-found"),
        Case("a . segment", target: "/v1/./catalogs", 404, "not-found"),
        Case("a .. segment", target: "/v1/catalogs/app/../app", 404, "not-found"),
        Case("a final ..", target: "/v1/catalogs/app/..", 404, "not-found"),
        Case("%2e%2e", target: "/v1/catalogs/%2e%2e/catalogs", 404, "not-found"),
        Case("%2E", target: "/v1/%2E/catalogs", 404, "not-found"),
        Case("%2F making //", target: "/v1/%2Fcatalogs", 404, "not-found"),
        Case("%2F as a trailing /", target: "/v1/catalogs%2F", 404, "not-found"),
        Case("an absolute URI", target: "http://127.0.0.1/v1/catalogs", 404, "not-found"),
    ]

    static let headers: [Case] = [
        Case("HTTP/1.1 without Host", Array("GET /v1/catalogs HTTP/1.1\r\nAccept: */*\r\n\r\n".utf8), 400, "bad-request"),
        Case("two Host headers", target: "/v1/catalogs", extra: "Host: elsewhere.example\r\n", 400, "bad-request"),
        Case("two Host headers, other cases", target: "/v1/catalogs", extra: "HOST: 127.0.0.1\r\n", 400, "bad-request"),
        Case(
            "two Authorization headers (admin and junk)",
            Array(("POST /v1/sessions/s/queue HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(TestCredentials.adminToken)\r\n"
                + "Authorization: Bearer junk\r\nContent-Type: application/json\r\nContent-Length: 28\r\n\r\n"
                + #"{"alert":"app/questionExit"}"#).utf8),
            400, "bad-request"),
    ]

    @Test("a control character in the target, raw or percent-encoded, is 400 bad-encoding", arguments: controls)
    func controlCharacters(_ strict: Case) throws { try check(strict) }

    @Test("a path not in its canonical form is 404 not-found, not served", arguments: paths)
    func nonCanonicalPaths(_ strict: Case) throws { try check(strict) }

    @Test("a missing or doubled Host, or a doubled Authorization, is 400 bad-request", arguments: headers)
    func ambiguousHeaders(_ strict: Case) throws { try check(strict) }

    @Test("the canonical forms are served: the root, a percent-encoded letter, HTTP/1.0 without Host, one of each header")
    func canonicalServed() throws {
        try withLiveServer { port in
            #expect(try RawHTTPClient(port: port).request("GET", "/v1/catalogs/%61pp/alerts/questionExit").status == 200)
            #expect(try RawHTTPClient(port: port).request("GET", "/v1/catalogs?x=%20y").status == 200)
            let old = try RawHTTPClient(port: port)
            try old.send("GET /livez HTTP/1.0\r\n\r\n")
            #expect(try old.readResponse().status == 200)
            let enqueue = try RawHTTPClient(port: port).request(
                "POST", "/v1/sessions/s/queue",
                headers: [("Authorization", "Bearer \(TestCredentials.adminToken)"), ("Content-Type", "application/json")],
                body: Array(#"{"alert":"app/questionExit"}"#.utf8))
            #expect(enqueue.status == 201)
        }
    }

    private func check(_ strict: Case, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try withLiveServer { port in
            let client = try RawHTTPClient(port: port, timeout: .seconds(10))
            try client.send(strict.bytes)
            // Answered: a whole response is read (a close without one throws here)
            let response = try client.readResponse(method: "GET")
            let problem = try LiveProblemTests.expectCleanProblem(
                response, status: strict.status, code: strict.code, sourceLocation: sourceLocation)
            #expect(!problem.detail.isEmpty, sourceLocation: sourceLocation)
            // And the server still serves
            #expect(try RawHTTPClient(port: port).request("GET", "/livez").status == 200, sourceLocation: sourceLocation)
        }
    }
}
