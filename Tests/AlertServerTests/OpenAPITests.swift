import AlertCatalogs
import Foundation
import Testing
import Yams

@testable import AlertServer
@testable import HTTPTestSupport
@testable import AlertdTestSupport

@Suite("openapi.yaml and the router agree")
struct OpenAPITests {
    let document: [String: Any]
    let service: AlertService

    init() throws {
        let bytes = try AlertService.bundledOpenAPI()
        document = try #require(try Yams.load(yaml: String(decoding: bytes, as: UTF8.self)) as? [String: Any])
        service = try AlertService.forTests()
    }

    /// `METHOD /path` for every operation in the document.
    private var documented: Set<String> {
        let paths = document["paths"] as? [String: Any] ?? [:]
        var operations: Set<String> = []
        for (path, item) in paths {
            for method in (item as? [String: Any] ?? [:]).keys
            where ["get", "put", "post", "delete", "patch", "head", "options"].contains(method) {
                operations.insert("\(method.uppercased()) \(path)")
            }
        }
        return operations
    }

    @Test("it is OpenAPI 3.1")
    func version() {
        #expect((document["openapi"] as? String)?.hasPrefix("3.1") == true)
    }

    @Test("every route is documented and every documented operation is routed")
    func parity() {
        let routed = Set(service.router.routes.map { "\($0.method) \($0.pattern)" })
        #expect(routed.subtracting(documented).isEmpty, "routes missing from openapi.yaml")
        #expect(documented.subtracting(routed).isEmpty, "operations in openapi.yaml with no route")
        #expect(!routed.isEmpty)
    }

    @Test("the schema of the rendered spec is there")
    func specSchema() throws {
        let components = try #require(document["components"] as? [String: Any])
        let schemas = try #require(components["schemas"] as? [String: Any])
        #expect(schemas["AlertSpec"] != nil)
        #expect(schemas["Problem"] != nil)
    }

    @Test("the file at the repository root is the one served")
    func rootFile() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("openapi.yaml")
        #expect(try Array(Data(contentsOf: root)) == AlertService.bundledOpenAPI())
    }
}
