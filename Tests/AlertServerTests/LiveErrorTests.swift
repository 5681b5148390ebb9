#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AlertCatalogs
import AlertServer
import AlertSpec
import Dispatch
import Foundation
import MicroHTTP
import Synchronization
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// Errors: problem+json for every refusal, checked over real sockets against the real server: MicroHTTP on libmicrohttpd
// serving AlertService with the built-in catalogs, on an ephemeral port.

@Suite("Live server: errors")
struct LiveErrorTests {
    @Test("newMessages without parameters is 400 naming count")
    func missingParameter() throws {
        try withLiveServer { port in
            // Given an alert with required parameters
            // When it is rendered without any
            let response = try RawHTTPClient(port: port).request("GET", "/v1/catalogs/app/alerts/newMessages")
            // Then the problem names the first missing parameter and its type
            let problem = try expectProblem(response, status: 400)
            #expect(problem.parameter == "count")
            #expect(problem.expected == "integer")
        }
    }

    @Test("A parameter of the wrong type is 400 naming it and the expected type")
    func mistypedParameter() throws {
        try withLiveServer { port in
            // Given newMessages, whose count is an integer
            // When count is not a number
            let response = try RawHTTPClient(port: port).request(
                "GET", "/v1/catalogs/app/alerts/newMessages?count=abc&sender=x")
            // Then the problem says count should be an integer
            let problem = try expectProblem(response, status: 400)
            #expect(problem.parameter == "count")
            #expect(problem.expected == "integer")
            #expect(problem.detail.contains("abc"))
        }
    }

    @Test(
        "An unknown parameter is 400 naming it",
        arguments: [
            "/v1/catalogs/app/alerts/questionExit?cout=3",
            "/v1/catalogs/app/alerts/newMessages?count=3&sender=Ana&cout=3",
        ])
    func unknownParameter(target: String) throws {
        try withLiveServer { port in
            // Given an alert that has no parameter `cout`
            // When a client passes one
            let response = try RawHTTPClient(port: port).request("GET", target)
            // Then it is refused and named
            let problem = try expectProblem(response, status: 400)
            #expect(problem.parameter == "cout")
        }
    }

    @Test("A parameter given twice is 400")
    func repeatedParameter() throws {
        try withLiveServer { port in
            // Given newMessages
            // When count is given twice
            let response = try RawHTTPClient(port: port).request(
                "GET", "/v1/catalogs/app/alerts/newMessages?count=3&count=4&sender=Ana")
            // Then it is refused, not silently resolved
            let problem = try expectProblem(response, status: 400)
            #expect(problem.detail.contains("count"))
        }
    }

    @Test(
        "Unknown catalogs, alert types and paths are 404 problems",
        arguments: [
            "/v1/catalogs/nope",
            "/v1/catalogs/nope/alerts/questionExit",
            "/v1/catalogs/app/alerts/nope",
            "/nope",
            "/v1/catalogs/app/alerts",
        ])
    func notFound(target: String) throws {
        try withLiveServer { port in
            // Given a server
            // When a client asks for something that does not exist
            let response = try RawHTTPClient(port: port).request("GET", target)
            // Then it is 404 problem+json
            _ = try expectProblem(response, status: 404)
        }
    }

    @Test("POST /livez is 405 with Allow: GET, HEAD")
    func methodNotAllowed() throws {
        try withLiveServer { port in
            // Given a GET-only resource
            // When a client POSTs to it
            let response = try RawHTTPClient(port: port).request("POST", "/livez", body: [])
            // Then it is 405 naming the methods allowed
            _ = try expectProblem(response, status: 405)
            #expect(response.header("Allow") == "GET, HEAD")
        }
    }

    @Test("HEAD /livez is 200 with headers and no body")
    func headRequest() throws {
        try withLiveServer { port in
            // Given a connection
            let client = try RawHTTPClient(port: port)
            // When a client sends HEAD
            let head = try client.request("HEAD", "/livez")
            // Then it gets GET's status and headers but no body
            #expect(head.status == 200)
            #expect(head.mediaType == "application/json")
            #expect(head.body.isEmpty)
            // And no stray body bytes follow: the next response on the connection parses cleanly
            let next = try client.request("GET", "/livez")
            #expect(next.status == 200)
            #expect(try next.decode(HealthBody.self).status == "alive")
            // And HEAD announced the length GET sends
            #expect(head.header("Content-Length") == String(next.body.count))
        }
    }

    @Test(
        "Invalid UTF-8 in a request is 400 problem+json",
        arguments: [
            "/v1/catalogs/app/alerts/newMessages?count=%FF&sender=x",
            "/v1/catalogs/app/alerts/newMessages?count=3&sender=%C0%AF",
            "/v1/catalogs/app/alerts/newMessages?count=3&%FF=x",
            "/v1/catalogs/%FF",
        ])
    func invalidUTF8(target: String) throws {
        try withLiveServer { port in
            // Given a request whose percent-decoding is not UTF-8
            // When it is sent
            let response = try RawHTTPClient(port: port).request("GET", target)
            // Then it is refused as a bad request, not rendered nor 404
            let problem = try expectProblem(response, status: 400)
            #expect(problem.detail.contains("UTF-8"))
        }
    }

    // MARK: Request bodies
}
