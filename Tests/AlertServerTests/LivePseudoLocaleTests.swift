import AlertSpec
import Foundation
import Testing
@testable import AlertdTestSupport
@testable import HTTPTestSupport

/// The pseudo-locales over HTTP: the render route, `next`, the catalog listings and the 400 for
/// a private-use region that names none.
@Suite("Live server: pseudo-locales")
struct LivePseudoLocaleTests {
    @Test("?locale=en-XA renders the English text accented and padded, parameters as given, with its own ETag")
    func accented() throws {
        try withLiveServer { port in
            let client = try RawHTTPClient(port: port)
            let english = try client.request("GET", "/v1/catalogs/app/alerts/newMessages?count=3&sender=Ana%20Lee&locale=en")
            let pseudo = try client.request("GET", "/v1/catalogs/app/alerts/newMessages?count=3&sender=Ana%20Lee&locale=en-XA")
            #expect(pseudo.status == 200)
            #expect(pseudo.header("Content-Language") == "en-XA")
            #expect(pseudo.header("ETag") != english.header("ETag"))
            let spec = try pseudo.decode(EnvelopeBody.self)
            #expect(spec.locale == "en-XA")
            #expect(spec.direction == "ltr")
            let title = try #require(spec.title)
            #expect(title.hasPrefix("[Ñéŵ ɱéššåĝéš ƒŕöɱ Ana Lee "))
            #expect(title.hasSuffix("]"))
            let englishSpec = try english.decode(EnvelopeBody.self)
            #expect(spec.actions?.map(\.id) == englishSpec.actions?.map(\.id))
        }
    }

    @Test("?locale=ar-XB renders right to left with bidi marks, also in a catalog with Arabic of its own")
    func bidi() throws {
        try withLiveServer { port in
            let client = try RawHTTPClient(port: port)
            let response = try client.request("GET", "/v1/catalogs/app/alerts/questionExit?locale=AR_xb", headers: [("Accept-Language", "ja")])
            #expect(response.status == 200)
            #expect(response.header("Content-Language") == "ar-XB")
            let spec = try response.decode(EnvelopeBody.self)
            #expect(spec.direction == "rtl")
            #expect(spec.title == PseudoLocale.bidi.transform("Leave this question?"))
            #expect(spec.actions?.first { $0.role == "cancel" }?.label == PseudoLocale.bidi.transform("Cancel"))
        }
    }

    @Test("Accept-Language never chooses a pseudo-locale")
    func notByHeader() throws {
        try withLiveServer { port in
            let response = try RawHTTPClient(port: port).request(
                "GET", "/v1/catalogs/app/alerts/questionExit", headers: [("Accept-Language", "en-XA, ar-XB;q=0.9")])
            #expect(response.header("Content-Language") == "en")
        }
    }

    @Test("a locale with another private-use region answers 400 naming the pseudo-locales", arguments: [
        "/v1/catalogs/app/alerts/questionExit?locale=de-XA", "/v1/catalogs/onboarding/alerts/setup?locale=en-XZ",
    ])
    func unknownPseudoLocale(target: String) throws {
        try withLiveServer { port in
            let response = try RawHTTPClient(port: port).request("GET", target)
            let problem = try expectProblem(response, status: 400)
            #expect(problem.type == "urn:alertd:problem:bad-request")
            #expect(problem.detail.contains("en-XA or ar-XB"))
        }
    }

    @Test("the catalog listings name the pseudo-locales apart from the catalog's own locales")
    func listed() throws {
        try withLiveServer { port in
            let client = try RawHTTPClient(port: port)
            struct Listed: Decodable {
                struct Catalog: Decodable {
                    var locales: [String]
                    var pseudoLocales: [String]
                }
                var catalogs: [Catalog]
            }
            let list = try client.request("GET", "/v1/catalogs").decode(Listed.self)
            #expect(!list.catalogs.isEmpty)
            for catalog in list.catalogs {
                #expect(catalog.pseudoLocales == ["en-XA", "ar-XB"])
                #expect(Set(catalog.locales).isDisjoint(with: catalog.pseudoLocales))
            }
            let detail = try client.request("GET", "/v1/catalogs/app").decode(Listed.Catalog.self)
            #expect(detail.pseudoLocales == ["en-XA", "ar-XB"])
        }
    }

    @Test("next?locale=ar-XB delivers a queued alert rendered in the pseudo-locale; a wrong one is 400 and delivers nothing")
    func delivered() throws {
        try withLiveServer { port in
            let session = try SessionClient.open(port: port, session: "pseudo-phone")
            _ = try session.enqueue(#"{"alert":"app/logoutConfirm"}"#)
            _ = try expectProblem(try session.next(locale: "fr-XB"), status: 400)
            let delivery = try session.delivered(locale: "ar-XB")
            #expect(delivery.spec.locale == "ar-XB")
            #expect(delivery.spec.direction == "rtl")
            #expect(delivery.spec.title == PseudoLocale.bidi.transform("Log out?"))
        }
    }
}
