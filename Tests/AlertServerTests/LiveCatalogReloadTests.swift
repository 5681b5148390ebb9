import AlertCatalogs
import AlertQueue
import AlertQueueSQLite
import AlertServer
import Foundation
import MicroHTTP
import Testing
@testable import AlertdTestSupport
@testable import HTTPTestSupport

// `POST /v1/catalogs/reload` over real sockets: a changed catalog folder is served from the next
// request on, renderings of what changed are made anew, a broken folder keeps the old catalogs.

/// A catalog file in alertd's format with one alert whose title is `title`.
private func catalogFile(title: String) -> String {
    #"{"alerts": {"hello": {"kind": "alert", "title": "\#(title)", "actions": [{"id": "ok", "label": "OK"}]}}}"#
}

/// A temporary catalog folder, removed when the test ends.
private final class CatalogDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("alertd-reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: url.appendingPathComponent(name))
    }

    func remove(_ name: String) throws {
        try FileManager.default.removeItem(at: url.appendingPathComponent(name))
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// A live server reading `folder` (none for nil) as `alertd serve --catalogs` would.
private func withCatalogServer<Result>(
    _ folder: CatalogDirectory?, _ body: (_ port: Int, _ service: AlertService) throws -> Result
) throws -> Result {
    _ = LiveServer.ignoreBrokenPipes
    let builtIn = try CatalogRegistry.builtInCatalogs()
    let files = try folder.map { try CatalogFolder.load($0.url, alongside: builtIn) } ?? []
    let settings = QueueSettings()
    let queue = QueueServices(
        store: try SQLiteQueueStore.inMemory(settings: settings), credentials: TestCredentials.credentials, settings: settings,
        clock: SystemClock())
    let service = try AlertService(catalogs: try CatalogRegistry(builtIn + files), catalogFolder: folder?.url, queue: queue)
    let server = try HTTPServer(
        configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0, threads: 2), handler: service, observer: service.observer)
    defer {
        service.queue.polls.close()
        server.stop(grace: .seconds(2))
    }
    return try body(server.port, service)
}

private let admin = [("Authorization", "Bearer \(TestCredentials.adminToken)")]

private struct Summary: Decodable {
    struct Catalog: Decodable {
        var name: String
        var file: String?
        var alerts: Int
        var changed: Bool
    }
    var catalogs: [Catalog]
    var removed: [String]
}

@Suite("Live server: catalog reload")
struct LiveCatalogReloadTests {
    static let hello = "/v1/catalogs/promo/alerts/hello"

    @Test("a changed file is served after a reload: the same URL renders the new text, the old is gone from the caches")
    func reloadServesNewText() throws {
        // Given a folder with promo.json, served and rendered (render cache and kept answers filled)
        let folder = try CatalogDirectory()
        try folder.write("promo.json", catalogFile(title: "Spring sale"))
        try folder.write("other.json", catalogFile(title: "Unchanged"))
        try withCatalogServer(folder) { port, _ in
            let client = try RawHTTPClient(port: port)
            for _ in 0..<3 { #expect(try client.request("GET", Self.hello).text.contains("Spring sale")) }
            let before = try client.request("GET", "/v1/catalogs")

            // When promo.json changes, a catalog is added, and the catalogs are reloaded
            try folder.write("promo.json", catalogFile(title: "Summer sale"))
            try folder.write("fresh.json", catalogFile(title: "Brand new"))
            let reload = try client.request("POST", "/v1/catalogs/reload", headers: admin)

            // Then the reload answers a summary of every catalog, saying which changed
            #expect(reload.status == 200, "\(reload.text)")
            #expect(reload.header("Cache-Control") == "no-store")
            let summary = try reload.decode(Summary.self)
            let byName = Dictionary(uniqueKeysWithValues: summary.catalogs.map { ($0.name, $0) })
            #expect(byName["promo"]?.changed == true)
            #expect(byName["promo"]?.alerts == 1)
            #expect(byName["fresh"]?.changed == true)
            #expect(byName["other"]?.changed == false)
            #expect(byName["app"]?.changed == false)
            #expect(byName["app"]?.file == nil)
            #expect(summary.removed.isEmpty)

            // And the same URL renders the new text, never the old, and the listing has the new catalog
            for _ in 0..<3 {
                let shown = try client.request("GET", Self.hello)
                #expect(shown.status == 200)
                #expect(shown.text.contains("Summer sale"))
                #expect(!shown.text.contains("Spring sale"))
            }
            #expect(try client.request("GET", "/v1/catalogs/fresh/alerts/hello").text.contains("Brand new"))
            let after = try client.request("GET", "/v1/catalogs")
            #expect(after.header("ETag") != before.header("ETag"))
            #expect(after.text.contains("\"fresh\""))
            #expect(try client.request("GET", "/v1/catalogs/other/alerts/hello").text.contains("Unchanged"))
        }
    }

    @Test("an unchanged file keeps its renderings across a reload; a changed one is rendered anew")
    func unchangedKeepsRenderings() throws {
        // Given two catalogs, reloaded once (the first reload renders file catalogs anew: what
        // start-up read is not known to be the bytes on disk) and each rendered since
        let folder = try CatalogDirectory()
        try folder.write("promo.json", catalogFile(title: "Spring sale"))
        try folder.write("other.json", catalogFile(title: "Unchanged"))
        try withCatalogServer(folder) { port, _ in
            let client = try RawHTTPClient(port: port)
            #expect(try client.request("POST", "/v1/catalogs/reload", headers: admin).status == 200)
            #expect(try client.request("GET", Self.hello).status == 200)
            #expect(try client.request("GET", "/v1/catalogs/other/alerts/hello").status == 200)

            // When only promo.json changes and the catalogs are reloaded
            try folder.write("promo.json", catalogFile(title: "Summer sale"))
            #expect(try client.request("POST", "/v1/catalogs/reload", headers: admin).status == 200)
            let before = try Self.cacheLookups(client)

            // Then other's rendering is found in the render cache, and promo's is made again
            #expect(try client.request("GET", "/v1/catalogs/other/alerts/hello").text.contains("Unchanged"))
            #expect(try client.request("GET", Self.hello).text.contains("Summer sale"))
            let after = try Self.cacheLookups(client)
            #expect(after.hit - before.hit == 1)
            #expect(after.miss - before.miss == 1)
        }
    }

    /// The render cache's hits and misses so far, from `/metrics`.
    static func cacheLookups(_ client: RawHTTPClient) throws -> (hit: Double, miss: Double) {
        let lines = try client.request("GET", "/metrics").text.split(separator: "\n")
        func value(_ result: String) -> Double {
            let prefix = "alertd_render_cache_lookups_total{result=\"\(result)\"} "
            return lines.first { $0.hasPrefix(prefix) }.flatMap { Double($0.dropFirst(prefix.count)) } ?? -1
        }
        return (value("hit"), value("miss"))
    }

    @Test("a removed file: its catalog is gone (404), and the summary says so")
    func removedCatalog() throws {
        let folder = try CatalogDirectory()
        try folder.write("promo.json", catalogFile(title: "Spring sale"))
        try withCatalogServer(folder) { port, _ in
            let client = try RawHTTPClient(port: port)
            #expect(try client.request("GET", Self.hello).status == 200)
            try folder.remove("promo.json")
            let reload = try client.request("POST", "/v1/catalogs/reload", headers: admin)
            #expect(reload.status == 200)
            #expect(try reload.decode(Summary.self).removed == ["promo"])
            #expect(try client.request("GET", Self.hello).status == 404)
            #expect(try client.request("GET", "/v1/catalogs/promo").status == 404)
        }
    }

    @Test("a bad folder answers 422 with every error, and the old catalogs are still served")
    func badFolderKeepsOld() throws {
        // Given a served folder
        let folder = try CatalogDirectory()
        try folder.write("promo.json", catalogFile(title: "Spring sale"))
        try withCatalogServer(folder) { port, service in
            let client = try RawHTTPClient(port: port)
            #expect(try client.request("GET", Self.hello).text.contains("Spring sale"))

            // When one file loses its title and another is not JSON, and the catalogs are reloaded
            try folder.write("promo.json", #"{"alerts": {"hello": {"kind": "alert", "actions": [{"id": "ok", "label": "OK"}]}}}"#)
            try folder.write("broken.yaml", "alerts: [unclosed")
            let reload = try client.request("POST", "/v1/catalogs/reload", headers: admin)

            // Then the answer is a 422 problem listing each error with its file, entry and pointer
            #expect(try expectProblem(reload, status: 422).type == "urn:alertd:problem:invalid-catalogs")
            let errors = try #require(try reload.decode(Problem.self).catalogErrors)
            #expect(errors.count == 2, "\(errors)")
            #expect(errors.contains { $0.file.hasSuffix("promo.json") && $0.entry == "hello" && $0.pointer == "/title" })
            #expect(errors.contains { $0.file.hasSuffix("broken.yaml") && !$0.message.isEmpty })

            // And the old catalogs are still served, the old text with them
            #expect(try client.request("GET", Self.hello).text.contains("Spring sale"))
            #expect(service.catalogs.registry["broken"] == nil)
        }
    }

    @Test("reloading takes the admin token: 401 without a token, 403 with a session's")
    func adminOnly() throws {
        let folder = try CatalogDirectory()
        try withCatalogServer(folder) { port, _ in
            let client = try RawHTTPClient(port: port)
            let anonymous = try client.request("POST", "/v1/catalogs/reload")
            #expect(try expectProblem(anonymous, status: 401).type == "urn:alertd:problem:unauthorized")
            #expect(anonymous.header("WWW-Authenticate") == "Bearer")
            let session = try SessionClient.open(port: port, session: "ana")
            let forbidden = try client.request("POST", "/v1/catalogs/reload", headers: [("Authorization", "Bearer \(session.token)")])
            #expect(try expectProblem(forbidden, status: 403).type == "urn:alertd:problem:forbidden")
        }
    }

    @Test("without a catalog folder, a reload answers 409 saying there is none")
    func noFolder() throws {
        try withCatalogServer(nil) { port, _ in
            let response = try RawHTTPClient(port: port).request("POST", "/v1/catalogs/reload", headers: admin)
            let problem = try expectProblem(response, status: 409)
            #expect(problem.type == "urn:alertd:problem:no-catalog-folder")
            #expect(problem.detail.contains("--catalogs"))
        }
    }

    @Test("a queued item whose alert was removed is cancelled by next, which delivers the item after it")
    func goneAlertIsSkipped() throws {
        // Given a session with promo/hello queued first, then app/questionExit
        let folder = try CatalogDirectory()
        try folder.write("promo.json", catalogFile(title: "Spring sale"))
        try withCatalogServer(folder) { port, _ in
            let session = try SessionClient.open(port: port, session: "ana")
            let gone = try session.enqueue(#"{"alert": "promo/hello", "priority": 900}"#)
            let kept = try session.enqueue(#"{"alert": "app/questionExit"}"#)

            // When promo.json is removed and the catalogs reloaded
            try folder.remove("promo.json")
            #expect(try RawHTTPClient(port: port).request("POST", "/v1/catalogs/reload", headers: admin).status == 200)

            // Then next skips the item it cannot render, cancels it, and delivers the next one
            let delivered = try session.delivered()
            #expect(delivered.ticket == kept.ticket)
            #expect(try session.list().items.map(\.ticket) == [kept.ticket])
            #expect(!(try session.list().items.contains { $0.ticket == gone.ticket }))
        }
    }

    @Test("an item shown before its alert was removed is acknowledged with its action, and chains nothing")
    func ackOfGoneAlert() throws {
        let folder = try CatalogDirectory()
        try folder.write("promo.json", catalogFile(title: "Spring sale"))
        try withCatalogServer(folder) { port, _ in
            // Given promo/hello delivered to the app
            let session = try SessionClient.open(port: port, session: "ana")
            let shown = try session.enqueue(#"{"alert": "promo/hello"}"#)
            #expect(try session.delivered().ticket == shown.ticket)

            // When its file is removed, the catalogs reloaded, and the app acknowledges its button
            try folder.remove("promo.json")
            #expect(try RawHTTPClient(port: port).request("POST", "/v1/catalogs/reload", headers: admin).status == 200)
            let ack = try session.ack(shown.ticket, action: "ok")

            // Then the ack stands, with nothing chained
            #expect(ack.status == 200, "\(ack.text)")
            let body = try ack.decode(AcknowledgedBody.self)
            #expect(body.state == "done")
            #expect(body.chained == nil)
        }
    }
}
