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

// Limits that keep one client, or many slow ones, from taking the server: connections per client
// address, the connection timeout for requests never finished, the URL length and the parameter
// bounds. Clients on 127.0.0.2, 127.0.0.3, … are distinct addresses to the server (Linux routes
// all of 127.0.0.0/8 to the loopback).

@Suite("Live server: limits")
struct LiveLimitTests {
    @Test("connections past the per-client limit are closed at once, while another address is served")
    func perClientLimit() throws {
        let configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, threads: 2, perClientConnectionLimit: 8)
        try withServer(try AlertService.forTests(), configuration: configuration) { port, _ in
            // Given 8 idle connections from 127.0.0.2, the limit for one address
            let held = try (0..<8).map { _ in try RawHTTPClient(port: port, source: "127.0.0.2") }
            #expect(try held[0].request("GET", "/livez").status == 200)
            // When 4 more come from the same address
            let refused = try (0..<4).map { _ in try RawHTTPClient(port: port, source: "127.0.0.2") }
            // Then each is closed without an answer
            for client in refused {
                #expect(client.closedByPeer(within: .seconds(5)), "a connection past the limit was kept")
            }
            // And another address is served meanwhile, as are the connections already held
            #expect(try RawHTTPClient(port: port, source: "127.0.0.3").request("GET", "/v1/catalogs").status == 200)
            #expect(try held[7].request("GET", "/livez").status == 200)
            // And once the first address closes its connections, it is served again
            held.forEach { $0.close() }
            #expect(eventually(within: .seconds(5)) {
                (try? RawHTTPClient(port: port, source: "127.0.0.2").request("GET", "/livez").status) == 200
            })
        }
    }

    @Test("600 clients that send half a request and stall do not stop a render, and are closed at their timeout")
    func stalledClients() throws {
        ResourceLimits.raiseOpenFileLimit()  // 600 connections, both ends in this process
        // Given a server with a 2 s connection timeout and the default per-client limit (128)
        let configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, threads: 2, connectionTimeout: 2)
        #expect(configuration.perClientConnectionLimit == 128)
        try withServer(try AlertService.forTests(), configuration: configuration) { port, _ in
            // When 600 clients, 60 from each of ten addresses, each send half a request head and stop
            var stalled: [RawHTTPClient] = []
            for index in 0..<600 {
                let client = try RawHTTPClient(port: port, timeout: .seconds(30), source: "127.0.0.\(2 + index % 10)")
                try client.send("GET /v1/catalogs/app/alerts/questionExit HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-")
                stalled.append(client)
            }
            // Then a normal render is answered while they are held
            for _ in 0..<5 {
                let render = try RawHTTPClient(port: port).request("GET", "/v1/catalogs/app/alerts/newMessages?count=3&sender=Ana")
                #expect(render.status == 200)
            }
            // And every stalled client is closed, without an answer, within a generous bound
            let deadline = ContinuousClock.now + .seconds(30)
            var open = 0
            for client in stalled {
                let left = max(deadline - ContinuousClock.now, .milliseconds(1))
                if !client.closedByPeer(within: left) { open += 1 }
            }
            #expect(open == 0, "\(open) stalled connections were never closed")
            // And the server serves as before
            #expect(try RawHTTPClient(port: port).request("GET", "/livez").status == 200)
        }
    }

    @Test("the URL limit counts the path and query; a longer one is 414, one within it is routed")
    func urlLength() throws {
        try withLiveServer { port in
            // 2,048 bytes in all pass the check (here: 404 for an unknown catalog, not 414)
            let base = "/v1/catalogs/"
            let within = base + String(repeating: "a", count: 2048 - base.utf8.count)
            #expect(try RawHTTPClient(port: port).request("GET", within).status == 404)
            // One more byte is 414
            try LiveProblemTests.expectCleanProblem(
                try RawHTTPClient(port: port).request("GET", within + "a"), status: 414, code: "url-too-long")
            // The query counts too
            try LiveProblemTests.expectCleanProblem(
                try RawHTTPClient(port: port).request("GET", "/livez?x=" + String(repeating: "b", count: 2100)),
                status: 414, code: "url-too-long")
        }
    }

    @Test("render parameters: a value over 1,024 bytes, or more than 32 parameters, is 400")
    func renderParameterLimits() throws {
        try withLiveServer { port in
            let long = try RawHTTPClient(port: port).request(
                "GET", "/v1/catalogs/app/alerts/newMessages?count=3&sender=" + String(repeating: "x", count: 1025))
            let problem = try LiveProblemTests.expectCleanProblem(long, status: 400)
            #expect(problem.detail.contains("1024"))
            let many = (0..<33).map { "p\($0)=1" }.joined(separator: "&")
            let crowded = try RawHTTPClient(port: port).request("GET", "/v1/catalogs/app/alerts/questionExit?" + many)
            #expect(try LiveProblemTests.expectCleanProblem(crowded, status: 400).detail.contains("32"))
        }
    }

    @Test("enqueue params: a value over 1,024 bytes, or more than 32 parameters, is 422 at /params")
    func enqueueParameterLimits() throws {
        try withLiveServer { port in
            let app = try SessionClient(port: port, session: "s")
            let long = String(repeating: "x", count: 1025)
            let many = (0..<33).map { #""p\#($0)":1"# }.joined(separator: ",")
            for body in [
                #"{"alert":"app/newMessages","params":{"count":3,"sender":"\#(long)"}}"#,
                #"{"alert":"app/questionExit","params":{\#(many)}}"#,
            ] {
                let issues = try expectInvalidRequest(try app.admin("POST", "/queue", json: body))
                #expect(issues.contains { $0.pointer == "/params" && $0.code == "too-large" }, "\(issues)")
            }
        }
    }
}
