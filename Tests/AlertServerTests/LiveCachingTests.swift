import AlertCatalogs
import AlertSpec
import Foundation
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// HTTP caching of specs and catalog listings (RFC 9110 §8.8.3, §13.1.2): ETag, Cache-Control,
// Vary and If-None-Match over real sockets; queue answers stay `no-store`.

@Suite("Live server: HTTP caching")
struct LiveCachingTests {
    static let exit = "/v1/catalogs/app/alerts/questionExit?locale=fr"

    /// A strong tag as alertd makes them: 32 lowercase hex digits, quoted.
    static func isStrongTag(_ tag: String?) -> Bool {
        guard let tag, tag.count == 34, tag.first == "\"", tag.last == "\"" else { return false }
        return tag.dropFirst().dropLast().allSatisfy { "0123456789abcdef".contains($0) }
    }

    @Test("a spec has a strong ETag, stable across requests, public caching and Vary")
    func specHeaders() throws {
        try withLiveServer { port in
            // Given a running server
            let client = try RawHTTPClient(port: port)
            // When a spec is fetched twice
            let first = try client.request("GET", Self.exit)
            let second = try client.request("GET", Self.exit)
            // Then both carry the same strong tag and the caching headers
            #expect(first.status == 200)
            #expect(Self.isStrongTag(first.header("ETag")))
            #expect(first.header("ETag") == second.header("ETag"))
            #expect(first.header("Cache-Control") == "public, max-age=300")
            #expect(first.header("Vary") == "Accept-Language")
            #expect(first.header("Content-Language") == "fr")
            #expect(first.body == second.body)
        }
    }

    @Test("a cache miss and a hit answer the bytes the catalog renders, in any parameter order")
    func sameBytes() throws {
        try withLiveServer { port in
            // Given parameters no request has used yet, and the spec rendered directly
            let catalog = try #require(try CatalogRegistry.builtIn()["app"])
            let spec = try catalog.render(
                type: "newMessages", parameters: ["count": .string("7"), "sender": .string("Kim")], locale: "en")
            let expected = try OrderedJSONEncoder().encode(spec)
            let client = try RawHTTPClient(port: port)
            // When they are asked for, then asked for again in another order
            let miss = try client.request("GET", "/v1/catalogs/app/alerts/newMessages?count=7&sender=Kim&locale=en")
            let hit = try client.request("GET", "/v1/catalogs/app/alerts/newMessages?sender=Kim&locale=en&count=7")
            // Then both are the rendered bytes, with one tag
            #expect(miss.status == 200)
            #expect(miss.body == expected)
            #expect(hit.body == expected)
            #expect(miss.header("ETag") == hit.header("ETag"))
        }
    }

    @Test(
        "If-None-Match naming the tag answers 304 without a body, keeping the validators",
        arguments: ["exact", "weak", "list", "star", "two fields"])
    func notModified(form: String) throws {
        try withLiveServer { port in
            // Given a spec's tag
            let client = try RawHTTPClient(port: port)
            let tag = try #require(try client.request("GET", Self.exit).header("ETag"))
            let headers: [(String, String)] = switch form {
            case "exact": [("If-None-Match", tag)]
            case "weak": [("If-None-Match", "W/" + tag)]
            case "list": [("If-None-Match", #""abc", W/"def",\#(tag) , "ghi""#)]
            case "star": [("If-None-Match", "*")]
            default: [("If-None-Match", #""abc""#), ("if-none-match", tag)]
            }
            // When a client revalidates with it
            let response = try client.request("GET", Self.exit, headers: headers)
            // Then it is 304, no body, with the headers a 200 would have for caching, and no other
            // metadata of the representation (RFC 9110 §15.4.5)
            #expect(response.status == 304)
            #expect(response.body.isEmpty)
            #expect(response.header("ETag") == tag)
            #expect(response.header("Cache-Control") == "public, max-age=300")
            #expect(response.header("Vary") == "Accept-Language")
            #expect(response.header("Content-Language") == nil)
            #expect(response.header("Content-Type") == nil)
            // And the connection still serves the next request
            #expect(try client.request("GET", Self.exit).status == 200)
        }
    }

    @Test("If-None-Match with other tags answers 200 with the body", arguments: [
        #""0123456789abcdef0123456789abcdef""#, #"W/"nope", "other""#, "not-a-tag", "",
    ])
    func modified(value: String) throws {
        try withLiveServer { port in
            let client = try RawHTTPClient(port: port)
            let plain = try client.request("GET", Self.exit)
            let response = try client.request("GET", Self.exit, headers: [("If-None-Match", value)])
            #expect(response.status == 200)
            #expect(response.body == plain.body)
            #expect(response.header("ETag") == plain.header("ETag"))
        }
    }

    @Test("locales and parameters make different tags; a tag of one does not revalidate another")
    func differentTags() throws {
        try withLiveServer { port in
            let client = try RawHTTPClient(port: port)
            let targets = [
                "/v1/catalogs/app/alerts/questionExit?locale=en",
                "/v1/catalogs/app/alerts/questionExit?locale=fr",
                "/v1/catalogs/app/alerts/newMessages?count=2&sender=Ana",
                "/v1/catalogs/app/alerts/newMessages?count=3&sender=Ana",
            ]
            let tags = try targets.map { try #require(try client.request("GET", $0).header("ETag")) }
            #expect(Set(tags).count == targets.count)
            // A negotiated locale (Accept-Language) changes the tag too
            let french = try client.request(
                "GET", "/v1/catalogs/app/alerts/questionExit", headers: [("Accept-Language", "fr-CA, fr;q=0.8"), ("If-None-Match", tags[0])])
            #expect(french.status == 200)
            #expect(french.header("Content-Language") == "fr")
            #expect(french.header("ETag") == tags[1])
        }
    }

    @Test("catalog listings have a tag, public caching and 304", arguments: ["/v1/catalogs", "/v1/catalogs/app"])
    func listings(path: String) throws {
        try withLiveServer { port in
            let client = try RawHTTPClient(port: port)
            let first = try client.request("GET", path)
            #expect(first.status == 200)
            #expect(first.mediaType == "application/json")
            let tag = try #require(first.header("ETag"))
            #expect(Self.isStrongTag(tag))
            #expect(first.header("Cache-Control") == "public, max-age=300")
            #expect(try client.request("GET", path).header("ETag") == tag)
            let revalidated = try client.request("GET", path, headers: [("If-None-Match", "W/" + tag)])
            #expect(revalidated.status == 304)
            #expect(revalidated.body.isEmpty)
            #expect(revalidated.header("ETag") == tag)
            #expect(revalidated.header("Cache-Control") == "public, max-age=300")
        }
    }

    @Test("an unknown catalog or alert is a 404 problem whatever If-None-Match says")
    func conditionalErrors() throws {
        try withLiveServer { port in
            let client = try RawHTTPClient(port: port)
            for path in ["/v1/catalogs/nope", "/v1/catalogs/app/alerts/nope"] {
                let response = try client.request("GET", path, headers: [("If-None-Match", "*")])
                #expect(response.status == 404, "\(path)")
                #expect(response.header("ETag") == nil, "\(path)")
            }
        }
    }

    @Test("token and queue answers are no-store, with no tag, even with If-None-Match")
    func queueNoStore() throws {
        try withLiveServer { port in
            let admin = try SessionClient(port: port, session: "cache")
            let token = try admin.admin("POST", "/token")
            #expect(token.status == 201)
            #expect(token.header("Cache-Control") == "no-store")
            let app = try SessionClient.open(port: port, session: "cache")
            let enqueue = try app.admin("POST", "/queue", json: #"{"alert":"app/questionExit"}"#)
            #expect(enqueue.status == 201)
            let list = try app.admin("GET", "/queue")
            let next = try app.next(headers: [("If-None-Match", "*")])
            #expect(next.status == 200)
            for response in [enqueue, list, next] {
                #expect(response.header("Cache-Control") == "no-store")
                #expect(response.header("ETag") == nil)
            }
        }
    }

    @Test("negotiated locales are kept per Accept-Language value and stay right on every repeat")
    func negotiationKept() throws {
        try withLiveServer { port in
            // Given a running server and headers that negotiate different locales
            let client = try RawHTTPClient(port: port)
            let cases: [(header: String, locale: String)] = [
                ("fr-CA, fr;q=0.8", "fr"), ("zh-TW", "zh-Hant"), ("zh-CN,zh;q=0.9", "zh-Hans"),
                ("de;q=0, ja;q=0.5, *;q=0.1", "ja"), ("xx, yy", "en"), ("*", "en"), ("ru;q=0.2, ar;q=0.9", "ar"),
            ]
            // When each is asked several times, interleaved (the first a miss, the rest hits)
            for _ in 0..<3 {
                for (header, locale) in cases {
                    let response = try client.request(
                        "GET", "/v1/catalogs/app/alerts/questionExit", headers: [("Accept-Language", header)])
                    // Then each answer is in the locale its header asks for
                    #expect(response.status == 200)
                    #expect(response.header("Content-Language") == locale, "Accept-Language: \(header)")
                }
            }
            // And ?locale= still wins over the header
            let chosen = try client.request(
                "GET", "/v1/catalogs/app/alerts/questionExit?locale=de", headers: [("Accept-Language", "fr")])
            #expect(chosen.header("Content-Language") == "de")
        }
    }
}
