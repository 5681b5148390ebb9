import AlertQueue
import AlertServer
import Foundation
import TestClocks
import Testing
@testable import AlertdTestSupport
@testable import HTTPTestSupport

// The session registry over real sockets: the token call registers a session's user and
// topics, the admin sets and detaches them, a user's sessions are listed most recently seen
// first, and a session's own calls mark it seen (flushed to the store in batches).

@Suite("Live server: users and topics")
struct LiveUserTests {
    @Test("the token call registers the session's user and topics, and its answer says them")
    func tokenRegisters() throws {
        try withLiveServer { port in
            // When
            let phone = try SessionClient(port: port, session: "ana-phone")
            let issued = try phone.admin("POST", "/token", json: #"{"user":"ana","topics":["beta","news","beta"],"ttl":600}"#)
            // Then
            expectQueueAnswer(issued, status: 201)
            let body = try #require(try issued.jsonObject())
            #expect(body["user"] as? String == "ana")
            #expect(body["topics"] as? [String] == ["beta", "news"])
            #expect(body["token"] is String && body["expiresAt"] is String)
            // A token call without user or topics keeps them
            let again = try #require(try phone.admin("POST", "/token").jsonObject())
            #expect(again["user"] as? String == "ana" && again["topics"] as? [String] == ["beta", "news"])
            // A session without a user has none in the answer
            let anonymous = try #require(try SessionClient(port: port, session: "anon").admin("POST", "/token").jsonObject())
            #expect(anonymous["user"] == nil && anonymous["topics"] as? [String] == [])
            // And the user lists it
            let listed = try Self.sessions(port, of: "ana")
            #expect(listed.map(\.session) == ["ana-phone"] && listed.first?.topics == ["beta", "news"])
        }
    }

    @Test("PUT and DELETE …/user set and detach the user; PUT …/topics replaces the topics")
    func setAndDetach() throws {
        try withLiveServer { port in
            // Given
            let phone = try SessionClient.open(port: port, session: "phone")
            // When the admin sets the user, then the topics
            let set = try phone.admin("PUT", "/user", json: #"{"user":"bo"}"#)
            let topics = try phone.admin("PUT", "/topics", json: #"{"topics":["promo","alpha"]}"#)
            // Then
            expectQueueAnswer(set, status: 200)
            #expect(try set.jsonObject() as? [String: String] == ["session": "phone", "user": "bo"])
            expectQueueAnswer(topics, status: 200)
            #expect(try topics.jsonObject()?["topics"] as? [String] == ["alpha", "promo"])
            #expect(try Self.sessions(port, of: "bo").map(\.topics) == [["alpha", "promo"]])
            // When it detaches the user
            let detached = try phone.admin("DELETE", "/user")
            // Then the answer says null, and bo has no session
            expectQueueAnswer(detached, status: 200)
            #expect(detached.text.contains(#""user":null"#), "\(detached.text)")
            #expect(try Self.sessions(port, of: "bo").isEmpty)
        }
    }

    @Test("a user's sessions: most recently seen first, this instance's unflushed times merged, then written by the flush")
    func lastSeen() throws {
        let clock = ManualClock()
        try withLiveService(clock: clock) { port, service in
            // Given two sessions of ana, the tablet's token issued later
            let phone = try SessionClient(port: port, session: "phone")
            expectQueueAnswer(try phone.admin("POST", "/token", json: #"{"user":"ana"}"#), status: 201)
            phone.token = try phone.admin("POST", "/token").decode(IssuedTokenBody.self).token
            clock.advance(by: 10)
            expectQueueAnswer(try SessionClient(port: port, session: "tablet").admin("POST", "/token", json: #"{"user":"ana"}"#), status: 201)
            #expect(try Self.sessions(port, of: "ana").map(\.session) == ["tablet", "phone"])

            // When the phone calls with its token later
            clock.advance(by: 10)
            #expect(try phone.next().status == 204)

            // Then the listing puts it first at once, though the store has not been written
            let listed = try Self.sessions(port, of: "ana")
            #expect(listed.map(\.session) == ["phone", "tablet"])
            #expect(listed.first.flatMap { apiDate($0.lastSeen) } == clock.now())
            let stored = try waitBlocking { try await service.queue.store.knownSession("phone")?.lastSeen }
            #expect(stored == clock.now().addingTimeInterval(-20))
            // And a flush writes it
            #expect(try waitBlocking { try await service.queue.seen.flush() } == 1)
            #expect(try waitBlocking { try await service.queue.store.knownSession("phone")?.lastSeen } == clock.now())
            // An admin call on the session does not count as the session seen
            clock.advance(by: 10)
            expectQueueAnswer(try phone.admin("GET", "/queue"), status: 200)
            #expect(try waitBlocking { try await service.queue.seen.flush() } == 0)
        }
    }

    @Test("a session that was never seen is not registered by an enqueue")
    func enqueueRegistersNothing() throws {
        try withLiveService { port, service in
            let quiet = try SessionClient(port: port, session: "quiet")
            _ = try quiet.enqueue(#"{"alert":"app/questionExit"}"#)
            #expect(try waitBlocking { try await service.queue.store.knownSession("quiet") } == nil)
        }
    }

    @Test("erasing a session forgets its user and topics")
    func eraseForgets() throws {
        try withLiveServer { port in
            let phone = try SessionClient(port: port, session: "phone")
            expectQueueAnswer(try phone.admin("POST", "/token", json: #"{"user":"ana","topics":["beta"]}"#), status: 201)
            expectQueueAnswer(try phone.admin("DELETE", ""), status: 200)
            #expect(try Self.sessions(port, of: "ana").isEmpty)
            let again = try #require(try phone.admin("POST", "/token").jsonObject())
            #expect(again["user"] == nil && again["topics"] as? [String] == [])
        }
    }

    // MARK: - Helpers

    struct Listed: Decodable {
        var session: String
        var lastSeen: String
        var topics: [String]
    }

    struct UserSessionsBody: Decodable {
        var user: String
        var sessions: [Listed]
    }

    /// `GET /v1/users/{user}/sessions` as the admin: 200, its sessions.
    static func sessions(_ port: Int, of user: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [Listed] {
        let response = try admin(port, "GET", "/v1/users/\(user)/sessions")
        expectQueueAnswer(response, status: 200, sourceLocation: sourceLocation)
        let body = try response.decode(UserSessionsBody.self)
        #expect(body.user == user, sourceLocation: sourceLocation)
        return body.sessions
    }

    static func admin(_ port: Int, _ method: String, _ path: String, bearer: String = TestCredentials.adminToken) throws -> RawHTTPResponse {
        try RawHTTPClient(port: port).request(method, path, headers: [("Authorization", "Bearer \(bearer)")])
    }
}
