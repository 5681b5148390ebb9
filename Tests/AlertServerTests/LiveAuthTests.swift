#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AlertCatalogs
import AlertServer
import AlertSpec
import Foundation
import MicroHTTP
import TestClocks
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// Who may call the session queue API, over real sockets against the real server: the admin
// token opens every call; a session token opens its own session's `GET …/queue`, `next`, `ack`
// and `hold`, nothing else; the admin token does not make the app's calls.

/// One operation of the queue API, on session `s` (a ticket `{ticket}` filled in by the test).
struct QueueOperation: CustomTestStringConvertible, Sendable {
    var method: String
    var path: String
    var body: String?

    var testDescription: String { "\(method) \(path)" }

    func target(ticket: String) -> String {
        "/v1/sessions/s" + path.replacing("{ticket}", with: ticket)
    }

    static let token = QueueOperation(method: "POST", path: "/token")
    static let enqueue = QueueOperation(method: "POST", path: "/queue", body: #"{"alert":"app/logoutConfirm"}"#)
    static let list = QueueOperation(method: "GET", path: "/queue")
    static let cancelAll = QueueOperation(method: "DELETE", path: "/queue")
    static let cancelOne = QueueOperation(method: "DELETE", path: "/queue/{ticket}")
    static let next = QueueOperation(method: "GET", path: "/next")
    static let ack = QueueOperation(method: "POST", path: "/queue/{ticket}/ack")
    static let hold = QueueOperation(method: "PUT", path: "/hold", body: #"{"seconds":5}"#)
    static let release = QueueOperation(method: "DELETE", path: "/hold")
    static let item = QueueOperation(method: "GET", path: "/queue/{ticket}")
    static let history = QueueOperation(method: "GET", path: "/history")
    static let erase = QueueOperation(method: "DELETE", path: "")

    static let all = [token, enqueue, list, cancelAll, cancelOne, next, ack, hold, release, item, history, erase]
    /// Made with the admin token or the session's own.
    static let eitherToken = [list, item, history]
    /// Made with the admin token only.
    static let adminOnly = [token, enqueue, cancelAll, cancelOne, erase]
    /// Made by the app with its session token only.
    static let appOnly = [next, ack, hold, release]
}

@Suite("Live server: session queue auth")
struct LiveAuthTests {
    /// A server with one item queued in session `s` (its ticket), and `body` run against it.
    private func withQueuedItem(_ body: (_ port: Int, _ ticket: String) throws -> Void) throws {
        try withLiveServer { port in
            let admin = try SessionClient(port: port, session: "s")
            let ticket = try admin.enqueue(#"{"alert":"app/questionExit"}"#).ticket
            try body(port, ticket)
            // And whatever was refused changed nothing: the item is still there, still queued
            let items = try admin.list().items
            #expect(items.map(\.ticket) == [ticket], "the refused call changed the queue")
            #expect(items.first?.state == "queued")
        }
    }

    private func send(_ operation: QueueOperation, port: Int, ticket: String, authorization: String?) throws -> RawHTTPResponse {
        var headers: [(String, String)] = []
        if let authorization { headers.append(("Authorization", authorization)) }
        if operation.body != nil { headers.append(("Content-Type", "application/json")) }
        return try RawHTTPClient(port: port).request(
            operation.method, operation.target(ticket: ticket), headers: headers, body: operation.body.map { Array($0.utf8) })
    }

    private func expectUnauthorized(_ response: RawHTTPResponse, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let problem = try expectProblem(response, status: 401, sourceLocation: sourceLocation)
        #expect(problem.type == "urn:alertd:problem:unauthorized", sourceLocation: sourceLocation)
        #expect(response.header("WWW-Authenticate") == "Bearer", sourceLocation: sourceLocation)
        #expect(response.header("Cache-Control") == "no-store", sourceLocation: sourceLocation)
    }

    private func expectForbidden(_ response: RawHTTPResponse, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let problem = try expectProblem(response, status: 403, sourceLocation: sourceLocation)
        #expect(problem.type == "urn:alertd:problem:forbidden", sourceLocation: sourceLocation)
        #expect(response.header("Cache-Control") == "no-store", sourceLocation: sourceLocation)
    }

    // MARK: 401

    @Test("no Authorization header is 401 with WWW-Authenticate: Bearer", arguments: QueueOperation.all)
    func noToken(operation: QueueOperation) throws {
        try withQueuedItem { port, ticket in
            try expectUnauthorized(try send(operation, port: port, ticket: ticket, authorization: nil))
        }
    }

    @Test(
        "a token that is not valid is 401",
        arguments: QueueOperation.all,
        [
            "Bearer wrong-token", "Bearer ", "Bearer \(TestCredentials.adminToken)x", "Basic \(TestCredentials.adminToken)",
            TestCredentials.adminToken, "Bearer v1.cw.9999999999.AAAA",
        ])
    func wrongToken(operation: QueueOperation, authorization: String) throws {
        try withQueuedItem { port, ticket in
            try expectUnauthorized(try send(operation, port: port, ticket: ticket, authorization: authorization))
        }
    }

    @Test("an expired session token is 401", arguments: QueueOperation.all)
    func expiredToken(operation: QueueOperation) throws {
        try withQueuedItem { port, ticket in
            // Given a token of session s, signed with the server's secret, that expired a minute ago
            let expired = SessionTokens(secret: TestCredentials.sessionSecret).issue(session: "s", expiry: Date().addingTimeInterval(-60))
            try expectUnauthorized(try send(operation, port: port, ticket: ticket, authorization: "Bearer \(expired)"))
        }
    }

    @Test("a session token signed with another secret, or edited to open another session, is 401", arguments: QueueOperation.appOnly + QueueOperation.eitherToken)
    func forgedToken(operation: QueueOperation) throws {
        try withQueuedItem { port, ticket in
            let forged = SessionTokens(secret: "not-the-server-secret").issue(session: "s", expiry: Date().addingTimeInterval(3600))
            try expectUnauthorized(try send(operation, port: port, ticket: ticket, authorization: "Bearer \(forged)"))

            // A real token of session t, with its session part changed to s
            let real = SessionTokens(secret: TestCredentials.sessionSecret).issue(session: "t", expiry: Date().addingTimeInterval(3600))
            var parts = real.split(separator: ".").map(String.init)
            parts[1] = Data("s".utf8).base64EncodedString().replacing("=", with: "")
            try expectUnauthorized(try send(operation, port: port, ticket: ticket, authorization: "Bearer \(parts.joined(separator: "."))"))
        }
    }

    // MARK: 403

    @Test("another session's token is 403 on the app's calls", arguments: QueueOperation.appOnly + QueueOperation.eitherToken)
    func anotherSessionsToken(operation: QueueOperation) throws {
        try withQueuedItem { port, ticket in
            let other = try SessionClient.open(port: port, session: "t")
            try expectForbidden(try send(operation, port: port, ticket: ticket, authorization: "Bearer \(other.token)"))
        }
    }

    @Test("a session token, even the session's own, is 403 on admin calls", arguments: QueueOperation.adminOnly)
    func sessionTokenOnAdminCall(operation: QueueOperation) throws {
        try withQueuedItem { port, ticket in
            let own = try SessionClient.open(port: port, session: "s")
            try expectForbidden(try send(operation, port: port, ticket: ticket, authorization: "Bearer \(own.token)"))
        }
    }

    @Test("the admin token is 403 on the app's calls (next, ack, hold)", arguments: QueueOperation.appOnly)
    func adminTokenOnAppCall(operation: QueueOperation) throws {
        try withQueuedItem { port, ticket in
            try expectForbidden(
                try send(operation, port: port, ticket: ticket, authorization: "Bearer \(TestCredentials.adminToken)"))
        }
    }

    // MARK: Allowed

    @Test("GET …/queue opens to the admin and to the session's own token")
    func listIsOpenToBoth() throws {
        try withQueuedItem { port, ticket in
            let own = try SessionClient.open(port: port, session: "s")
            for authorization in ["Bearer \(TestCredentials.adminToken)", "Bearer \(own.token)"] {
                let response = try send(.list, port: port, ticket: ticket, authorization: authorization)
                expectQueueAnswer(response, status: 200)
                #expect(try response.decode(QueueListBody.self).items.map(\.ticket) == [ticket])
            }
        }
    }

    @Test("GET …/queue/{ticket} and …/history open to the admin and to the session's own token")
    func itemAndHistoryAreOpenToBoth() throws {
        try withQueuedItem { port, ticket in
            let own = try SessionClient.open(port: port, session: "s")
            for authorization in ["Bearer \(TestCredentials.adminToken)", "Bearer \(own.token)"] {
                let item = try send(.item, port: port, ticket: ticket, authorization: authorization)
                expectQueueAnswer(item, status: 200)
                #expect(try item.jsonObject()?["ticket"] as? String == ticket)
                let history = try send(.history, port: port, ticket: ticket, authorization: authorization)
                expectQueueAnswer(history, status: 200)
                #expect((try history.jsonObject()?["items"] as? [Any])?.isEmpty == true)
            }
        }
    }

    @Test("the session's own token opens next, ack and hold; the scheme is case-insensitive")
    func ownTokenOpensAppCalls() throws {
        try withLiveServer { port in
            let app = try SessionClient.open(port: port, session: "s")
            let ticket = try app.enqueue(#"{"alert":"app/questionExit"}"#).ticket
            let auth = [("Authorization", "bearer \(app.token)")]
            let delivered = try app.client.request("GET", "/v1/sessions/s/next", headers: auth)
            expectQueueAnswer(delivered, status: 200)
            #expect(try delivered.decode(DeliveryBody.self).ticket == ticket)
            expectQueueAnswer(try app.client.request("POST", "/v1/sessions/s/queue/\(ticket)/ack", headers: auth), status: 200)
            expectQueueAnswer(try app.client.request("PUT", "/v1/sessions/s/hold", headers: auth), status: 200)
            expectQueueAnswer(try app.client.request("DELETE", "/v1/sessions/s/hold", headers: auth), status: 200)
        }
    }

    @Test("a token issued with a short lifetime works until it expires, then is 401")
    func tokenExpiresOnTime() throws {
        let clock = ManualClock()
        try withLiveServer(clock: clock) { port in
            // Given a token signed by the server that expires in 2 s (the API's minimum is 60 s:
            // this one is made with the server's secret, as the server would)
            let soon = SessionTokens(secret: TestCredentials.sessionSecret).issue(session: "s", expiry: clock.now() + 2)
            let app = try SessionClient(port: port, session: "s")
            app.token = soon
            #expect(try app.next().status == 204)
            clock.advance(by: 1.9)
            #expect(try app.next().status == 204)
            // When it has expired
            clock.advance(by: 0.2)
            // Then it is refused
            try expectUnauthorized(try app.next())
        }
    }
}
