import AlertServer
import Foundation
import MicroHTTP
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// Answers kept by request target (KeptAnswers): the catalog routes' answers given again before
// routing. Each test asks a fresh service the same thing twice or more, so the later answers
// come from what was kept, and checks them against what the route itself answers.

@Suite("Answers kept by request target")
struct KeptAnswersTests {
    static let exit = "/v1/catalogs/app/alerts/questionExit"
    static let messages = "/v1/catalogs/app/alerts/newMessages"

    /// `service`'s answer, as the server thread gets it.
    static func answer(
        _ service: AlertService, method: String = "GET", _ path: String, query: [(String, String?)] = [],
        headers: HTTPHeaders = [:], body: [UInt8] = []
    ) throws -> HTTPResponse {
        let request = HTTPRequest(
            method: method, path: path, query: query.map { (name: $0.0, value: $0.1) }, headers: headers, body: body)
        guard case .respond(let response) = service.handle(request) else {
            throw KeptAnswerTestError.answeredLater
        }
        return response
    }

    @Test("a repeated render is the same answer, headers, bytes and route")
    func repeated() throws {
        let service = try AlertService.forTests()
        let first = try Self.answer(service, Self.exit, query: [("locale", "zh-Hans")])
        for _ in 0..<3 {
            let again = try Self.answer(service, Self.exit, query: [("locale", "zh-Hans")])
            #expect(again.status == 200)
            #expect(again.body == first.body)
            #expect(again.headers == first.headers)
            #expect(again.route == first.route && first.route != nil)
        }
    }

    @Test("locale, Accept-Language and platform each make their own answer, kept apart")
    func apart() throws {
        let service = try AlertService.forTests()
        let variants: [(query: [(String, String?)], headers: HTTPHeaders, language: String)] = [
            ([("locale", "zh-Hans")], [:], "zh-Hans"),
            ([], ["Accept-Language": "fr"], "fr"),
            ([], ["Accept-Language": "de, en;q=0.5"], "de"),
            ([], [:], "en"),
            ([("locale", "fr"), ("platform", "android")], [:], "fr"),
        ]
        // Twice round: the second round is answered from what the first kept
        var firstRound: [HTTPResponse] = []
        for round in 0..<2 {
            for (index, variant) in variants.enumerated() {
                let response = try Self.answer(service, Self.exit, query: variant.query, headers: variant.headers)
                #expect(response.status == 200)
                #expect(response.headers["Content-Language"] == variant.language, "\(variant)")
                if round == 0 {
                    firstRound.append(response)
                } else {
                    #expect(response.body == firstRound[index].body, "\(variant)")
                }
            }
        }
        // And the same as a service that kept nothing
        let fresh = try AlertService.forTests()
        for (index, variant) in variants.enumerated() {
            #expect(try Self.answer(fresh, Self.exit, query: variant.query, headers: variant.headers).body == firstRound[index].body)
        }
    }

    @Test("parameters in another order are the same render; other values another")
    func parameters() throws {
        let service = try AlertService.forTests()
        let one = try Self.answer(service, Self.messages, query: [("count", "3"), ("sender", "Ana")])
        let swapped = try Self.answer(service, Self.messages, query: [("sender", "Ana"), ("count", "3")])
        let again = try Self.answer(service, Self.messages, query: [("count", "3"), ("sender", "Ana")])
        let other = try Self.answer(service, Self.messages, query: [("count", "4"), ("sender", "Ana")])
        #expect([one.status, swapped.status, again.status, other.status] == [Int](repeating: 200, count: 4))
        #expect(swapped.body == one.body && again.body == one.body)
        #expect(other.body != one.body)
        #expect(other.headers["ETag"] != one.headers["ETag"])
    }

    @Test("If-None-Match is honoured on a kept answer: 304 for its tag, 200 for another")
    func revalidation() throws {
        let service = try AlertService.forTests()
        let first = try Self.answer(service, Self.exit)
        let tag = try #require(first.headers["ETag"])
        let notModified = try Self.answer(service, Self.exit, headers: ["If-None-Match": tag])
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        #expect(notModified.headers["ETag"] == tag)
        let changed = try Self.answer(service, Self.exit, headers: ["If-None-Match": #""0000""#])
        #expect(changed.status == 200 && changed.body == first.body)
    }

    @Test("HEAD is answered with the kept answer's headers")
    func head() throws {
        let service = try AlertService.forTests()
        let get = try Self.answer(service, Self.exit)
        let head = try Self.answer(service, method: "HEAD", Self.exit)
        #expect(head.status == 200)
        #expect(head.headers == get.headers)
    }

    @Test("a GET with a body goes through its route, which refuses a body that is not JSON")
    func withBody() throws {
        let service = try AlertService.forTests()
        #expect(try Self.answer(service, Self.exit).status == 200)
        let refused = try Self.answer(
            service, Self.exit, headers: ["Content-Type": "text/plain"], body: Array("hello".utf8))
        #expect(refused.status == 415)
    }

    @Test("errors are not kept: a refused render is refused again, and a good one after it answers")
    func errors() throws {
        let service = try AlertService.forTests()
        for _ in 0..<2 {
            #expect(try Self.answer(service, Self.exit, query: [("platform", "windows")]).status == 400)
            #expect(try Self.answer(service, Self.messages, query: [("count", "many"), ("sender", "Ana")]).status == 400)
            #expect(try Self.answer(service, "/v1/catalogs/app/alerts/nope").status == 404)
        }
        #expect(try Self.answer(service, Self.messages, query: [("count", "2"), ("sender", "Ana")]).status == 200)
    }

    @Test("listings are kept too, and routes that are not (the spec's validation, health) answer each time")
    func listings() throws {
        let service = try AlertService.forTests()
        for path in ["/v1/catalogs", "/v1/catalogs/app", "/livez"] {
            let first = try Self.answer(service, path)
            let again = try Self.answer(service, path)
            #expect(first.status == 200 && again.status == 200)
            #expect(again.body == first.body, "\(path)")
        }
    }

    @Test("with a render cache of size 0 nothing is kept, and every answer is still right")
    func none() throws {
        let service = try AlertService.forTests(renderCacheSize: 0)
        let first = try Self.answer(service, Self.exit, query: [("locale", "fr")])
        let again = try Self.answer(service, Self.exit, query: [("locale", "fr")])
        #expect(first.status == 200 && again.body == first.body && again.headers == first.headers)
    }
}

enum KeptAnswerTestError: Error {
    case answeredLater
}
