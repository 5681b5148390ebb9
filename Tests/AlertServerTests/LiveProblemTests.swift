#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AlertCatalogs
import AlertQueue
import AlertQueueSQLite
import AlertServer
import GRDB
import Foundation
import MicroHTTP
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// Every error alertd answers is problem+json, whatever the status, and none says more than the
// client needs: no stack trace, no SQL, no file path, no Swift type. Each test provokes one
// status over a real socket against the real server and checks the body's shape and words.

@Suite("Live server: every error is a problem")
struct LiveProblemTests {
    /// Words that would betray internals: paths of this machine, source files, Swift and
    /// library type names, SQL. (A problem may quote what the client sent; tests send none of these.)
    static let leaks = [
        "/work/", "/home/", "/tmp/", "/Users/", ".swift", "Swift.", "DatabaseError", "GRDB", "SQLITE", "SQLite error",
        "SELECT ", "INSERT ", "UPDATE ", "sqlite", "AlertServer.", "AlertQueue.", "MicroHTTP.", "Fatal", "Thread ", "0x",
        "Error(", "errno", "postgres",
    ]

    /// Checks a problem+json answer of `status`, and that its body leaks nothing.
    @discardableResult
    static func expectCleanProblem(
        _ response: RawHTTPResponse, status: Int, code: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ProblemBody {
        let problem = try expectProblem(response, status: status, sourceLocation: sourceLocation)
        #expect(problem.type.hasPrefix("urn:alertd:problem:"), sourceLocation: sourceLocation)
        if let code { #expect(problem.type == "urn:alertd:problem:\(code)", sourceLocation: sourceLocation) }
        let text = response.text
        for word in leaks where text.contains(word) {
            Issue.record("the \(status) problem leaks \"\(word)\": \(text)", sourceLocation: sourceLocation)
        }
        return problem
    }

    private let admin = [("Authorization", "Bearer \(TestCredentials.adminToken)")]

    @Test("400, 404, 405 with Allow, 413, 414, 415, 422, 431 are problem+json and leak nothing")
    func clientErrors() throws {
        try withLiveServer(maxBodySize: 4096) { port in
            let client = { try RawHTTPClient(port: port) }
            // 400: a parameter of the wrong type
            try Self.expectCleanProblem(
                try client().request("GET", "/v1/catalogs/app/alerts/newMessages?count=abc&sender=x"), status: 400)
            // 404: nothing there
            try Self.expectCleanProblem(try client().request("GET", "/v2/nothing"), status: 404, code: "not-found")
            // 405: the wrong method, with the methods allowed
            let wrongMethod = try client().request("DELETE", "/v1/catalogs")
            try Self.expectCleanProblem(wrongMethod, status: 405, code: "method-not-allowed")
            #expect(wrongMethod.header("Allow") == "GET, HEAD")
            // 413: a body over the limit
            try Self.expectCleanProblem(
                try client().request(
                    "POST", "/v1/specs/validate", headers: [("Content-Type", "application/json")],
                    body: [UInt8](repeating: 0x20, count: 5000)),
                status: 413, code: "body-too-large")
            // 414: a URL over the limit (2,048 bytes), but within the connection's memory
            try Self.expectCleanProblem(
                try client().request("GET", "/v1/catalogs/app?pad=" + String(repeating: "a", count: 2100)),
                status: 414, code: "url-too-long")
            // 415: a body that is not JSON where JSON is read
            try Self.expectCleanProblem(
                try client().request(
                    "POST", "/v1/specs/validate", headers: [("Content-Type", "text/plain")], body: Array("{}".utf8)),
                status: 415, code: "unsupported-media-type")
            // 422: a spec that breaks rules
            try Self.expectCleanProblem(
                try client().request(
                    "POST", "/v1/specs/validate", headers: [("Content-Type", "application/json")],
                    body: Array(#"{"kind":"alert"}"#.utf8)),
                status: 422, code: "invalid-spec")
        }
    }

    @Test("431: more header fields than the limit is a problem")
    func tooManyHeaders() throws {
        try withLiveServer { port in
            // When a request carries 110 fields (the limit is 100)
            let many = (0..<110).map { ("X-\($0)", "1") }
            // Then it is 431 problem+json
            try Self.expectCleanProblem(
                try RawHTTPClient(port: port).request("GET", "/livez", headers: many), status: 431, code: "too-many-headers")
            // And 99 fields pass (with Host, 100)
            #expect(try RawHTTPClient(port: port).request("GET", "/livez", headers: Array(many.prefix(99))).status == 200)
        }
    }

    @Test("401, 403 and 429 are problem+json and leak nothing")
    func queueErrors() throws {
        try withLiveServer(settings: QueueSettings(maxQueueLength: 1)) { port in
            // 401: no token
            try Self.expectCleanProblem(try RawHTTPClient(port: port).request("GET", "/v1/sessions/s/queue"), status: 401)
            // 403: a session token on an admin call
            let app = try SessionClient.open(port: port, session: "s")
            try Self.expectCleanProblem(try app.call("DELETE", "/queue", bearer: app.token), status: 403, code: "forbidden")
            // 429: a session queue at its length limit
            _ = try app.enqueue(#"{"alert":"app/questionExit"}"#)
            try Self.expectCleanProblem(
                try app.admin("POST", "/queue", json: #"{"alert":"app/logoutConfirm"}"#), status: 429, code: "queue-full")
        }
    }

    @Test("415 is given for every call that reads JSON, and a body without Content-Type is read as JSON")
    func unsupportedMediaType() throws {
        try withLiveServer { port in
            let app = try SessionClient.open(port: port, session: "s")
            let ticket = try app.enqueue(#"{"alert":"app/questionExit"}"#).ticket
            let calls: [(String, String, String)] = [
                ("POST", "/v1/specs/validate", app.adminToken), ("POST", "/v1/sessions/s/token", app.adminToken),
                ("POST", "/v1/sessions/s/queue", app.adminToken), ("POST", "/v1/sessions/s/queue/\(ticket)/ack", app.token),
                ("PUT", "/v1/sessions/s/hold", app.token),
            ]
            for (method, path, bearer) in calls {
                for type in ["application/x-www-form-urlencoded", "text/plain", "application/xml", "multipart/form-data; boundary=x"] {
                    let response = try RawHTTPClient(port: port).request(
                        method, path, headers: [("Authorization", "Bearer \(bearer)"), ("Content-Type", type)],
                        body: Array("{}".utf8))
                    try Self.expectCleanProblem(response, status: 415, code: "unsupported-media-type")
                }
            }
            // And the JSON types pass the check, as does a body with no type at all
            for type in ["application/json", "application/json; charset=utf-8", "Application/JSON", "application/merge-patch+json", nil] {
                let headers = [("Authorization", "Bearer \(app.token)")] + (type.map { [("Content-Type", $0)] } ?? [])
                let held = try RawHTTPClient(port: port).request(
                    "PUT", "/v1/sessions/s/hold", headers: headers, body: Array(#"{"seconds":5}"#.utf8))
                #expect(held.status == 200, "\(type ?? "no Content-Type"): \(held.text)")
            }
            // And an empty body is never refused for its type
            let empty = try RawHTTPClient(port: port).request(
                "PUT", "/v1/sessions/s/hold", headers: [("Authorization", "Bearer \(app.token)"), ("Content-Type", "text/plain")],
                body: [])
            #expect(empty.status == 200)
        }
    }

    @Test("500 and 503 from a store that fails, or is closed, are problem+json and say nothing of the store")
    func storeFailures() throws {
        // Given a server on a SQLite store in a file, which then fails: its items table dropped
        // under the server, then the store closed
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alertd-problem-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("alertd.sqlite").path
        let store = try SQLiteQueueStore(path: path)
        let service = try AlertService(
            catalogs: .builtIn(), queue: QueueServices(store: store, credentials: TestCredentials.credentials))
        try withServer(service) { port, _ in
            let app = try SessionClient.open(port: port, session: "s")
            _ = try app.enqueue(#"{"alert":"app/questionExit"}"#)
            let other = try DatabaseQueue(path: path)
            try other.writeWithoutTransaction { db in try db.execute(sql: "DROP TABLE items") }
            try other.close()
            // When the API needs the store
            // Then an enqueue is 500 internal, with nothing of SQLite, GRDB or the file in it
            let failed = try app.admin("POST", "/queue", json: #"{"alert":"app/logoutConfirm"}"#)
            let problem = try Self.expectCleanProblem(failed, status: 500, code: "internal")
            #expect(!problem.detail.contains(folder.lastPathComponent))
            // And once the store is closed, an enqueue is 503 store-unavailable, as is /readyz
            try store.close()
            try Self.expectCleanProblem(
                try app.admin("POST", "/queue", json: #"{"alert":"app/logoutConfirm"}"#), status: 503, code: "store-unavailable")
            try Self.expectCleanProblem(
                try RawHTTPClient(port: port).request("GET", "/readyz"), status: 503, code: "store-unavailable")
            // And what needs no store still answers
            #expect(try RawHTTPClient(port: port).request("GET", "/v1/catalogs/app/alerts/questionExit").status == 200)
        }
    }

    @Test("a long-poll still waiting when the server stops is answered 503 problem+json")
    func shutdownAnswer() throws {
        let service = try AlertService.forTests()
        try withServer(service) { port, server in
            // Given a long-poll parked for 30 s
            let app = try SessionClient.open(port: port, session: "s", timeout: .seconds(20))
            try app.client.send(
                RawHTTPClient.requestBytes("GET", "/v1/sessions/s/next?wait=30", headers: [("Authorization", "Bearer \(app.token)")]))
            #expect(eventually(within: .seconds(5)) { service.queue.polls.count == 1 }, "the long-poll never parked")
            // When the server stops without closing the long-polls first (no grace)
            let stopped = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                server.stop(grace: .zero)
                stopped.signal()
            }
            // Then the poll is answered 503 problem+json, not a bare text or a dropped connection
            try Self.expectCleanProblem(try app.client.readResponse(), status: 503, code: "unavailable")
            #expect(stopped.wait(timeout: .now() + 10) == .success)
        }
    }

    @Test("a client that starts a request and stalls past the timeout is closed (alertd's 408 is the close)")
    func stalledRequestIsClosed() throws {
        try withLiveServer(connectionTimeout: 1) { port in
            // Given a client that sends half a request head and stops
            let client = try RawHTTPClient(port: port, timeout: .seconds(10))
            try client.send("GET /v1/catalogs HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            // When the connection timeout passes
            // Then the server closes the connection (libmicrohttpd sends no 408; closing is the answer)
            #expect(client.closedByPeer(within: .seconds(8)))
            // And the server serves others
            #expect(try RawHTTPClient(port: port).request("GET", "/livez").status == 200)
        }
    }
}

/// Runs `body` against `service` on an `HTTPServer` on 127.0.0.1 (a port the system picks),
/// handing it the server so a test can stop it; stops it afterwards in any case.
func withServer<Result>(
    _ service: AlertService, configuration: HTTPServer.Configuration = .init(host: "127.0.0.1", port: 0, threads: 2),
    _ body: (_ port: Int, _ server: HTTPServer) throws -> Result
) throws -> Result {
    _ = LiveServer.ignoreBrokenPipes
    let server = try HTTPServer(configuration: configuration, handler: service, observer: service.observer)
    defer {
        service.queue.polls.close()
        server.stop(grace: .seconds(2))
    }
    return try body(server.port, server)
}
