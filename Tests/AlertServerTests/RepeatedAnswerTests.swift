import Foundation
import Synchronization
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// A connection keeps the last response it sent from shared bytes and sends it again when the
// next answer is the same (MicroHTTP's ConnectionResponse); only the X-Request-Id changes. These
// tests walk one keep-alive connection through repeats, 304s, other locales and HEAD, and check
// that every answer is whole and carries its own id, once.

@Suite("Live server: the same answer again on one connection")
struct RepeatedAnswerTests {
    static let spec = "/v1/catalogs/app/alerts/questionExit?locale=zh-Hans"

    /// The headers but `Date` and `X-Request-Id`, in the order sent.
    static func stableHeaders(_ response: RawHTTPResponse) -> [String] {
        response.headers.filter { !["date", "x-request-id"].contains($0.name.lowercased()) }
            .map { "\($0.name): \($0.value)" }
    }

    @Test("repeats, 304s and another locale in turn: each answer whole, with its own id once")
    func sequence() throws {
        try withLiveServer { port in
            // Given one keep-alive connection and a spec's first answer on it
            let client = try RawHTTPClient(port: port)
            let first = try client.request("GET", Self.spec, headers: [("X-Request-Id", "first")])
            #expect(first.status == 200)
            let tag = try #require(first.header("ETag"))
            #expect(first.headerValues("X-Request-Id") == ["first"])

            // When it is asked for again and again, revalidated, and asked for in another locale
            // between two repeats, with new ids, no id, and the previous id again
            let steps: [(ifNoneMatch: String?, locale: String, id: String?)] = [
                (nil, "zh-Hans", "second"), (nil, "zh-Hans", nil), (tag, "zh-Hans", "third"), (tag, "zh-Hans", "third"),
                (nil, "zh-Hans", "fourth"), (nil, "en", "fifth"), (nil, "zh-Hans", "fifth"), (tag, "zh-Hans", nil),
            ]
            var notModified: RawHTTPResponse?
            for (ifNoneMatch, locale, id) in steps {
                var headers: [(String, String)] = []
                if let ifNoneMatch { headers.append(("If-None-Match", ifNoneMatch)) }
                if let id { headers.append(("X-Request-Id", id)) }
                let target = "/v1/catalogs/app/alerts/questionExit?locale=\(locale)"
                let response = try client.request("GET", target, headers: headers)

                // Then each carries exactly one X-Request-Id: the one sent, or a new one made
                let ids = response.headerValues("X-Request-Id")
                #expect(ids.count == 1, "\(ids)")
                if let id { #expect(ids == [id]) } else { #expect(ids.allSatisfy(RequestIDTests.isMade), "\(ids)") }
                switch (ifNoneMatch, locale) {
                case (nil, "zh-Hans"):
                    // And a repeat is the first answer again, byte for byte
                    #expect(response.status == 200)
                    #expect(response.body == first.body)
                    #expect(Self.stableHeaders(response) == Self.stableHeaders(first))
                case (nil, _):
                    // And another locale is its own answer
                    #expect(response.status == 200)
                    #expect(response.header("Content-Language") == locale)
                    #expect(response.header("ETag") != tag)
                    #expect(response.body != first.body)
                default:
                    // And a revalidation is a bodiless 304, the same each time
                    #expect(response.status == 304)
                    #expect(response.body.isEmpty)
                    #expect(response.header("ETag") == tag)
                    #expect(response.header("Content-Type") == nil)
                    if let notModified { #expect(Self.stableHeaders(response) == Self.stableHeaders(notModified)) }
                    notModified = response
                }
            }
        }
    }

    @Test("HEAD after GET on one connection: the same headers, no body, and the connection still serves")
    func headAfterGet() throws {
        try withLiveServer { port in
            // Given a spec answered on a connection
            let client = try RawHTTPClient(port: port)
            let get = try client.request("GET", Self.spec, headers: [("X-Request-Id", "get")])
            // When HEAD asks for it on the same connection
            let head = try client.request("HEAD", Self.spec, headers: [("X-Request-Id", "head")])
            // Then it has the GET's headers, its own id and no body
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(Self.stableHeaders(head) == Self.stableHeaders(get))
            #expect(head.headerValues("X-Request-Id") == ["head"])
            // And a GET after it has the body again
            let again = try client.request("GET", Self.spec, headers: [("X-Request-Id", "again")])
            #expect(again.body == get.body)
            #expect(again.headerValues("X-Request-Id") == ["again"])
        }
    }

    @Test("many connections repeating one spec at once each get their own ids and whole answers")
    func concurrentConnections() throws {
        try withLiveServer { port in
            // Given 16 connections at once, each asking for the same spec 20 times, ids of its own
            let expected = try RawHTTPClient(port: port).request("GET", Self.spec).body
            let problems = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 16) { connection in
                do {
                    let client = try RawHTTPClient(port: port)
                    for request in 0..<20 {
                        let id = "c\(connection)-r\(request)"
                        let response = try client.request("GET", Self.spec, headers: [("X-Request-Id", id)])
                        // Then every answer is the spec, with that request's id only
                        let ids = response.headerValues("X-Request-Id")
                        if response.status != 200 || response.body != expected || ids != [id] {
                            problems.withLock { $0.append("\(id): \(response.status), \(ids)") }
                        }
                    }
                } catch {
                    problems.withLock { $0.append("connection \(connection): \(error)") }
                }
            }
            let found = problems.withLock { $0 }
            #expect(found.isEmpty, "\(found.count) wrong answers, the first: \(found.prefix(3))")
        }
    }
}
