#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AlertServer
import Foundation
import MicroHTTP
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// Hostile bytes over raw sockets: broken request lines, ambiguous framing, oversized heads,
// random bytes, bad UTF-8, deep JSON, huge numbers. Each must get a clean refusal — a 4xx
// (problem+json when alertd answers; libmicrohttpd answers what never reaches alertd, with its
// own short HTML page, and closes) — or a closed connection; and the server serves afterwards.

@Suite("Live server: hostile input")
struct HostileInputTests {
    /// One hostile exchange: the bytes, and the statuses libmicrohttpd may answer by itself.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        /// Statuses libmicrohttpd gives on its own (HTML body, connection closed); alertd's own
        /// answers must be 4xx problem+json.
        var libraryStatuses: Set<Int> = [400, 413, 414, 431]
        /// alertd must answer this problem code, and close the connection after it.
        var refusal: String?
        var testDescription: String { name }

        init(_ name: String, _ bytes: [UInt8], libraryStatuses: Set<Int> = [400, 413, 414, 431]) {
            self.name = name
            self.bytes = bytes
            self.libraryStatuses = libraryStatuses
        }

        /// The same case, answered by alertd with `code` and a closed connection.
        func refused(_ code: String) -> Case {
            var copy = self
            copy.refusal = code
            return copy
        }

        init(_ name: String, _ text: String, libraryStatuses: Set<Int> = [400, 413, 414, 431]) {
            self.init(name, Array(text.utf8), libraryStatuses: libraryStatuses)
        }

        /// A POST with a JSON body given as bytes, with the admin token.
        static func post(_ name: String, _ path: String, _ body: [UInt8]) -> Case {
            Case(
                name,
                RawHTTPClient.requestBytes(
                    "POST", path,
                    headers: [("Authorization", "Bearer \(TestCredentials.adminToken)"), ("Content-Type", "application/json")],
                    body: body))
        }

        static func post(_ name: String, _ path: String, _ body: String) -> Case { post(name, path, Array(body.utf8)) }
    }

    static let validate = "/v1/specs/validate"
    static let enqueue = "/v1/sessions/s/queue"
    static let head = "POST /v1/specs/validate HTTP/1.1\r\nHost: 127.0.0.1\r\n"

    static let requestLines: [Case] = [
        Case("no method, no version", "HELLO\r\n\r\n"),
        Case("a method alone", "GET\r\n\r\n"),
        Case("HTTP/0.9 style", "GET /livez\r\n\r\n"),
        Case("four parts", "GET /livez HTTP/1.1 extra\r\nHost: x\r\n\r\n"),
        Case("an unknown version", "GET /livez HTTP/9.9\r\nHost: x\r\n\r\n", libraryStatuses: [400, 505]),
        Case("blank lines only", "\r\n\r\n\r\n\r\n"),
        Case("a 5,000-byte method", String(repeating: "A", count: 5000) + " /livez HTTP/1.1\r\n\r\n"),
        Case("an absolute URI to an unknown path", "GET http://elsewhere.example/admin HTTP/1.1\r\nHost: x\r\n\r\n"),
        Case("raw 0xFF in the path", Array("GET /v1/catalogs/".utf8) + [0xFF, 0xFE] + Array(" HTTP/1.1\r\nHost: x\r\n\r\n".utf8)),
        Case("a control character in the path", "GET /v1/catalogs/a\u{1}b HTTP/1.1\r\nHost: x\r\n\r\n"),
    ]

    static let framing: [Case] = [
        Case("a negative Content-Length", head + "Content-Length: -5\r\n\r\n{}"),
        Case("a Content-Length in hex", head + "Content-Length: 0x2\r\n\r\n{}"),
        Case("a Content-Length of 10^23", head + "Content-Length: 99999999999999999999999\r\n\r\n{}"),
        Case("two different Content-Lengths", head + "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}x").refused("bad-framing"),
        Case("the same Content-Length twice", head + "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}").refused("bad-framing"),
        Case("Content-Length twice, in other cases", head + "content-length: 2\r\nCONTENT-LENGTH: 2\r\n\r\n{}").refused("bad-framing"),
        Case("TRANSFER-ENCODING gzip", head + "TRANSFER-ENCODING: gzip\r\n\r\n{}").refused("bad-framing"),
        Case("Content-Length with Transfer-Encoding", head + "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n")
            .refused("bad-framing"),
        Case("Transfer-Encoding gzip", head + "Transfer-Encoding: gzip\r\n\r\n{}").refused("bad-framing"),
        Case("Transfer-Encoding chunked twice", head + "Transfer-Encoding: chunked, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n")
            .refused("bad-framing"),
        Case("a blank before the colon", head + "Content-Length : 2\r\n\r\n{}").refused("bad-framing"),
        Case("a chunk size that is not hex", head + "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"),
        Case("a chunk size of 2^80", head + "Transfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFF\r\n{}\r\n0\r\n\r\n"),
        Case("Expect: 100-continue with a huge body", head + "Expect: 100-continue\r\nContent-Length: 50000000\r\n\r\n"),
    ]

    static let sizes: [Case] = [
        Case("a 70 KB URL", "GET /v1/catalogs/" + String(repeating: "a", count: 70_000) + " HTTP/1.1\r\nHost: x\r\n\r\n"),
        Case("a 70 KB query", "GET /livez?q=" + String(repeating: "%41", count: 23_000) + " HTTP/1.1\r\nHost: x\r\n\r\n"),
        Case("a 200 KB header", "GET /livez HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "b", count: 200_000) + "\r\n\r\n"),
        Case("2,000 header fields", "GET /livez HTTP/1.1\r\nHost: x\r\n" + (0..<2000).map { "X-\($0): 1\r\n" }.joined() + "\r\n"),
    ]

    static let encodings: [Case] = [
        Case.post("invalid UTF-8 in a spec", validate, Array(#"{"kind":"alert","title":""#.utf8) + [0xFF, 0xC0, 0xAF] + Array(#""}"#.utf8)),
        Case.post("invalid UTF-8 in an enqueue", enqueue, Array(#"{"alert":"app/newMessages","params":{"count":3,"sender":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}}"#.utf8)),
        Case("invalid UTF-8 in a query value", "GET /v1/catalogs/app/alerts/newMessages?count=3&sender=%C3%28 HTTP/1.1\r\nHost: x\r\n\r\n"),
        Case("a NUL byte in a query value", "GET /v1/catalogs/app/alerts/newMessages?count=3&sender=Ana%00Admin HTTP/1.1\r\nHost: x\r\n\r\n")
            .refused("bad-encoding"),
        // libmicrohttpd reads a header value as a C string, so a NUL ends it: a token cut short is wrong
        Case("a NUL byte inside the token", "GET /v1/sessions/s/queue HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(TestCredentials.adminToken.dropLast(2))\0\(TestCredentials.adminToken.suffix(2))\r\n\r\n"),
        Case.post("UTF-16 JSON", validate, [0xFF, 0xFE] + Array(#"{"kind":"alert"}"#.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })),
    ]

    static let json: [Case] = [
        Case.post("10,000 nested arrays to validate", validate, String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)),
        Case.post("10,000 nested objects to validate", validate, String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)),
        Case.post("10,000 nested objects as a spec", enqueue, #"{"spec":"# + String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_001)),
        Case.post("10,000 nested arrays as a parameter", enqueue, #"{"alert":"app/newMessages","params":{"count":"# + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}}"),
        Case.post("priority 1e400", enqueue, #"{"alert":"app/questionExit","priority":1e400}"#),
        Case.post("priority 2^70", enqueue, #"{"alert":"app/questionExit","priority":1180591620717411303424}"#),
        Case.post("priority -2^63-1", enqueue, #"{"alert":"app/questionExit","priority":-9223372036854775809}"#),
        Case.post("ttl 1e400", enqueue, #"{"alert":"app/questionExit","ttl":1e400}"#),
        Case.post("ttl 2^70", enqueue, #"{"alert":"app/questionExit","ttl":1180591620717411303424}"#),
        Case.post("ttl -1e308", enqueue, #"{"alert":"app/questionExit","ttl":-1e308}"#),
        Case.post("a parameter of 1e400", enqueue, #"{"alert":"app/newMessages","params":{"count":1e400,"sender":"x"}}"#),
        Case.post("a parameter of 2^70", enqueue, #"{"alert":"app/newMessages","params":{"count":1180591620717411303424,"sender":"x"}}"#),
        Case.post("a number of 100,000 digits", validate, #"{"kind":"hud","state":"progress","progress":"# + String(repeating: "9", count: 100_000) + "}"),
        Case.post("a token ttl of 1e400", "/v1/sessions/s/token", #"{"ttl":1e400}"#),
        Case("a render with count=2^70", "GET /v1/catalogs/app/alerts/newMessages?count=1180591620717411303424&sender=x HTTP/1.1\r\nHost: x\r\n\r\n"),
        Case("a render with count=1e400", "GET /v1/catalogs/app/alerts/newMessages?count=1e400&sender=x HTTP/1.1\r\nHost: x\r\n\r\n"),
    ]

    @Test("broken request lines", arguments: requestLines)
    func requestLine(_ hostile: Case) throws { try check(hostile) }

    @Test("ambiguous or broken body framing", arguments: framing)
    func bodyFraming(_ hostile: Case) throws { try check(hostile) }

    @Test("oversized URLs and heads", arguments: sizes)
    func oversized(_ hostile: Case) throws { try check(hostile) }

    @Test("bad encodings in bodies, queries and headers", arguments: encodings)
    func badEncoding(_ hostile: Case) throws { try check(hostile) }

    @Test("deep JSON and huge numbers", arguments: json)
    func hostileJSON(_ hostile: Case) throws { try check(hostile) }

    @Test("random bytes (seeded), alone and as a body")
    func randomBytes() throws {
        var generator = SplitMix64(seed: 0x616c_6572_7464)
        var cases: [Case] = []
        for round in 0..<40 {
            let count = Int.random(in: 1...6000, using: &generator)
            let noise = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            cases.append(Case("noise \(round) (\(count) bytes)", noise))
            cases.append(Case("noise body \(round)", Array((Self.head + "Content-Length: \(count)\r\n\r\n").utf8) + noise))
            // A valid request line, then noise as the head
            cases.append(Case("noise head \(round)", Array("GET /livez HTTP/1.1\r\n".utf8) + noise + Array("\r\n\r\n".utf8)))
        }
        try withLiveServer(connectionTimeout: 2) { port in
            for hostile in cases { try Self.exchange(hostile, port: port) }
        }
    }

    private func check(_ hostile: Case) throws {
        try withLiveServer(connectionTimeout: 2) { port in try Self.exchange(hostile, port: port) }
    }

    /// Sends the case on a new connection and checks the answer and that the server still serves.
    static func exchange(_ hostile: Case, port: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let client = try RawHTTPClient(port: port, timeout: .seconds(10))
        do { try client.send(hostile.bytes) } catch {
            // The server may close before reading everything: what it answered still counts.
        }
        do {
            let response = try client.readResponse(method: "POST")
            if let code = hostile.refusal {
                try LiveProblemTests.expectCleanProblem(response, status: 400, code: code, sourceLocation: sourceLocation)
                if code == "bad-framing" {
                    #expect(client.closedByPeer(within: .seconds(5)), "\(hostile.name): kept open", sourceLocation: sourceLocation)
                }
            } else if response.mediaType == "application/problem+json" {
                let problem = try LiveProblemTests.expectCleanProblem(response, status: response.status, sourceLocation: sourceLocation)
                #expect((400..<500).contains(problem.status), "\(hostile.name): \(response.status) \(response.text)", sourceLocation: sourceLocation)
            } else {
                // libmicrohttpd's own refusal: an error status, and the connection closed
                #expect(
                    hostile.libraryStatuses.contains(response.status), "\(hostile.name): \(response.status) \(response.text.prefix(200))",
                    sourceLocation: sourceLocation)
                #expect(response.closesConnection, "\(hostile.name): a library refusal keeps the connection", sourceLocation: sourceLocation)
            }
        } catch RawHTTPError.closed {
            // Closed without an answer: a clean refusal too, unless alertd had to answer.
            if hostile.refusal != nil { Issue.record("\(hostile.name): closed without an answer", sourceLocation: sourceLocation) }
        } catch RawHTTPError.timeout {
            // Neither an answer nor a close in 10 s: the connection timeout (2 s) should have closed it.
            Issue.record("\(hostile.name): no answer and no close", sourceLocation: sourceLocation)
        } catch RawHTTPError.malformed(let what) {
            Issue.record("\(hostile.name): a malformed answer: \(what)", sourceLocation: sourceLocation)
        }
        client.close()
        // And the server still serves
        let after = try RawHTTPClient(port: port).request("GET", "/v1/catalogs/app/alerts/questionExit")
        #expect(after.status == 200, "\(hostile.name): the server no longer serves", sourceLocation: sourceLocation)
    }
}
