import AlertSpec
import Foundation
import MicroHTTP
import Testing

@testable import AlertServer
@testable import AlertdTestSupport

/// `SpecLimits` on the routes that take a spec: `POST /v1/specs/validate` and an enqueue's
/// `spec`. Past the size, 413 `spec-too-large`; a list past its limit, 422 at its pointer.
@Suite("Spec limits on validate and enqueue")
struct SpecLimitRouteTests {
    let service: AlertService

    init() throws {
        service = try AlertService.forTests()
    }

    private func post(_ path: String, _ body: String, admin: Bool = false) async -> HTTPResponse {
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        if admin { headers.add("Authorization", "Bearer \(TestCredentials.adminToken)") }
        return await service.answer(HTTPRequest(method: "POST", path: path, headers: headers, body: Array(body.utf8)))
    }

    private func problem(_ response: HTTPResponse) throws -> Problem {
        try JSONDecoder().decode(Problem.self, from: Data(response.body))
    }

    /// An alert whose message pads it to `size` bytes of JSON.
    private static func alert(bytes size: Int) -> String {
        let frame = #"{"kind":"alert","title":"t","message":"","actions":[{"id":"ok","label":"OK"}]}"#
        let message = String(repeating: "m", count: size - frame.utf8.count)
        return #"{"kind":"alert","title":"t","message":"\#(message)","actions":[{"id":"ok","label":"OK"}]}"#
    }

    private static let seventeenButtons =
        #"{"kind":"alert","title":"t","actions":[\#((0...SpecLimits.actions).map { #"{"id":"b\#($0)","label":"B"}"# }.joined(separator: ","))]}"#

    @Test("validate: a body past the size limit is 413 spec-too-large, naming the limit; at the limit it is read")
    func validateSize() async throws {
        // A message that long breaks a text rule (422), which shows the body was read
        let atLimit = await post("/v1/specs/validate", Self.alert(bytes: SpecLimits.encodedSpec))
        #expect(atLimit.status == 422)
        #expect(try problem(atLimit).errors?.map(\.code) == ["text-too-long"])

        let past = await post("/v1/specs/validate", Self.alert(bytes: SpecLimits.encodedSpec + 1))
        #expect(past.status == 413)
        let body = try problem(past)
        #expect(body.type == "urn:alertd:problem:spec-too-large")
        #expect(body.errors?.map(\.pointer) == [""])
        #expect(body.detail.contains("\(SpecLimits.encodedSpec)"))
    }

    @Test("validate: 17 buttons is 422 too-many-actions at /actions")
    func validateCount() async throws {
        let response = await post("/v1/specs/validate", Self.seventeenButtons)
        #expect(response.status == 422)
        let body = try problem(response)
        #expect(body.errors?.map(\.pointer) == ["/actions"])
        #expect(body.errors?.map(\.code) == ["too-many-actions"])
    }

    @Test("enqueue: a spec past the size limit as sent is 413 at /spec, and nothing is queued")
    func enqueueSize() async throws {
        let response = await post("/v1/sessions/s/queue", #"{"spec":\#(Self.alert(bytes: SpecLimits.encodedSpec + 1))}"#, admin: true)
        #expect(response.status == 413)
        let body = try problem(response)
        #expect(body.type == "urn:alertd:problem:spec-too-large")
        #expect(body.errors?.map(\.pointer) == ["/spec"])
        let list = await service.answer(
            HTTPRequest(method: "GET", path: "/v1/sessions/s/queue", headers: ["Authorization": "Bearer \(TestCredentials.adminToken)"]))
        #expect(String(decoding: list.body, as: UTF8.self).contains(#""items":[]"#))
    }

    @Test("enqueue: 17 buttons in a spec is 422 too-many-actions at /spec/actions")
    func enqueueCount() async throws {
        let response = await post("/v1/sessions/s/queue", #"{"spec":\#(Self.seventeenButtons)}"#, admin: true)
        #expect(response.status == 422)
        let body = try problem(response)
        #expect(body.errors?.map(\.pointer) == ["/spec/actions"])
        #expect(body.errors?.map(\.code) == ["too-many-actions"])
    }
}
