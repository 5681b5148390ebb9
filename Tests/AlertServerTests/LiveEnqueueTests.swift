#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AlertCatalogs
import AlertQueue
import AlertServer
import AlertSpec
import Dispatch
import Foundation
import MicroHTTP
import Synchronization
import TestClocks
import Testing
@testable import AlertdTestSupport
@testable import HTTPTestSupport

// The session queue API of DESIGN.md ("HTTP API", "Queue semantics"), checked over real sockets
// against the real server: MicroHTTP on libmicrohttpd serving AlertService with the built-in
// catalogs and an in-memory SQLite queue store, on an ephemeral port.

@Suite("Live server: enqueue rules, leases, tokens")
struct LiveEnqueueTests {
    let registry: CatalogRegistry

    init() throws {
        registry = try CatalogRegistry.builtIn()
    }

    // MARK: Enqueue validation

    @Test(
        "a bad enqueue body is 422 with a pointer to each problem, and queues nothing",
        arguments: [
            (#"{"alert":"app/nope"}"#, ["/alert"], "unknown-alert"),
            (#"{"alert":"nope"}"#, ["/alert"], "unknown-alert"),
            (#"{"alert":"app/newMessages","params":{"sender":"Ana"}}"#, ["/params/count"], "missing-parameter"),
            (#"{"alert":"app/newMessages","params":{"count":"three","sender":"Ana"}}"#, ["/params/count"], "invalid-parameter"),
            (#"{"alert":"app/questionExit","params":{"colour":"red"}}"#, ["/params/colour"], nil),
            (#"{"alert":"app/newMessages","params":{"zz":[1],"aa":{},"count":1,"sender":"x"}}"#, ["/params/aa", "/params/zz"], "invalid-type"),
            (#"{"spec":{"kind":"alert","title":"Hi"}}"#, ["/spec/actions"], "no-action"),
            (#"{"spec":{"kind":"alert","title":"Hi","actions":[{"id":"ok","label":"OK"}],"colour":"red"}}"#, ["/spec/colour"], nil),
            (#"{"spec":"hello"}"#, ["/spec"], nil),
            (#"{"alert":"app/questionExit","priority":5000}"#, ["/priority"], "out-of-range"),
            (#"{"alert":"app/questionExit","priority":-1}"#, ["/priority"], "out-of-range"),
            (#"{"alert":"app/questionExit","ttl":-1}"#, ["/ttl"], "out-of-range"),
            (#"{"alert":"app/questionExit","ttl":0}"#, ["/ttl"], "out-of-range"),
            (#"{"alert":"app/questionExit","ttl":2592001}"#, ["/ttl"], "out-of-range"),
            (#"{"alert":"app/questionExit","dedupeKey":""}"#, ["/dedupeKey"], nil),
            (#"{"alert":"app/questionExit","priority":"high"}"#, ["/priority"], nil),
            (#"{"alert":5}"#, ["/alert"], nil),
            (#"{"alert":"app/questionExit","when":"now"}"#, ["/when"], "unknown-field"),
            (#"{"alert":"app/questionExit","spec":{"kind":"hud","state":"success"}}"#, [""], "alert-or-spec"),
            (#"{}"#, [""], "alert-or-spec"),
            (#"{"alert":"app/nope","priority":5000,"ttl":-1}"#, ["/alert", "/priority", "/ttl"], nil),
            // A bad pacing rule, or a deferred gap longer than the TTL (what is accepted: EnqueuePacingTests)
            (#"{"alert":"app/questionExit","pacing":{"limits":[{"count":0,"period":"1d"}]}}"#, ["/pacing/limits/0/count"], "out-of-range"),
            (#"{"alert":"app/questionExit","pacing":{"limits":[{"count":1,"period":"0s"}]}}"#, ["/pacing/limits/0/period"], "invalid-value"),
            (#"{"alert":"app/questionExit","pacing":{"once":{"scope":"device"}}}"#, ["/pacing/once/scope"], "invalid-value"),
            (#"{"alert":"app/questionExit","pacing":{"cap":3}}"#, ["/pacing/cap"], "unknown-field"),
            (#"{"alert":"app/questionExit","pacing":"daily"}"#, ["/pacing"], "invalid-type"),
            (#"{"alert":"app/questionExit","ttl":30,"pacing":{"minGap":{"duration":"1m"}}}"#, ["/pacing/minGap/duration"], "gap-past-ttl"),
            // The alert's own 60 s gap, deferred, cannot be waited out in 30 s
            (#"{"alert":"app/newMessages","params":{"count":1,"sender":"A"},"ttl":30}"#, ["/ttl"], "gap-past-ttl"),
            (#"{"spec":{"kind":"hud","state":"success"},"ttl":5,"pacing":{"minGap":{"duration":"10s"}}}"#, ["/pacing/minGap/duration"], "gap-past-ttl"),
            (#"{"alert":"app/nope","pacing":{"whenCapped":"later"}}"#, ["/alert", "/pacing/whenCapped"], nil),
        ] as [(String, [String], String?)])
    func badEnqueue(body: String, pointers: [String], code: String?) throws {
        try withLiveServer { port in
            let admin = try SessionClient(port: port, session: "s")
            let issues = try expectInvalidRequest(try admin.admin("POST", "/queue", json: body))
            #expect(issues.map(\.pointer).sorted() == pointers.sorted(), "\(issues)")
            if let code { #expect(issues.first?.code == code, "\(issues)") }
            #expect(issues.allSatisfy { !$0.message.isEmpty })
            #expect(try admin.list().items.isEmpty)
        }
    }

    @Test("an enqueue body that is not a JSON object is 400", arguments: ["[1]", "not json", "\"app/questionExit\"", ""])
    func malformedEnqueue(body: String) throws {
        try withLiveServer { port in
            let admin = try SessionClient(port: port, session: "s")
            let problem = try expectProblem(try admin.admin("POST", "/queue", json: body), status: 400)
            #expect(problem.type == "urn:alertd:problem:malformed-json")
        }
    }

    @Test("a body that repeats a member name is 400 malformed-json on enqueue, ack, hold and token")
    func repeatedMember() throws {
        try withLiveServer { port in
            // Given a session, and bodies that would be valid but for a member given twice
            let app = try SessionClient.open(port: port, session: "s")
            for (method, path, bearer, body) in [
                ("POST", "/queue", app.adminToken, #"{"alert":"app/questionExit","alert":"app/questionExit"}"#),
                ("POST", "/queue", app.adminToken, #"{"alert":"app/newMessages","params":{"count":1,"sender":"a","count":2}}"#),
                ("POST", "/queue/AAAAAAAAAAAAAAAAAAAAAA/ack", app.token, #"{"action":"ok","action":"ok"}"#),
                ("PUT", "/hold", app.token, #"{"seconds":5,"seconds":5}"#),
                ("POST", "/token", app.adminToken, #"{"ttl":600,"ttl":600}"#),
            ] {
                // When each is sent, then it is refused as JSON that cannot be read one way only
                let client = try SessionClient(port: port, session: "s")
                let response = try client.call(method, path, bearer: bearer, json: body)
                #expect(try expectProblem(response, status: 400).type == "urn:alertd:problem:malformed-json", "\(method) \(path)")
            }
            #expect(try app.list().items.isEmpty)
        }
    }

    @Test("a body larger than the server accepts is 413 on enqueue, ack and hold")
    func bodyTooLarge() throws {
        try withLiveServer(maxBodySize: 1024) { port in
            let app = try SessionClient.open(port: port, session: "s")
            let padding = String(repeating: "x", count: 2048)
            for (method, path, bearer) in [
                ("POST", "/queue", app.adminToken), ("POST", "/queue/AAAAAAAAAAAAAAAAAAAAAA/ack", app.token), ("PUT", "/hold", app.token),
            ] {
                let client = try SessionClient(port: port, session: "s")
                let response = try client.call(method, path, bearer: bearer, json: #"{"alert":"\#(padding)"}"#)
                #expect(try expectProblem(response, status: 413).type == "urn:alertd:problem:body-too-large", "\(method) \(path)")
                #expect(response.header("Cache-Control") == "no-store", "\(method) \(path)")
            }
        }
    }

    @Test("a dedupeKey makes different alerts one, and frees once the item is done")
    func dedupeKey() throws {
        try withLiveServer { port in
            let app = try SessionClient.open(port: port, session: "s")
            let first = try app.enqueue(#"{"alert":"app/saved","dedupeKey":"upload-7"}"#)
            let same = try app.admin("POST", "/queue", json: #"{"alert":"app/failed","dedupeKey":"upload-7"}"#)
            expectQueueAnswer(same, status: 200)
            #expect(try same.decode(EnqueuedBody.self).ticket == first.ticket)
            // Once delivered and acknowledged, the key may be queued again
            #expect(try app.delivered().ticket == first.ticket)
            expectQueueAnswer(try app.ack(first.ticket), status: 200)
            let later = try app.enqueue(#"{"alert":"app/failed","dedupeKey":"upload-7"}"#)
            #expect(later.ticket != first.ticket)
        }
    }

    @Test("past the session's limit of live items, enqueue is 429 queue-full; duplicates are still 200")
    func queueFull() throws {
        try withLiveServer(settings: QueueSettings(maxQueueLength: 2)) { port in
            let app = try SessionClient.open(port: port, session: "s")
            let first = try app.enqueue(#"{"alert":"app/questionExit"}"#)
            _ = try app.enqueue(#"{"alert":"app/answerExit"}"#)
            let refused = try app.admin("POST", "/queue", json: #"{"alert":"app/logoutConfirm"}"#)
            #expect(try expectProblem(refused, status: 429).type == "urn:alertd:problem:queue-full")
            #expect(refused.header("Cache-Control") == "no-store")
            let duplicate = try app.admin("POST", "/queue", json: #"{"alert":"app/questionExit"}"#)
            expectQueueAnswer(duplicate, status: 200)
            // And another session has its own limit
            let other = try SessionClient(port: port, session: "t")
            _ = try other.enqueue(#"{"alert":"app/logoutConfirm"}"#)
            // And once one is done there is room again
            #expect(try app.delivered().ticket == first.ticket)
            expectQueueAnswer(try app.ack(first.ticket), status: 200)
            _ = try app.enqueue(#"{"alert":"app/logoutConfirm"}"#)
        }
    }

    @Test("an unacknowledged item comes back when its lease ends, then is dead-lettered")
    func leaseAndDeadLetter() throws {
        let clock = ManualClock()
        try withLiveServer(settings: QueueSettings(leaseDuration: 1, maxDeliveries: 2), clock: clock) { port in
            let app = try SessionClient.open(port: port, session: "crashy")
            let item = try app.enqueue(#"{"alert":"app/questionExit"}"#)
            #expect(try app.delivered().deliveries == 1)
            #expect(try app.next().status == 204)
            clock.advance(by: 1.2)
            let again = try app.delivered()
            #expect(again.ticket == item.ticket)
            #expect(again.deliveries == 2)
            clock.advance(by: 1.2)
            #expect(try app.next().status == 204)
            let listed = try app.list().items
            #expect(listed.map(\.state) == ["dead"])
            #expect(listed.first?.deliveries == 2)
            _ = try expectProblem(try app.ack(item.ticket), status: 410)
        }
    }

    @Test("a HUD is done once delivered: never delivered again when the lease time passes, never dead; its ack is still 200")
    func hudFireAndForget() throws {
        let clock = ManualClock()
        try withLiveServer(settings: QueueSettings(leaseDuration: 1, maxDeliveries: 1), clock: clock) { port in
            // Given a "Saved" HUD delivered, and never acknowledged
            let app = try SessionClient.open(port: port, session: "saver")
            let hud = try app.enqueue(#"{"alert":"app/saved"}"#)
            #expect(try app.delivered().ticket == hud.ticket)
            #expect(try app.list().items.isEmpty, "a delivered HUD presents nothing")
            // When its lease time, and more, passes
            for _ in 0..<3 {
                clock.advance(by: 1.2)
                #expect(try app.next().status == 204)
            }
            // Then it is not listed, not even dead; and an ack after all is answered done
            #expect(try app.list().items.isEmpty)
            let acked = try app.ack(hud.ticket)
            expectQueueAnswer(acked, status: 200)
            #expect(try acked.decode(AcknowledgedBody.self).state == "done")
            #expect(try app.admin("GET", "/queue/\(hud.ticket)").jsonObject()?["state"] as? String == "done")
        }
    }

    @Test("HEAD …/next does not deliver (a HEAD request must not change the queue)")
    func headDoesNotDeliver() throws {
        // HEAD may not ride on this GET: it would lease the item and throw its body away, the
        // app never seeing it and its modal lane blocked until the lease ends.
        try withLiveServer { port in
            let app = try SessionClient.open(port: port, session: "s")
            let item = try app.enqueue(#"{"alert":"app/questionExit"}"#)
            _ = try app.client.request("HEAD", "/v1/sessions/s/next", headers: [("Authorization", "Bearer \(app.token)")])
            let listed = try app.list().items
            #expect(listed.map(\.state) == ["queued"])
            #expect(listed.first?.deliveries == 0)
            let response = try app.next()
            #expect(response.status == 200)
            #expect((try? response.decode(DeliveryBody.self))?.ticket == item.ticket)
        }
    }

    // MARK: Tokens and session ids

    @Test("POST …/token issues a token for the session with the lifetime asked for")
    func tokens() throws {
        try withLiveServer { port in
            let admin = try SessionClient(port: port, session: "user-1")
            for (body, lifetime) in [(nil, 86_400.0), (#"{"ttl":3600}"#, 3600), (#"{"ttl":60}"#, 60), (#"{"ttl":7776000}"#, 7_776_000)]
                as [(String?, Double)]
            {
                let response = try admin.admin("POST", "/token", json: body)
                expectQueueAnswer(response, status: 201)
                let issued = try response.decode(IssuedTokenBody.self)
                #expect(issued.session == "user-1")
                #expect(issued.token.hasPrefix("v1."))
                let expiry = try #require(apiDate(issued.expiresAt))
                #expect(abs(expiry.timeIntervalSinceNow - lifetime) <= 3, "\(body ?? "no body"): \(issued.expiresAt)")
                // And it opens the session
                #expect(try admin.call("GET", "/queue", bearer: issued.token).status == 200)
            }
            for body in [#"{"ttl":59}"#, #"{"ttl":7776001}"#, #"{"ttl":"3600"}"#, #"{"lifetime":3600}"#] {
                _ = try expectInvalidRequest(try admin.admin("POST", "/token", json: body))
            }
            _ = try expectProblem(try admin.admin("POST", "/token", json: "[3600]"), status: 400)
        }
    }

    @Test(
        "session ids are 1 to 128 of letters, digits, '.', '_', ':' and '-'",
        arguments: [
            ("user-42:iphone.v2_x", 201), (String(repeating: "a", count: 128), 201), ("A", 201),
            (String(repeating: "a", count: 129), 400), ("a!b", 400), ("a%20b", 400), ("caf%C3%A9", 400), ("a~b", 400),
        ])
    func sessionIds(session: String, status: Int) throws {
        try withLiveServer { port in
            let admin = try SessionClient(port: port, session: session)
            let response = try admin.admin("POST", "/token")
            if status == 201 {
                expectQueueAnswer(response, status: 201)
            } else {
                #expect(try expectProblem(response, status: 400).type == "urn:alertd:problem:bad-request")
                _ = try expectProblem(try admin.admin("POST", "/queue", json: #"{"alert":"app/saved"}"#), status: 400)
                _ = try expectProblem(try admin.admin("GET", "/queue"), status: 400)
            }
        }
    }
}
