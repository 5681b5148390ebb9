#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AlertCatalogs
import AlertServer
import AlertSpec
import Dispatch
import Foundation
import MicroHTTP
import Synchronization
import Testing
@testable import HTTPTestSupport

// Response bodies written from the contract in DESIGN.md, not borrowed from the server's types.

// MARK: - Wire shapes (written from the contract, not borrowed from the server's types)

struct HealthBody: Decodable {
    var status: String
    var catalogs: Int?
}

struct ProblemBody: Decodable {
    var type: String
    var title: String
    var status: Int
    var detail: String
    var parameter: String?
    var expected: String?
    /// For `store-unavailable`: the store's failure (`disk-full`, `timeout`, …).
    var reason: String?
}

struct CatalogListBody: Decodable {
    struct Item: Decodable {
        var name: String
        var sourceLanguage: String
        var locales: [String]
        var count: Int
    }
    var catalogs: [Item]
}

struct CatalogDetailBody: Decodable {
    struct Alert: Decodable {
        struct Parameter: Decodable, Equatable {
            var name: String
            var type: String
            var required: Bool
        }
        var type: String
        var kind: String
        var parameters: [Parameter]
        var example: [String: ParameterValue]
    }
    var name: String
    var alerts: [Alert]
}

struct EnvelopeBody: Decodable {
    struct Action: Decodable {
        var id: String
        var label: String
        var role: String
    }
    var schemaVersion: Int
    var id: String
    var kind: String
    var lane: String
    var locale: String
    var direction: String
    var priority: Int
    var title: String?
    var actions: [Action]?
}

let problemMediaType = "application/problem+json"

/// Checks the RFC 9457 members every problem must have, and that the body agrees with the status line.
func expectProblem(
    _ response: RawHTTPResponse, status: Int, sourceLocation: SourceLocation = #_sourceLocation
) throws -> ProblemBody {
    #expect(response.status == status, "status line", sourceLocation: sourceLocation)
    #expect(response.mediaType == problemMediaType, "Content-Type", sourceLocation: sourceLocation)
    let problem = try response.decode(ProblemBody.self)
    #expect(problem.status == status, "problem status member", sourceLocation: sourceLocation)
    #expect(!problem.type.isEmpty, "problem type", sourceLocation: sourceLocation)
    #expect(!problem.title.isEmpty, "problem title", sourceLocation: sourceLocation)
    #expect(!problem.detail.isEmpty, "problem detail", sourceLocation: sourceLocation)
    return problem
}
