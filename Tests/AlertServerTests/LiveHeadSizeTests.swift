import AlertServer
import Foundation
import MicroHTTP
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// What a browser behind a proxy sends: many header fields, cookies, a long head. Heads up to 100
// fields and 16 KiB (cookies included) are served at the defaults; larger ones are answered 431
// — by alertd (problem+json) while the head fits the connection's memory, by libmicrohttpd past
// that — and never closed without an answer.

@Suite("Live server: request head sizes")
struct LiveHeadSizeTests {
    /// A head to send and whether it must be served (else: answered 431).
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let headers: [(String, String)]
        let served: Bool
        var testDescription: String { name }
    }

    /// `count` fields named X-Field-NNN whose lines are about `lineBytes` long each.
    static func fields(_ count: Int, lineBytes: Int = 16) -> [(String, String)] {
        (0..<count).map { index in
            let name = "X-Field-\(String(format: "%03d", index))"
            return (name, String(repeating: "v", count: max(1, lineBytes - name.utf8.count - 4)))
        }
    }

    /// A Cookie field of `count` cookies making about `bytes` in all.
    static func cookie(_ count: Int, bytes: Int) -> (String, String) {
        let each = max(1, bytes / count - 7)
        return ("Cookie", (0..<count).map { "c\(String(format: "%03d", $0))=" + String(repeating: "x", count: each) }.joined(separator: "; "))
    }

    /// What a proxy in front adds.
    static let proxyFields: [(String, String)] = [
        ("X-Forwarded-For", "203.0.113.7, 198.51.100.2"), ("X-Forwarded-Proto", "https"), ("X-Forwarded-Host", "alerts.example"),
        ("X-Forwarded-Port", "443"), ("X-Real-IP", "203.0.113.7"), ("Forwarded", "for=203.0.113.7;proto=https"),
        ("Via", "1.1 proxy.example"), ("X-Request-Start", "t=1700000000000"), ("X-Amzn-Trace-Id", "Root=1-5759e988-bd862e3fe1be46a994272793"),
        ("User-Agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36"),
        ("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"), ("Accept-Language", "de-DE,de;q=0.9,en;q=0.8"),
        ("Accept-Encoding", "gzip, deflate, br"), ("Cache-Control", "no-cache"), ("Pragma", "no-cache"),
        ("Sec-Fetch-Mode", "navigate"), ("Referer", "https://alerts.example/console/sessions/ana-phone"),
    ]

    static let cases: [Case] = [
        Case(name: "50 small fields", headers: fields(50), served: true),
        Case(name: "52 small fields", headers: fields(52), served: true),
        Case(name: "99 small fields (100 with Host)", headers: fields(99), served: true),
        Case(name: "a 1 KB cookie and 17 proxy fields", headers: proxyFields + [cookie(20, bytes: 1024)], served: true),
        Case(name: "99 fields making 16,000 bytes", headers: fields(99, lineBytes: 160), served: true),
        Case(name: "a 15 KB cookie of 180 cookies", headers: Array(proxyFields.prefix(5)) + [cookie(180, bytes: 15_000)], served: true),
        Case(name: "101 small fields (102 with Host)", headers: fields(101), served: false),
        Case(name: "2,000 small fields", headers: fields(2000), served: false),
        Case(name: "a 17 KB field", headers: [("X-Big", String(repeating: "b", count: 17 * 1024))], served: false),
        Case(name: "a 20 KB cookie of 50 cookies", headers: [cookie(50, bytes: 20 * 1024)], served: false),
        Case(name: "99 fields making 24 KB", headers: fields(99, lineBytes: 250), served: false),
        Case(name: "a 100 KB field", headers: [("X-Big", String(repeating: "b", count: 100 * 1024))], served: false),
        Case(name: "a 200 KB cookie", headers: [("Cookie", "a=" + String(repeating: "b", count: 200 * 1024))], served: false),
    ]

    @Test("heads within 100 fields and 16 KiB are served; larger ones are answered 431", arguments: cases)
    func headSizes(_ head: Case) throws {
        try withLiveServer { port in
            let client = try RawHTTPClient(port: port, timeout: .seconds(10))
            do { try client.send(RawHTTPClient.requestBytes("GET", "/v1/catalogs/app/alerts/questionExit", headers: head.headers)) } catch {
                // The server may answer and close before reading everything: the answer still counts.
            }
            // Answered, never closed without a response (a close without one throws here)
            let response = try client.readResponse()
            if head.served {
                #expect(response.status == 200, "\(head.name): \(response.status) \(response.text.prefix(200))")
            } else if response.mediaType == "application/problem+json" {
                try LiveProblemTests.expectCleanProblem(response, status: 431, code: "too-many-headers")
            } else {
                // Past the connection's memory: libmicrohttpd's own 431, and a close
                #expect(response.status == 431, "\(head.name): \(response.status)")
                #expect(response.closesConnection)
            }
            #expect(try RawHTTPClient(port: port).request("GET", "/livez").status == 200)
        }
    }

    @Test("a head just over 16 KiB that fits the connection's memory is alertd's 431 problem, naming the limit")
    func justOverTheLimit() throws {
        try withLiveServer { port in
            let response = try RawHTTPClient(port: port).request("GET", "/livez", headers: Self.fields(60, lineBytes: 300))
            let problem = try LiveProblemTests.expectCleanProblem(response, status: 431, code: "too-many-headers")
            #expect(problem.detail.contains("16384"), "\(problem.detail)")
        }
    }
}
