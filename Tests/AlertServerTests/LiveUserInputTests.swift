import AlertServer
import Foundation
import Testing
@testable import AlertdTestSupport
@testable import HTTPTestSupport

// Who may call the registry's routes, and every bad input they refuse, with its pointer.

@Suite("Live server: users and topics, refused")
struct LiveUserInputTests {
    @Test("the registry's routes are the admin's: 401 without a token, 403 with a session token, even the session's own")
    func adminOnly() throws {
        try withLiveServer { port in
            let phone = try SessionClient.open(port: port, session: "phone")
            let calls: [(String, String, String?)] = [
                ("PUT", "/user", #"{"user":"ana"}"#), ("DELETE", "/user", nil), ("PUT", "/topics", #"{"topics":["beta"]}"#),
            ]
            for (method, path, json) in calls {
                let anonymous = try phone.call(method, path, bearer: nil, json: json)
                #expect(try expectProblem(anonymous, status: 401).type == "urn:alertd:problem:unauthorized", "\(method) \(path)")
                let own = try phone.app(method, path, json: json)
                #expect(try expectProblem(own, status: 403).type == "urn:alertd:problem:forbidden", "\(method) \(path)")
            }
            let listing = try LiveUserTests.admin(port, "GET", "/v1/users/ana/sessions", bearer: phone.token)
            #expect(try expectProblem(listing, status: 403).type == "urn:alertd:problem:forbidden")
            let unauthenticated = try RawHTTPClient(port: port).request("GET", "/v1/users/ana/sessions")
            #expect(try expectProblem(unauthenticated, status: 401).type == "urn:alertd:problem:unauthorized")
            let token = try phone.app("POST", "/token", json: #"{"user":"ana"}"#)
            #expect(try expectProblem(token, status: 403).type == "urn:alertd:problem:forbidden")
        }
    }

    @Test("a user id or session id in the path that is not one is 400 bad-request")
    func badIDs() throws {
        try withLiveServer { port in
            for path in ["/v1/users/ana%20b/sessions", "/v1/users/\(String(repeating: "u", count: 129))/sessions"] {
                let response = try LiveUserTests.admin(port, "GET", path)
                #expect(try expectProblem(response, status: 400).type == "urn:alertd:problem:bad-request", "\(path)")
            }
            let badSession = try LiveUserTests.admin(port, "DELETE", "/v1/sessions/a%2Cb/user")
            #expect(try expectProblem(badSession, status: 400).type == "urn:alertd:problem:bad-request")
            // An unknown user is no error: it has no session
            #expect(try LiveUserTests.sessions(port, of: "nobody").isEmpty)
        }
    }

    @Test("the token body's bad user and topics are 422, every problem at its pointer")
    func badTokenBodies() throws {
        try withLiveServer { port in
            let phone = try SessionClient(port: port, session: "phone")
            let long = String(repeating: "t", count: 65)
            let cases: [(String, [String])] = [
                (#"{"user":"not ok"}"#, ["/user invalid-value"]),
                (#"{"user":""}"#, ["/user invalid-value"]),
                (#"{"user":7}"#, ["/user invalid-type"]),
                (#"{"topics":"beta"}"#, ["/topics invalid-type"]),
                (#"{"topics":[1,"ok","bad topic","\#(long)"]}"#, ["/topics/0 invalid-type", "/topics/2 invalid-value", "/topics/3 invalid-value"]),
                (#"{"topics":[\#((0..<33).map { "\"t\($0)\"" }.joined(separator: ","))]}"#, ["/topics too-many-topics"]),
                (#"{"ttl":1,"user":"no way","topics":[""]}"#, ["/ttl out-of-range", "/user invalid-value", "/topics/0 invalid-value"]),
                (#"{"users":"ana"}"#, ["/users unknown-field"]),
            ]
            for (body, expected) in cases {
                let issues = try expectInvalidRequest(try phone.admin("POST", "/token", json: body))
                #expect(issues.map(\.description) == expected, "\(body)")
            }
            // Duplicates are no problem: 32 distinct topics, each twice, are taken
            let twice = (0..<32).flatMap { ["\"t\($0)\"", "\"t\($0)\""] }.joined(separator: ",")
            let taken = try phone.admin("POST", "/token", json: #"{"topics":[\#(twice)]}"#)
            expectQueueAnswer(taken, status: 201)
            #expect((try taken.jsonObject()?["topics"] as? [String])?.count == 32)
        }
    }

    @Test("PUT …/user and PUT …/topics need their member: missing, null or bad is 422 at its pointer")
    func badRegistryBodies() throws {
        try withLiveServer { port in
            let phone = try SessionClient(port: port, session: "phone")
            let cases: [(String, String?, [String])] = [
                ("/user", nil, ["/user missing-field"]),
                ("/user", #"{"user":null}"#, ["/user missing-field"]),
                ("/user", #"{"user":"a/b"}"#, ["/user invalid-value"]),
                ("/user", #"{"user":"ana","topics":[]}"#, ["/topics unknown-field"]),
                ("/topics", nil, ["/topics missing-field"]),
                ("/topics", #"{}"#, ["/topics missing-field"]),
                ("/topics", #"{"topics":[null]}"#, ["/topics/0 invalid-type"]),
            ]
            for (path, body, expected) in cases {
                let issues = try expectInvalidRequest(try phone.admin("PUT", path, json: body))
                #expect(issues.map(\.description) == expected, "\(path) \(body ?? "")")
            }
            let notObject = try phone.admin("PUT", "/user", json: "[]")
            #expect(try expectProblem(notObject, status: 400).type == "urn:alertd:problem:malformed-json")
            let withBody = try phone.admin("DELETE", "/user", json: #"{"user":"ana"}"#)
            #expect(try expectInvalidRequest(withBody).map(\.description) == ["/user unknown-field"])
        }
    }
}
