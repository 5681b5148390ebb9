import AlertSpec
import Foundation
import MicroHTTP
import TestClocks
import Testing

@testable import AlertServer
@testable import AlertdTestSupport

/// `null` is a member left out, in every request body: what Python's `None`, JavaScript's
/// `null` and Kotlin's serializers send for "no value". Where a value is required, it is a
/// 422 naming the member. Router-level: requests go through `AlertService.answer`.
@Suite("A null member is a member left out, in every request body")
struct NullMemberTests {
    let service: AlertService

    init() throws {
        // A clock that stands still: a default expiry or hold ends at the same second each time.
        service = try AlertService.forTests(clock: ManualClock())
    }

    private func call(_ method: String, _ path: String, bearer: String?, _ body: String? = nil) async -> HTTPResponse {
        var headers: HTTPHeaders = [:]
        if let bearer { headers.add("Authorization", "Bearer \(bearer)") }
        if body != nil { headers.add("Content-Type", "application/json") }
        return await service.answer(HTTPRequest(method: method, path: path, headers: headers, body: Array((body ?? "").utf8)))
    }

    private func json(_ response: HTTPResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    private func errors(_ response: HTTPResponse) throws -> [SpecIssue] {
        try JSONDecoder().decode(Problem.self, from: Data(response.body)).errors ?? []
    }

    /// A session token for `session`, issued with an empty body.
    private func token(_ session: String) async throws -> String {
        let issued = await call("POST", "/v1/sessions/\(session)/token", bearer: TestCredentials.adminToken)
        return try #require(try json(issued)["token"] as? String)
    }

    private func enqueue(_ session: String, _ body: String) async -> HTTPResponse {
        await call("POST", "/v1/sessions/\(session)/queue", bearer: TestCredentials.adminToken, body)
    }

    @Test("a token asked for with {\"ttl\": null} lasts the default day, as with no body")
    func tokenTTL() async throws {
        let withNull = await call("POST", "/v1/sessions/s/token", bearer: TestCredentials.adminToken, #"{"ttl":null}"#)
        let without = await call("POST", "/v1/sessions/s/token", bearer: TestCredentials.adminToken, "{}")
        #expect(withNull.status == 201)
        #expect(try json(withNull)["expiresAt"] as? String == json(without)["expiresAt"] as? String)
    }

    @Test("a hold with {\"seconds\": null} holds the default 30 s, as with no body")
    func holdSeconds() async throws {
        let app = try await token("s")
        let withNull = await call("PUT", "/v1/sessions/s/hold", bearer: app, #"{"seconds":null}"#)
        let without = await call("PUT", "/v1/sessions/s/hold", bearer: app)
        #expect(withNull.status == 200)
        #expect(try json(withNull)["until"] as? String == json(without)["until"] as? String)
    }

    @Test("an ack with {\"action\": null} acknowledges without an action")
    func ackAction() async throws {
        // Given a delivered alert
        let app = try await token("s")
        #expect(await enqueue("s", #"{"alert":"app/questionExit"}"#).status == 201)
        let delivered = await call("GET", "/v1/sessions/s/next", bearer: app)
        let ticket = try #require(try json(delivered)["ticket"] as? String)

        // When it is acknowledged with a null action
        let ack = await call("POST", "/v1/sessions/s/queue/\(ticket)/ack", bearer: app, #"{"action":null}"#)

        // Then it is done, and nothing was chained
        #expect(ack.status == 200, "\(String(decoding: ack.body, as: UTF8.self))")
        #expect(try json(ack)["state"] as? String == "done")
        #expect(try json(ack)["chained"] == nil)
    }

    @Test(
        "an enqueue's optional members given as null are left out",
        arguments: [
            #"{"alert":"app/questionExit","priority":null,"ttl":null,"dedupeKey":null,"params":null,"spec":null}"#,
            #"{"alert":null,"spec":{"kind":"hud","state":"success","text":null,"progress":null}}"#,
            #"{"alert":"app/newMessages","params":{"count":2,"sender":"Ana","unused":null}}"#,
        ])
    func enqueueOptionals(body: String) async throws {
        let response = await enqueue("s", body)
        #expect(response.status == 201, "\(String(decoding: response.body, as: UTF8.self))")
    }

    @Test("the item queued with null members is the one queued without them: default priority, no TTL")
    func enqueueDefaults() async throws {
        #expect(await enqueue("s", #"{"alert":"app/questionExit","priority":null,"ttl":null}"#).status == 201)
        let listed = try json(await call("GET", "/v1/sessions/s/queue", bearer: TestCredentials.adminToken))
        let item = try #require((listed["items"] as? [[String: Any]])?.first)
        #expect(item["priority"] as? Int == 700)
        #expect(item["expiresAt"] == nil)
    }

    @Test(
        "a null where a value is required is a 422 naming the member and saying it is required",
        arguments: [
            (#"{"alert":"app/newMessages","params":{"count":null,"sender":"Ana"}}"#, "/params/count", "missing-parameter"),
            (#"{"spec":{"kind":null}}"#, "/spec/kind", "missing-field"),
            (#"{"spec":{"kind":"alert","title":"t","actions":[{"id":"ok","label":null}]}}"#, "/spec/actions/0/label", "missing-field"),
            (#"{"alert":null,"spec":null}"#, "", "alert-or-spec"),
        ] as [(String, String, String)])
    func enqueueRequired(body: String, pointer: String, code: String) async throws {
        let response = await enqueue("s", body)
        #expect(response.status == 422)
        let issues = try errors(response)
        #expect(issues.map(\.pointer) == [pointer], "\(issues)")
        #expect(issues.first?.code == code)
        if code != "alert-or-spec" { #expect(issues.first?.message.contains("required") == true, "\(issues)") }
    }

    @Test("a member no body has stays unknown when it is null", arguments: ["/token", "/queue", "/hold"])
    func unknownNull(path: String) async throws {
        let bearer = path == "/hold" ? try await token("s") : TestCredentials.adminToken
        let body = path == "/queue" ? #"{"alert":"app/questionExit","when":null}"# : #"{"when":null}"#
        let response = await call(path == "/hold" ? "PUT" : "POST", "/v1/sessions/s" + path, bearer: bearer, body)
        #expect(response.status == 422)
        #expect(try errors(response).map(\.code) == ["unknown-field"])
        #expect(try errors(response).map(\.pointer) == ["/when"])
    }

    @Test("POST /v1/specs/validate reads null optionals as left out and answers the same normalized spec")
    func validateNulls() async throws {
        let plain = #"{"kind":"alert","title":"t","actions":[{"id":"ok","label":"OK"}]}"#
        let nulls = #"{"kind":"alert","title":"t","message":null,"style":null,"image":null,"presentation":null,"actions":[{"id":"ok","label":"OK","role":null,"action":null,"appearance":null}],"priority":null}"#
        let a = await call("POST", "/v1/specs/validate", bearer: nil, plain)
        let b = await call("POST", "/v1/specs/validate", bearer: nil, nulls)
        #expect(b.status == 200, "\(String(decoding: b.body, as: UTF8.self))")
        #expect(a.body == b.body)
    }

    @Test("POST /v1/specs/validate answers 422 for a null where a value is required, naming the member")
    func validateRequiredNull() async throws {
        let response = await call("POST", "/v1/specs/validate", bearer: nil, #"{"kind":"hud","state":null}"#)
        #expect(response.status == 422)
        let issues = try errors(response)
        #expect(issues.map(\.pointer) == ["/state"])
        #expect(issues.first?.code == "missing-field")
        #expect(issues.first?.message.contains("\"state\" is required") == true, "\(issues)")
    }
}
