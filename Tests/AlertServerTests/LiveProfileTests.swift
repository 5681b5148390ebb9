import AlertServer
import Foundation
import Testing
@testable import AlertdTestSupport
@testable import HTTPTestSupport

// Pacing profiles over real sockets: a session's (`…/sessions/{session}/profile`, the admin or
// its own token, or the token call's `profile`) and a user's (`…/users/{user}/profile`, the
// admin), replaced by `PUT`, read by `GET`, every bad member a 422 naming it.

@Suite("Live server: pacing profiles")
struct LiveProfileTests {
    private static let berlin = #"{"timeZone":"Europe/Berlin","quietHours":"22:00-08:00","minModalGap":"30s","maxModalsPerDay":5}"#

    /// The JSON object of a 200 answer.
    private static func profile(_ response: RawHTTPResponse, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        expectQueueAnswer(response, status: 200, sourceLocation: sourceLocation)
        return try #require(try response.jsonObject(), sourceLocation: sourceLocation)
    }

    @Test("a session's profile: none is {}, PUT replaces it whole and answers it, the session's own token reads and sets it")
    func sessionProfile() throws {
        try withLiveServer { port in
            // Given a session with its token
            let phone = try SessionClient.open(port: port, session: "phone")
            #expect(try Self.profile(phone.app("GET", "/profile")).isEmpty)
            // When the admin sets it
            let set = try Self.profile(phone.admin("PUT", "/profile", json: Self.berlin))
            // Then it answers what it keeps, and the session reads the same
            #expect(set["timeZone"] as? String == "Europe/Berlin" && set["quietHours"] as? String == "22:00-08:00")
            #expect(set["minModalGap"] as? String == "30s" && set["maxModalsPerDay"] as? Int == 5)
            #expect(try Self.profile(phone.app("GET", "/profile")).count == 4)
            // When the session replaces it: members null or left out are cleared; whole seconds read as a period
            let replaced = try Self.profile(phone.app("PUT", "/profile", json: #"{"minModalGap":120,"quietHours":null}"#))
            #expect(replaced.count == 1 && replaced["minModalGap"] as? String == "2m")
            // When an empty object is put, there is none
            #expect(try Self.profile(phone.admin("PUT", "/profile", json: "{}")).isEmpty)
            #expect(try Self.profile(phone.admin("GET", "/profile")).isEmpty)
        }
    }

    @Test("a session's profile is closed to another session's token and to no token; a user's to every session token")
    func access() throws {
        try withLiveServer { port in
            let phone = try SessionClient.open(port: port, session: "phone")
            let other = try SessionClient(port: port, session: "other")
            // Another session's token, and none
            _ = try expectProblem(other.call("GET", "/profile", bearer: phone.token), status: 403)
            _ = try expectProblem(other.call("PUT", "/profile", bearer: phone.token, json: "{}"), status: 403)
            _ = try expectProblem(phone.call("GET", "/profile", bearer: nil), status: 401)
            // A user's profile: the admin only
            let client = phone.client
            let asSession = [("Authorization", "Bearer \(phone.token)"), ("Content-Type", "application/json")]
            let userPut = try client.request("PUT", "/v1/users/ana/profile", headers: asSession, body: Array("{}".utf8))
            _ = try expectProblem(userPut, status: 403)
            _ = try expectProblem(try client.request("GET", "/v1/users/ana/profile", headers: asSession), status: 403)
        }
    }

    @Test("a user's profile is set and read by the admin; a bad user id is 400")
    func userProfile() throws {
        try withLiveServer { port in
            let client = try RawHTTPClient(port: port)
            let admin = [("Authorization", "Bearer \(TestCredentials.adminToken)"), ("Content-Type", "application/json")]
            // Given none
            #expect(try Self.profile(client.request("GET", "/v1/users/ana/profile", headers: admin)).isEmpty)
            // When set
            let set = try client.request("PUT", "/v1/users/ana/profile", headers: admin, body: Array(#"{"maxModalsPerDay":3}"#.utf8))
            // Then
            #expect(try Self.profile(set) as? [String: Int] == ["maxModalsPerDay": 3])
            #expect(try Self.profile(client.request("GET", "/v1/users/ana/profile", headers: admin)) as? [String: Int] == ["maxModalsPerDay": 3])
            _ = try expectProblem(try client.request("GET", "/v1/users/a%20b/profile", headers: admin), status: 400)
        }
    }

    @Test("every bad member is a 422 at its pointer, all at once; a body that is no object is 400")
    func badProfiles() throws {
        try withLiveServer { port in
            let phone = try SessionClient.open(port: port, session: "phone")
            // When
            let bad = try phone.admin(
                "PUT", "/profile",
                json: #"{"timeZone":"Europe/Atlantis","quietHours":"22-8","minModalGap":"0s","maxModalsPerDay":0,"mode":"calm"}"#)
            // Then
            let issues = try expectInvalidRequest(bad).map(\.description)
            #expect(
                issues == [
                    "/mode unknown-field", "/timeZone unknown-time-zone", "/quietHours invalid-value", "/minModalGap invalid-value",
                    "/maxModalsPerDay out-of-range",
                ])
            _ = try expectProblem(phone.admin("PUT", "/profile", json: "[1]"), status: 400)
            _ = try expectProblem(phone.admin("PUT", "/profile"), status: 400)
            // And nothing was kept
            #expect(try Self.profile(phone.admin("GET", "/profile")).isEmpty)
        }
    }

    @Test("the token call sets the session's profile when it gives one, keeps it when not, and refuses a bad one; erasing the session deletes it")
    func tokenAndErase() throws {
        try withLiveServer { port in
            let phone = try SessionClient(port: port, session: "phone")
            // When the token call gives a profile
            expectQueueAnswer(try phone.admin("POST", "/token", json: #"{"user":"ana","profile":{"timeZone":"Asia/Tokyo"}}"#), status: 201)
            // Then it is the session's; a token call without one keeps it
            expectQueueAnswer(try phone.admin("POST", "/token", json: #"{"ttl":600}"#), status: 201)
            #expect(try Self.profile(phone.admin("GET", "/profile")) as? [String: String] == ["timeZone": "Asia/Tokyo"])
            // A bad one is refused at its pointer, and nothing changes
            let bad = try phone.admin("POST", "/token", json: #"{"profile":{"timeZone":"Nowhere/Land"}}"#)
            #expect(try expectInvalidRequest(bad).map(\.description) == ["/profile/timeZone unknown-time-zone"])
            #expect(try Self.profile(phone.admin("GET", "/profile")) as? [String: String] == ["timeZone": "Asia/Tokyo"])
            // When the session is erased, its profile goes with it
            expectQueueAnswer(try phone.admin("DELETE", ""), status: 200)
            #expect(try Self.profile(phone.admin("GET", "/profile")).isEmpty)
        }
    }

    @Test("setting a profile wakes this instance's polls of the sessions it applies to: the session, or every session of the user")
    func wakesPolls() throws {
        try withLiveService { port, service in
            // Given two sessions of ana and one of no one
            let phone = try SessionClient(port: port, session: "phone")
            expectQueueAnswer(try phone.admin("POST", "/token", json: #"{"user":"ana"}"#), status: 201)
            expectQueueAnswer(try SessionClient(port: port, session: "tablet").admin("POST", "/token", json: #"{"user":"ana"}"#), status: 201)
            let polls = service.queue.polls
            let before = ["phone", "tablet"].map(polls.generation(of:))
            // When the user's profile is set
            let admin = [("Authorization", "Bearer \(TestCredentials.adminToken)"), ("Content-Type", "application/json")]
            expectQueueAnswer(
                try phone.client.request("PUT", "/v1/users/ana/profile", headers: admin, body: Array(#"{"quietHours":"22:00-08:00"}"#.utf8)),
                status: 200)
            // Then both of its sessions were woken
            #expect(polls.generation(of: "phone") != before[0] && polls.generation(of: "tablet") != before[1])
            // When the session's own is set, it is woken again
            let again = polls.generation(of: "phone")
            expectQueueAnswer(try phone.admin("PUT", "/profile", json: "{}"), status: 200)
            #expect(polls.generation(of: "phone") != again)
        }
    }
}
