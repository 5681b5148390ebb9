import AlertCatalogs
import AlertSpec
import Foundation
import MicroHTTP
import Testing

@testable import AlertServer
@testable import HTTPTestSupport
@testable import AlertdTestSupport

/// Router-level tests: requests go through `AlertService.respond(to:)` without a socket.
@Suite("Routing and responses without a socket")
struct RouterTests {
    let service: AlertService

    init() throws {
        service = try AlertService.forTests()
    }

    private func get(_ path: String, query: [(String, String?)] = [], method: String = "GET") -> HTTPResponse {
        service.respond(to: HTTPRequest(method: method, path: path, query: query.map { (name: $0.0, value: $0.1) }))
    }

    private func problem(_ response: HTTPResponse) throws -> Problem {
        #expect(response.headers["Content-Type"] == "application/problem+json")
        return try JSONDecoder().decode(Problem.self, from: Data(response.body))
    }

    @Test("a rendered spec carries its language and varies by Accept-Language")
    func renderHeaders() throws {
        let response = get("/v1/catalogs/app/alerts/questionExit", query: [("locale", "en-GB")])
        #expect(response.status == 200)
        #expect(response.headers["content-language"] == "en")
        #expect(response.headers["Vary"] == "Accept-Language")
        let spec = try JSONDecoder().decode(AlertSpec.self, from: Data(response.body))
        #expect(spec.id == "app/questionExit")
        #expect(spec.locale == "en")
    }

    @Test("/v1/catalogs/reload is the reload action, not a catalog: GET is 405 allowing POST; catalogs still list")
    func literalRouteWins() throws {
        let response = get("/v1/catalogs/reload")
        #expect(response.status == 405)
        #expect(response.headers["Allow"] == "POST")
        #expect(get("/v1/catalogs/app").status == 200)
        #expect(get("/v1/catalogs/onboarding", method: "POST").headers["Allow"] == "GET, HEAD")
    }

    @Test("parameters come from the query; render options are not parameters")
    func parameters() throws {
        let response = get(
            "/v1/catalogs/app/alerts/newMessages",
            query: [("count", "2"), ("sender", "Kim"), ("locale", "en"), ("platform", "ios")])
        #expect(response.status == 200)
        let spec = try JSONDecoder().decode(AlertSpec.self, from: Data(response.body))
        guard case .alert(let dialog) = spec.body else { Issue.record("not a dialog"); return }
        #expect(dialog.title == "New messages from Kim")
    }

    @Test("parameter problems are 400 and name the parameter", arguments: [
        ([("sender", "a")], "count", "missing-parameter"),
        ([("count", "abc"), ("sender", "a")], "count", "invalid-parameter"),
        ([("count", "1"), ("sender", "a"), ("cout", "2")], "cout", "unknown-parameter"),
    ] as [([(String, String?)], String, String)])
    func parameterProblems(query: [(String, String?)], parameter: String, code: String) throws {
        let response = get("/v1/catalogs/app/alerts/newMessages", query: query)
        #expect(response.status == 400)
        let body = try problem(response)
        #expect(body.parameter == parameter)
        #expect(body.type == "urn:alertd:problem:\(code)")
        #expect(body.status == 400)
    }

    @Test("a parameter given twice, or an unknown platform, is a bad request")
    func badRequests() throws {
        let twice = get("/v1/catalogs/app/alerts/newMessages", query: [("count", "1"), ("count", "2"), ("sender", "a")])
        #expect(twice.status == 400)
        #expect(try problem(twice).detail.contains("more than once"))
        let platform = get("/v1/catalogs/app/alerts/questionExit", query: [("platform", "symbian")])
        #expect(platform.status == 400)
    }

    @Test("unknown routes, catalogs and types are 404 problems", arguments: [
        "/v2/catalogs", "/v1/catalogs/nope", "/v1/catalogs/app/alerts/nope", "/v1/catalogs/nope/alerts/x",
        "/v1/catalogs/app/alerts/questionExit/extra",
    ])
    func notFound(path: String) throws {
        let response = get(path)
        #expect(response.status == 404)
        #expect(try problem(response).status == 404)
    }

    @Test("a wrong method is 405 with Allow; HEAD goes where GET goes")
    func methods() throws {
        let response = get("/v1/catalogs", method: "DELETE")
        #expect(response.status == 405)
        #expect(response.headers["Allow"] == "GET, HEAD")
        #expect(try problem(response).status == 405)
        #expect(get("/v1/catalogs", method: "HEAD").status == 200)
    }

    @Test("refusals from the HTTP layer become problems with their status")
    func refusals() throws {
        let tooLarge = service.reject(.bodyTooLarge(limit: 10), method: "POST", path: "/v1/catalogs")
        #expect(tooLarge.status == 413)
        #expect(try problem(tooLarge).type == "urn:alertd:problem:body-too-large")
        let encoding = service.reject(.invalidEncoding("path"), method: "GET", path: "/x")
        #expect(encoding.status == 400)
    }

    @Test("a route's pattern is matched segment by segment")
    func routerMatching() {
        var router = Router()
        router.add("GET", "/a/{x}/c") { _ in HTTPResponse(status: 204) }
        router.add("POST", "/a/{x}/c") { _ in HTTPResponse(status: 201) }
        guard case .found(_, let parameters, _) = router.match(method: "GET", path: "/a/b/c") else {
            Issue.record("no match")
            return
        }
        #expect(parameters == ["x": "b"])
        guard case .methodNotAllowed(let allow) = router.match(method: "PUT", path: "/a/b/c") else {
            Issue.record("expected 405")
            return
        }
        #expect(Set(allow) == ["GET", "POST", "HEAD"])
        guard case .notFound = router.match(method: "GET", path: "/a/b") else {
            Issue.record("expected 404")
            return
        }
    }

    @Test(
        "a segment that starts with a combining mark or an emoji modifier is still a segment",
        arguments: ["\u{1F3FB}", "\u{301}x", "\u{200D}"])
    func routerMatchingScalars(segment: String) {
        // Given a route with a parameter, and a segment whose first scalar would join the `/`
        // before it into one character
        var router = Router()
        router.add("GET", "/a/{x}/c") { _ in HTTPResponse(status: 204) }

        // When the path is matched, then the `/` still separates: the segment is the parameter
        guard case .found(_, let parameters, _) = router.match(method: "GET", path: "/a/\(segment)/c") else {
            Issue.record("no match for /a/\(segment)/c")
            return
        }
        #expect(parameters == ["x": segment])
    }

    /// Validate answers later (on its own threads): awaited, as the server would.
    private func post(_ path: String, _ body: String) async -> HTTPResponse {
        await service.answer(HTTPRequest(method: "POST", path: path, body: Array(body.utf8)))
    }

    @Test("a valid spec comes back normalized, with warnings")
    func validateValid() async throws {
        let response = await post(
            "/v1/specs/validate",
            #"{"kind":"alert","title":"Hi","actions":[{"id":"a","label":"A","role":"primary"},{"id":"b","label":"B","role":"primary"}]}"#)
        #expect(response.status == 200)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        #expect(body["valid"] as? Bool == true)
        let spec = try #require(body["spec"] as? [String: Any])
        #expect(spec["style"] as? String == "dialog")
        let warnings = try #require(body["warnings"] as? [[String: Any]])
        #expect(warnings.first?["pointer"] as? String == "/actions/0/role")
    }

    @Test("an invalid spec is 422 with every error's pointer, code and message")
    func validateInvalid() async throws {
        let response = await post(
            "/v1/specs/validate",
            #"{"kind":"alert","actions":[{"id":"c","label":"Cancel","role":"cancel"}],"presentation":{"maskColor":"red"},"extra":1}"#)
        #expect(response.status == 422)
        let body = try problem(response)
        #expect(body.type == "urn:alertd:problem:invalid-spec")
        let pointers = Set((body.errors ?? []).map(\.pointer))
        #expect(pointers == ["/extra", "/title", "/actions", "/presentation/maskColor"])
    }

    @Test("a body that is not JSON is a 400 problem", arguments: ["", "{nope", "[1]", "\"text\""])
    func validateMalformed(body: String) async throws {
        let response = await post("/v1/specs/validate", body)
        #expect(response.status == 400)
        #expect(try problem(response).type == "urn:alertd:problem:malformed-json")
    }

    @Test("next actions must lead to an alert of the served catalogs")
    func validateNext() async throws {
        let unknown = await post(
            "/v1/specs/validate",
            #"{"kind":"alert","title":"t","actions":[{"id":"a","label":"A","action":{"type":"next","alert":"app/nope"}}]}"#)
        #expect(unknown.status == 422)
        #expect(try problem(unknown).errors?.first?.pointer == "/actions/0/action/alert")
        let known = await post(
            "/v1/specs/validate",
            #"{"kind":"alert","title":"t","actions":[{"id":"a","label":"A","action":{"type":"next","alert":"app/newMessages","params":{"count":2,"sender":"Li"}}}]}"#)
        #expect(known.status == 200)
    }

    @Test("parameters that make a spec break a rule are 422 at render time")
    func renderInvalid() throws {
        let response = get("/v1/catalogs/app/alerts/uploadProgress", query: [("percent", "150")])
        #expect(response.status == 422)
        #expect(try problem(response).errors?.first?.pointer == "/progress")
    }

    @Test("Accept-Language chooses the locale; Content-Language says which")
    func acceptLanguage() throws {
        var request = HTTPRequest(method: "GET", path: "/v1/catalogs/app/alerts/questionExit")
        request.headers.add("Accept-Language", "zh-Hant-TW, fr;q=0.5")
        let response = service.respond(to: request)
        #expect(response.status == 200)
        #expect(response.headers["Content-Language"] == "zh-Hant")
        #expect(response.headers["Vary"] == "Accept-Language")
        let spec = try JSONDecoder().decode(AlertSpec.self, from: Data(response.body))
        #expect(spec.locale == "zh-Hant")
        request.query = [(name: "locale", value: "de")]
        #expect(service.respond(to: request).headers["Content-Language"] == "de")
    }
}

