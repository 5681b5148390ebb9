import AlertSpec
import Foundation
import MicroHTTP
import Testing

@testable import AlertServer
@testable import HTTPTestSupport
@testable import AlertdTestSupport

/// Requests the fuzzer (Fuzz/, target FuzzQueryParameters) crashed the server with, each kept in
/// Fuzz/Corpus/FuzzQueryParameters too. Each must get an answer; the server must not trap.
@Suite("Fuzzing regressions: query parameters")
struct QueryParameterFuzzRegressionTests {
    let service: AlertService

    init() throws {
        service = try AlertService.forTests()
    }

    @Test("a red packet of 9e86 renders every digit (it trapped converting to Int64)")
    func hugeAmount() throws {
        // Given the query the fuzzer found: app/alerts/redPacket?amount=9e86&sender
        let request = HTTPRequest(
            method: "GET", path: "/v1/catalogs/app/alerts/redPacket", query: [("amount", "9e86"), ("sender", nil)])

        // When it is rendered
        let response = service.respond(to: request)

        // Then the amount is written out in full
        #expect(response.status == 200)
        let spec = try JSONDecoder().decode(AlertSpec.self, from: Data(response.body))
        guard case .alert(let dialog) = spec.body else { Issue.record("not a dialog"); return }
        #expect(dialog.message == "Open it before midnight to collect ¥9\(String(repeating: "0", count: 86)).00.")
    }
}
