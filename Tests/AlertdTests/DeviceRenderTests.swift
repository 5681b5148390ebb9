import Foundation
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// `?device=`, `?platform=` and the system words over HTTP and on the command line, with a catalog
// folder whose String Catalog varies by device.

private let tips = """
    alerts:
      tip: {kind: alert, title: Tap to open, actions: [{id: ok, label: {system: done}}]}
    """

private let tipStrings = """
    {
      "sourceLanguage" : "en",
      "strings" : {
        "Tap to open" : {
          "localizations" : {
            "en" : { "variations" : { "device" : {
              "ipad" : { "stringUnit" : { "state" : "translated", "value" : "Tap to open beside your work" } },
              "mac" : { "stringUnit" : { "state" : "translated", "value" : "Click to open" } },
              "other" : { "stringUnit" : { "state" : "translated", "value" : "Tap to open" } }
            } } }
          }
        }
      },
      "version" : "1.0"
    }
    """

private let rate = #"{"ask": {"actionType": "alert", "title": "Enjoying the app?", "showCancelButton": true}}"#

@Suite("Rendering for a device and in the platform's words")
struct DeviceRenderTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("alertd-device-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(tips.utf8).write(to: folder.appendingPathComponent("tips.yaml"))
        try Data(tipStrings.utf8).write(to: folder.appendingPathComponent("tips.xcstrings"))
        try Data(rate.utf8).write(to: folder.appendingPathComponent("rate.json"))
    }

    @Test("?device= picks the String Catalog's variation, ?platform=ios means an iPhone, an unknown device is a 400")
    func overHTTP() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try AlertdProcess.launch(["serve", "--host", "127.0.0.1", "--port", "0", "--store", "memory", "--catalogs", folder.path])
        defer { run.kill() }
        let line = try #require(run.readStandardOutputLine(within: .seconds(10)), "stderr: \(run.standardErrorSoFar())")
        let port = try #require(Int(line.split(separator: ":").last ?? ""))
        let client = try RawHTTPClient(port: port)
        func title(_ query: String) throws -> String? {
            let answer = try client.request("GET", "/v1/catalogs/tips/alerts/tip" + query)
            #expect(answer.status == 200, "\(query): \(answer.status)")
            return try answer.decode(EnvelopeBody.self).title
        }

        #expect(try title("?device=mac") == "Click to open")
        #expect(try title("?device=ipad") == "Tap to open beside your work")
        #expect(try title("?platform=ios") == "Tap to open")
        #expect(try title("") == "Tap to open")
        // The same device again is the kept rendering; another device is not.
        #expect(try title("?device=mac") == "Click to open")
        let unknown = try client.request("GET", "/v1/catalogs/tips/alerts/tip?device=fridge")
        #expect(unknown.status == 400)
        #expect(String(decoding: unknown.body, as: UTF8.self).contains("iphone, ipad"))

        // A catalog in English alone still shows a Japanese client the system's Japanese buttons.
        let asked = try client.request("GET", "/v1/catalogs/rate/alerts/ask", headers: [("Accept-Language", "ja-JP, en;q=0.5")])
        let spec = try asked.decode(EnvelopeBody.self)
        #expect(spec.locale == "en")
        #expect(Set(spec.actions?.map(\.label) ?? []) == ["OK", "キャンセル"])
        let done = try client.request("GET", "/v1/catalogs/tips/alerts/tip?locale=de").decode(EnvelopeBody.self)
        #expect(done.actions?.map(\.label) == ["Fertig"])
    }

    @Test("alertd render --device renders the device's variation")
    func onTheCommandLine() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let mac = try AlertdProcess.run(["render", "tips/tip", "--device", "mac", "--catalogs", folder.path])
        #expect(mac.status == 0, "stderr: \(mac.standardError)")
        #expect(mac.standardOutput.contains("Click to open"))
        let bad = try AlertdProcess.run(["render", "tips/tip", "--device", "fridge", "--catalogs", folder.path])
        #expect(bad.status != 0)
        #expect(bad.standardError.contains("--device"))
    }
}
