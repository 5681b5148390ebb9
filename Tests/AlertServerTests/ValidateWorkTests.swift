import AlertCatalogs
import Dispatch
import Foundation
import Logging
import MicroHTTP
import Testing

@testable import AlertServer
@testable import AlertSpec

/// `POST /v1/specs/validate` runs on `BoundedWork`, not on the HTTP worker: the same answers as
/// validating in place, 413 before the work is asked, and 503 `busy` when the work is full.
@Suite("Validate on bounded work")
struct ValidateWorkTests {
    let catalogs: CatalogRegistry

    init() throws {
        catalogs = try .builtIn()
    }

    /// The route's answer, through `Answering` as the service gives it.
    private func validate(
        _ body: String, work: BoundedWork, logger: Logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws -> HTTPResponse {
        var router = Router()
        SpecHandlers(catalogs: catalogs, work: work).register(in: &router)
        let http = HTTPRequest(
            method: "POST", path: "/v1/specs/validate", headers: ["Content-Type": "application/json"], body: Array(body.utf8))
        guard case .found(.later(let handler), let parameters, _) = router.match(method: http.method, path: http.path) else {
            throw APIError.internal
        }
        let request = Request(http: http, pathParameters: parameters)
        let outcome = await Result(awaiting: { try await handler(request) })
        let answering = Answering(metrics: ServiceMetrics(), logger: logger)
        return await withCheckedContinuation { continuation in
            answering.settle(outcome, for: request) { continuation.resume(returning: $0) }
        }
    }

    /// What validating in place answers (the handler's code, without the work).
    private func inPlace(_ body: String) -> HTTPResponse {
        let request = Request(http: HTTPRequest(method: "POST", path: "/v1/specs/validate"))
        let validator = SpecValidator(directory: catalogs)
        do {
            return try SpecHandlers.validate(Data(body.utf8), with: validator).response(for: request)
        } catch {
            return (try? APIError(error).response(for: request)) ?? HTTPResponse(status: 500)
        }
    }

    /// The bench's largest valid draft: a column of 199 texts padded to `SpecLimits.encodedSpec`.
    static let largest: String = {
        func toast(_ length: Int) -> String {
            let item = #"{"type":"text","text":"\#(String(repeating: "x", count: length))"}"#
            return #"{"kind":"toast","content":{"type":"stacked","items":[\#(Array(repeating: item, count: 199).joined(separator: ","))]}}"#
        }
        var length = 1
        while toast(length + 1).utf8.count <= SpecLimits.encodedSpec { length += 1 }
        let spec = toast(length)
        return spec + String(repeating: " ", count: SpecLimits.encodedSpec - spec.utf8.count)
    }()

    @Test(
        "the answer is the one validating in place gives: valid, warned, broken, unknown members, not JSON",
        arguments: [
            largest,
            #"{"kind":"alert","title":"Hi","actions":[{"id":"a","label":"A","role":"primary"},{"id":"b","label":"B","role":"primary"}]}"#,
            #"{"kind":"alert","actions":[{"id":"c","label":"Cancel","role":"cancel"}],"presentation":{"maskColor":"red"},"extra":1}"#,
            #"{"kind":"hud","state":null}"#,
            "{nope",
        ])
    func sameAnswer(body: String) async throws {
        let response = try await validate(body, work: BoundedWork(threads: 1, backlog: 0))
        let expected = inPlace(body)
        #expect(response.status == expected.status)
        #expect(response.headers["Content-Type"] == expected.headers["Content-Type"])
        #expect(response.body == expected.body)
    }

    @Test("a validated answer's writer gives the bytes of its Encodable form")
    func validatedWriter() throws {
        let warned = #"{"kind":"alert","title":"Hi","actions":[{"id":"a","label":"A","role":"primary"},{"id":"b","label":"B","role":"primary"}]}"#
        for body in [Self.largest, warned] {
            let validated = try SpecHandlers.validate(Data(body.utf8), with: SpecValidator(directory: catalogs))
            let encoder = OrderedJSONEncoder()
            #expect(try encoder.encode(validated) == encoder.encodeStreaming(validated))
        }
    }

    @Test("the largest draft is valid")
    func largestIsValid() async throws {
        #expect(Self.largest.utf8.count == SpecLimits.encodedSpec)
        let response = try await validate(Self.largest, work: BoundedWork(threads: 1, backlog: 0))
        #expect(response.status == 200)
    }

    @Test("when the work is full: 503 busy problem+json with Retry-After, not logged as a failure; 413 still; valid again once there is room")
    func busy() async throws {
        let work = BoundedWork(threads: 1, backlog: 0)
        let release = DispatchSemaphore(value: 0)
        #expect(work.submit { release.wait() })

        let logs = LogCollector()
        let refused = try await validate(Self.largest, work: work, logger: logs.logger(.text))
        #expect(logs.all.isEmpty)
        #expect(refused.status == 503)
        #expect(refused.headers["Content-Type"] == "application/problem+json")
        #expect(refused.headers["Retry-After"] == "1")
        #expect(refused.headers["Cache-Control"] == "no-store")
        let problem = try JSONDecoder().decode(Problem.self, from: Data(refused.body))
        #expect(problem.type == "urn:alertd:problem:busy")
        #expect(problem.status == 503)

        // The size is checked before the work is asked for room.
        let tooLarge = try await validate(Self.largest + " ", work: work)
        #expect(tooLarge.status == 413)

        release.signal()
        while work.pending > 0 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(try await validate(Self.largest, work: work).status == 200)
    }
}
