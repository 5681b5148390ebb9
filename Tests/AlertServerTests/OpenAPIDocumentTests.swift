import Foundation
import MicroHTTP
import TestExecutors
import Testing

@testable import AlertServer
@testable import AlertdTestSupport

/// openapi.yaml as a document: valid OpenAPI by an independent validator, and served with a
/// strong `ETag` that `If-None-Match` revalidates.
@Suite("openapi.yaml: a valid document, served with an ETag", .ownThread)
struct OpenAPIDocumentTests {
    @Test("openapi-spec-validator finds no error in openapi.yaml")
    func validDocument() async throws {
        // The test venv's Python (`make test-venv`), or ALERTD_TEST_PYTHON; missing is a failure.
        let checker = SchemaChecker()
        guard FileManager.default.isExecutableFile(atPath: checker.python.path) else {
            throw SchemaChecker.Unavailable(
                description: """
                    No Python at \(checker.python.path) to run openapi-spec-validator. Run `make test-venv` \
                    (or set ALERTD_TEST_PYTHON to a Python that has openapi-spec-validator).
                    """)
        }
        let document = checker.root.appendingPathComponent("Sources/AlertServer/Resources/openapi.yaml")
        let run = try await ChildRun.run(
            checker.python, ["-m", "openapi_spec_validator", "--validation-errors", "all", document.path])
        #expect(!run.output.contains("No module named"), "openapi-spec-validator is not installed: run `make test-venv`")
        #expect(run.status == 0, "openapi-spec-validator:\n\(run.output)")
        #expect(run.output.contains("OK"), "\(run.output)")
    }

    @Test("GET /openapi.yaml carries a strong ETag, and If-None-Match with it answers 304 without a body")
    func entityTag() throws {
        // Given the service and the document it serves
        let service = try AlertService.forTests()
        let first = service.respond(to: HTTPRequest(method: "GET", path: "/openapi.yaml"))
        #expect(first.status == 200)
        let tag = try #require(first.headers["ETag"])
        #expect(tag == EntityTag.strong(for: try AlertService.bundledOpenAPI()))
        #expect(!tag.hasPrefix("W/"))
        #expect(first.headers["Content-Type"] == "application/yaml")

        // When it is asked for again with that tag, and with another
        let same = service.respond(to: HTTPRequest(method: "GET", path: "/openapi.yaml", headers: ["If-None-Match": tag]))
        let other = service.respond(
            to: HTTPRequest(method: "GET", path: "/openapi.yaml", headers: ["If-None-Match": #""0123456789abcdef0123456789abcdef""#]))

        // Then the first is 304 with the tag and no body; the second is the document again
        #expect(same.status == 304)
        #expect(same.headers["ETag"] == tag)
        #expect(same.body.isEmpty)
        #expect(other.status == 200)
        #expect(other.body == first.body)
    }
}
