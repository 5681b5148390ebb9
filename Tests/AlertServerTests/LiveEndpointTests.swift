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
@testable import AlertdTestSupport

// The HTTP contract of DESIGN.md, checked over real sockets against the real server: MicroHTTP on libmicrohttpd
// serving AlertService with the built-in catalogs, on an ephemeral port.

@Suite("Live server: endpoints")
struct LiveEndpointTests {
    // MARK: Health and documents

    @Test("GET /livez and /readyz answer 200 JSON", arguments: [("/livez", "alive"), ("/readyz", "ready")])
    func health(path: String, expectedStatus: String) throws {
        try withLiveServer { port in
            // Given a running server
            let client = try RawHTTPClient(port: port)
            // When a probe asks
            let response = try client.request("GET", path)
            // Then it is 200 JSON saying so
            #expect(response.status == 200)
            #expect(response.mediaType == "application/json")
            let health = try response.decode(HealthBody.self)
            #expect(health.status == expectedStatus)
            if path == "/readyz" { #expect(health.catalogs == 2) }
        }
    }

    @Test("GET /openapi.yaml serves the bundled document byte for byte")
    func openAPIDocument() throws {
        try withLiveServer { port in
            // Given the document shipped in the module's resources
            let bundled = try AlertService.bundledOpenAPI()
            #expect(!bundled.isEmpty)
            // When a client fetches it
            let response = try RawHTTPClient(port: port).request("GET", "/openapi.yaml")
            // Then the bytes are the same
            #expect(response.status == 200)
            #expect(response.mediaType == "application/yaml")
            #expect(response.body == bundled)
            #expect(response.header("Content-Length") == String(bundled.count))
        }
    }

    // MARK: Catalogs

    @Test("GET /v1/catalogs lists the built-in catalogs with their numbers of alerts")
    func catalogList() throws {
        try withLiveServer { port in
            // Given the built-in catalogs
            // When a client lists them
            let response = try RawHTTPClient(port: port).request("GET", "/v1/catalogs")
            // Then there are `app` and `onboarding`, each counting its enum's samples
            #expect(response.status == 200)
            #expect(response.mediaType == "application/json")
            let list = try response.decode(CatalogListBody.self)
            #expect(list.catalogs.map(\.name) == ["app", "onboarding"])
            #expect(list.catalogs.last?.count == OnboardingAlert.samples.count)
            let app = try #require(list.catalogs.first)
            #expect(app.count == AppAlert.samples.count)
            #expect(app.sourceLanguage == "en")
            #expect(app.locales.contains("en"))
        }
    }

    @Test("GET /v1/catalogs/app lists each alert type with kind, parameters and an example")
    func catalogDetail() throws {
        try withLiveServer { port in
            // Given the app catalog
            // When a client asks for its alert types
            let response = try RawHTTPClient(port: port).request("GET", "/v1/catalogs/app")
            #expect(response.status == 200)
            #expect(response.mediaType == "application/json")

            // Then every entry carries type, kind, parameters and example
            let object = try #require(try response.jsonObject())
            let rawAlerts = try #require(object["alerts"] as? [[String: Any]])
            for alert in rawAlerts {
                for member in ["type", "kind", "parameters", "example"] {
                    #expect(alert[member] != nil, "\(alert["type"] ?? "?") lacks \(member)")
                }
            }
            let detail = try response.decode(CatalogDetailBody.self)
            #expect(detail.name == "app")
            #expect(detail.alerts.count == AppAlert.samples.count)
            #expect(Set(detail.alerts.map(\.type)).count == detail.alerts.count, "types are unique")

            // And newMessages declares its two required parameters, with the sample as example
            let newMessages = try #require(detail.alerts.first { $0.type == "newMessages" })
            #expect(newMessages.kind == "alert")
            #expect(
                newMessages.parameters == [
                    .init(name: "count", type: "integer", required: true),
                    .init(name: "sender", type: "string", required: true),
                ])
            #expect(newMessages.example == ["count": .integer(3), "sender": .string("Ana")])

            // And parameterless alerts say so; HUDs are listed as hud
            let questionExit = try #require(detail.alerts.first { $0.type == "questionExit" })
            #expect(questionExit.parameters.isEmpty)
            #expect(questionExit.example.isEmpty)
            #expect(detail.alerts.first { $0.type == "loading" }?.kind == "hud")
        }
    }

    // MARK: Rendering

    @Test("GET …/alerts/questionExit renders the spec envelope, localized headers and actions")
    func renderQuestionExit() throws {
        try withLiveServer { port in
            // Given the app catalog
            // When a client renders questionExit
            let response = try RawHTTPClient(port: port).request("GET", "/v1/catalogs/app/alerts/questionExit")

            // Then it is JSON in English, varying by Accept-Language
            #expect(response.status == 200)
            #expect(response.mediaType == "application/json")
            #expect(response.header("Content-Language") == "en")
            #expect(response.header("Vary") == "Accept-Language")

            // And the envelope is complete
            let spec = try response.decode(EnvelopeBody.self)
            #expect(spec.schemaVersion == 1)
            #expect(spec.id == "app/questionExit")
            #expect(spec.kind == "alert")
            #expect(spec.lane == "modal")
            #expect(spec.locale == "en")
            #expect(spec.direction == "ltr")
            #expect(spec.priority == AppAlert.questionExit.priority)
            #expect(spec.title == "Leave this question?")

            // And there is exactly one cancel and one destructive action
            let roles = (spec.actions ?? []).map(\.role)
            #expect(roles.filter { $0 == "cancel" }.count == 1)
            #expect(roles.filter { $0 == "destructive" }.count == 1)
            #expect(roles.count == 2)
        }
    }

    @Test("A served spec decodes with AlertSpec and re-encodes to the same bytes")
    func servedSpecRoundTrips() throws {
        try withLiveServer { port in
            // Given a spec served over HTTP
            let response = try RawHTTPClient(port: port).request(
                "GET", "/v1/catalogs/app/alerts/newMessages?count=2&sender=Ana")
            #expect(response.status == 200)

            // When the shared model decodes it, as an iOS client would
            let decoded = try JSONDecoder().decode(AlertSpec.self, from: Data(response.body))

            // Then it is the spec the catalog renders, and encodes back to the served bytes
            let expected = try CatalogRegistry.builtIn().render(
                catalog: "app", type: "newMessages", parameters: ["count": .string("2"), "sender": .string("Ana")],
                locale: "en")
            #expect(decoded == expected)
            #expect(decoded.id == "app/newMessages")
            #expect(try OrderedJSONEncoder().encode(decoded) == response.body)

            // And the same holds for questionExit
            let exit = try RawHTTPClient(port: port).request("GET", "/v1/catalogs/app/alerts/questionExit")
            let exitSpec = try JSONDecoder().decode(AlertSpec.self, from: Data(exit.body))
            #expect(exitSpec.kind == .alert)
            #expect(exitSpec.lane == .modal)
            #expect(try OrderedJSONEncoder().encode(exitSpec) == exit.body)
        }
    }

    @Test("A locale the catalog lacks falls back to its source language")
    func localeFallback() throws {
        try withLiveServer { port in
            // Given a catalog without Spanish
            let client = try RawHTTPClient(port: port)
            // When a client asks for Mexican Spanish, by query and by header
            let byQuery = try client.request("GET", "/v1/catalogs/app/alerts/questionExit?locale=es-MX")
            let byHeader = try client.request(
                "GET", "/v1/catalogs/app/alerts/questionExit", headers: [("Accept-Language", "es-MX, es;q=0.8")])
            // Then both are rendered in English and say so
            for response in [byQuery, byHeader] {
                #expect(response.status == 200)
                #expect(response.header("Content-Language") == "en")
                #expect(try response.decode(EnvelopeBody.self).locale == "en")
            }
        }
    }

    @Test("Percent-encoded UTF-8 in a parameter reaches the rendered text")
    func utf8Parameter() throws {
        try withLiveServer { port in
            // Given a sender named "Zoë" (UTF-8 percent-encoded)
            let target = "/v1/catalogs/app/alerts/newMessages?count=3&sender=Zo%C3%AB"
            // When it is rendered
            let response = try RawHTTPClient(port: port).request("GET", target)
            // Then the title carries the decoded name
            #expect(response.status == 200)
            #expect(try response.decode(EnvelopeBody.self).title == "New messages from Zoë")
        }
    }

    // MARK: Problems
}
