import AlertServer
import Foundation
import Logging
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// One line per request, in text or JSON, through swift-log: method, path, status, body bytes,
// duration, request id and route — never the query string, never a header (tokens travel in
// `Authorization`), never a raw control character.

@Suite("Request log lines")
struct RequestLogTests {
    @Test("text: a line per request with its fields; neither the query's token nor the Authorization header")
    func textLine() throws {
        // Given a service logging text at info
        let logs = LogCollector()
        try withLiveService(logger: logs.logger(.text)) { port, _ in
            // When a client renders an alert with a token in its query and its Authorization header
            let response = try RawHTTPClient(port: port).request(
                "GET", "/v1/catalogs/app/alerts/newMessages?locale=fr&count=2&sender=query-secret-1",
                headers: [("Authorization", "Bearer header-secret-1"), ("X-Request-Id", "log-text-1")])
            #expect(response.status == 200)

            // Then its line says what happened, in order
            let line = try #require(logs.line(containing: "request_id=log-text-1"), "lines: \(logs.all)")
            let pattern = #/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z info request method=GET path=/v1/catalogs/app/alerts/newMessages status=200 bytes=(\d+) duration_ms=\d+\.\d{3} request_id=log-text-1 route=/v1/catalogs/\{catalog\}/alerts/\{type\}\n$/#
            let match = try #require(line.wholeMatch(of: pattern), "line: \(line)")
            #expect(Int(match.1) == response.body.count)
            // And holds no secret, nor anything of the query
            #expect(!line.contains("secret") && !line.contains("locale") && !line.contains("Bearer"))
        }
    }

    @Test("json: one object per line with numbers as numbers; no token either")
    func jsonLine() throws {
        // Given a service logging JSON
        let logs = LogCollector()
        try withLiveService(logger: logs.logger(.json)) { port, _ in
            // When a client calls with a session token in the query and an admin token in the header
            let response = try RawHTTPClient(port: port).request(
                "GET", "/v1/sessions/s1/queue?token=query-secret-2",
                headers: [("Authorization", "Bearer \(TestCredentials.adminToken)"), ("X-Request-Id", "log-json-1")])
            #expect(response.status == 200)

            // Then the line is one JSON object with the request's fields
            let line = try #require(logs.line(containing: "log-json-1"), "lines: \(logs.all)")
            #expect(line.hasSuffix("}\n") && line.filter { $0 == "\n" }.count == 1)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["level"] as? String == "info")
            #expect(object["message"] as? String == "request")
            #expect(object["method"] as? String == "GET")
            #expect(object["path"] as? String == "/v1/sessions/s1/queue")
            #expect(object["route"] as? String == "/v1/sessions/{session}/queue")
            #expect(object["status"] as? Int == 200)
            #expect(object["bytes"] as? Int == response.body.count)
            #expect((object["duration_ms"] as? Double).map { $0 >= 0 } == true)
            #expect(object["request_id"] as? String == "log-json-1")
            let time = try #require(object["time"] as? String)
            #expect(time.wholeMatch(of: #/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z/#) != nil, "time: \(time)")
            // And no secret
            #expect(!line.contains("secret") && !line.contains(TestCredentials.adminToken))
        }
    }

    @Test("control characters in a path stay escaped: a line is one line, in text and JSON")
    func controlCharacters() throws {
        for format in LogFormat.allCases {
            // Given a service logging in this format
            let logs = LogCollector()
            try withLiveService(logger: logs.logger(format)) { port, _ in
                // When a path decodes to a newline, an escape and a quote (refused: 400 bad-encoding)
                let response = try RawHTTPClient(port: port).request(
                    "GET", "/v1/x%0Afake%20line%1B%22", headers: [("X-Request-Id", "log-ctl-\(format)")])
                #expect(response.status == 400)

                // Then its line has them escaped, and unmatched as its route
                let line = try #require(logs.line(containing: "log-ctl-\(format)"), "lines: \(logs.all)")
                #expect(line.filter { $0 == "\n" }.count == 1 && !line.contains("\u{1B}"), "line: \(line)")
                switch format {
                case .text:
                    #expect(line.contains(#"path="/v1/x\nfake line\u{1b}\"""#), "line: \(line)")
                    #expect(line.contains("status=400") && line.contains("route=unmatched"))
                case .json:
                    let parsed = try JSONSerialization.jsonObject(with: Data(line.utf8))
                    let object = try #require(parsed as? [String: Any])
                    #expect(object["path"] as? String == "/v1/x\nfake line\u{1B}\"")
                    #expect(object["route"] as? String == "unmatched")
                }
            }
        }
    }

    @Test("above info no request is logged; refusals are logged like any request")
    func levels() throws {
        // Given one service logging at notice and one at info
        let quiet = LogCollector()
        try withLiveService(logger: quiet.logger(.text, level: .notice)) { port, _ in
            // When a client calls
            let client = try RawHTTPClient(port: port)
            #expect(try client.request("GET", "/livez").status == 200)
            // Then nothing is written: its line, if any, would be written when the request
            // completes, before a next request on the same connection is answered
            #expect(try client.request("GET", "/livez").status == 200)
            #expect(quiet.all.isEmpty, "lines: \(quiet.all)")
        }
        let logs = LogCollector()
        try withLiveService(logger: logs.logger(.text)) { port, _ in
            // When a request is refused before its body is read (declared larger than the limit)
            let response = try RawHTTPClient(port: port).request(
                "POST", "/v1/specs/validate",
                headers: [("Content-Type", "application/json"), ("Content-Length", "99999999"), ("X-Request-Id", "log-refused-1")],
                body: [])
            #expect(response.status == 413)
            // Then it has its line too
            let line = try #require(logs.line(containing: "status=413"), "lines: \(logs.all)")
            #expect(line.contains("method=POST path=/v1/specs/validate status=413") && line.contains("route=unmatched"), "line: \(line)")
            #expect(line.contains("request_id=log-refused-1"), "line: \(line)")
        }
    }
}
