import Foundation
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// The built alertd executable with catalog files: `alertd validate` and `alertd serve --catalogs`.

/// A temporary folder of fixture files, removed with the test that made it.
private final class Fixtures {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("alertd-validate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Writes `text` to `name` (which may be in a subfolder) and returns the file's path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: folder) }
}

private let rateConfig = #"""
    {"actions": {"namedActions": {
      "askRating": {"actionType": "alert", "actionData": {
        "title": "Enjoying the app?", "okButtonActionName": "thanks", "showCancelButton": true}},
      "thanks": {"actionType": "alert", "actionData": {"message": "Thank you!"}},
      "openReview": {"actionType": "link", "actionData": {"url": "https://example.com/review"}}
    }}}
    """#

private let promoCatalog = #"""
    {"sourceLanguage": "en", "alerts": {"welcome": {"kind": "alert", "title": "Welcome, {name}!",
      "actions": [{"id": "ok", "label": "OK", "action": {"type": "next", "alert": "rate/askRating"}}]}}}
    """#

private let brokenConfig = #"""
    {"actions": {"namedActions": {
      "silent": {"actionType": "alert", "actionData": {"showCancelButton": true}},
      "cancelOnly": {"actionType": "alert", "actionData": {"title": "Stuck", "showOkButton": false, "showCancelButton": true}}
    }}}
    """#

@Suite("alertd validate and serve --catalogs")
struct ValidateCommandTests {
    private let fixtures: Fixtures

    init() throws { fixtures = try Fixtures() }

    @Test("a good folder and a good spec file: warnings only, a summary, exit 0")
    func validFiles() throws {
        // Given a folder with both formats (one skipped link action) and a spec that leads into it
        try fixtures.write("catalogs/rate.json", rateConfig)
        try fixtures.write("catalogs/promo.json", promoCatalog)
        try fixtures.write("catalogs/README.md", "not a catalog")
        let spec = try fixtures.write("spec.yaml", """
            kind: alert
            title: Hello
            actions:
              - {id: go, label: Go, action: {type: next, alert: promo/welcome, params: {name: Ana}}}
            """)

        // When alertd validates them
        let result = try AlertdProcess.run(["validate", fixtures.path("catalogs"), spec])

        // Then it prints the warning and the summary, and exits 0
        #expect(result.exited)
        #expect(result.status == 0, "stdout: \(result.standardOutput) stderr: \(result.standardError)")
        #expect(
            lines(result.standardOutput) == [
                "warning: \(fixtures.path("catalogs/rate.json")): openReview: /actionType: \"link\" actions are not alerts; skipped.",
                "3 files checked: 0 errors, 1 warning",
            ])
    }

    @Test("a broken config and an invalid spec: one line per error with file, entry and pointer, exit 1")
    func invalidFiles() throws {
        // Given a Critical Moments config with two broken alerts, and a spec with no button
        let config = try fixtures.write("broken.json", brokenConfig)
        let spec = try fixtures.write("lonely.json", #"{"kind": "alert", "title": "Hi", "prioriti": 3}"#)

        // When alertd validates both
        let result = try AlertdProcess.run(["validate", config, spec])

        // Then every error is a line, the spec's with entry "-", and it exits 1
        #expect(result.exited)
        #expect(result.status == 1, "stdout: \(result.standardOutput) stderr: \(result.standardError)")
        #expect(
            lines(result.standardOutput) == [
                "\(config): cancelOnly: /actionData/showOkButton: An alert needs at least one button that is not a cancel (an OK or a custom one).",
                "\(config): silent: /actionData/title: An alert needs a title, a message, or both.",
                "\(spec): -: /prioriti: \"prioriti\" is not a field here.",
                "2 files checked: 3 errors, 0 warnings",
            ])
    }

    @Test("a path that does not exist and a badly named catalog file are errors")
    func missingAndMisnamed() throws {
        let misnamed = try fixtures.write("rate v2.json", rateConfig)
        let missing = fixtures.path("nowhere.json")

        let result = try AlertdProcess.run(["validate", missing, misnamed])

        #expect(result.exited)
        #expect(result.status == 1)
        let output = lines(result.standardOutput)
        #expect(output.first == "\(missing): -: -: There is no such file or folder.")
        #expect(output.contains { $0.hasPrefix("\(misnamed): -: -: \"rate v2\" cannot name a catalog") })
        #expect(output.last?.hasSuffix("2 errors, 1 warning") == true, "\(output)")
    }

    @Test("serve --catalogs with a broken file prints every problem and exits 2 without listening")
    func serveRefusesBrokenCatalogs() throws {
        // Given a folder with a broken config
        let config = try fixtures.write("catalogs/broken.json", brokenConfig)

        // When alertd is asked to serve it
        let result = try AlertdProcess.run(
            ["serve", "--port", "0", "--store", "memory", "--catalogs", fixtures.path("catalogs")])

        // Then it names each problem on stderr and stops with status 2
        #expect(result.exited)
        #expect(result.status == 2, "stderr: \(result.standardError)")
        let errors = lines(result.standardError)
        #expect(errors.contains("alertd: \(config): silent: /actionData/title: An alert needs a title, a message, or both."))
        #expect(errors.contains { $0.hasPrefix("alertd: \(config): cancelOnly: /actionData/showOkButton: ") })
        #expect(!result.standardOutput.contains("listening"))
    }

    @Test("serve --catalogs with a catalog named like a built-in one exits 2")
    func serveRefusesNameClash() throws {
        let app = try fixtures.write("catalogs/app.json", promoCatalog.replacingOccurrences(of: "rate/askRating", with: "app/questionExit"))
        let result = try AlertdProcess.run(
            ["serve", "--port", "0", "--store", "memory", "--catalogs", fixtures.path("catalogs")])
        #expect(result.exited)
        #expect(result.status == 2)
        #expect(lines(result.standardError).contains("alertd: \(app): -: -: The catalog name \"app\" is taken by a built-in catalog."))
    }

    @Test("serve --catalogs serves the files' alerts and names them at start-up")
    func serveLoadsCatalogs() throws {
        // Given a folder with both formats
        try fixtures.write("catalogs/rate.json", rateConfig)
        try fixtures.write("catalogs/promo.yaml", """
            alerts:
              welcome: {kind: alert, title: "Welcome, {name}!", actions: [{id: ok, label: OK}]}
            """)

        // When alertd serves it
        let run = try AlertdProcess.launch(
            ["serve", "--host", "127.0.0.1", "--port", "0", "--store", "memory", "--catalogs", fixtures.path("catalogs")])
        defer { run.kill() }
        let line = try #require(
            run.readStandardOutputLine(within: .seconds(10)), "no first line; stderr: \(run.standardErrorSoFar())")
        let port = try #require(Int(line.split(separator: ":").last ?? ""), "no port in \(line)")
        let log = run.waitForStandardError(containing: "info listening", within: .seconds(5))

        // Then the start-up log lists them and the alerts render
        #expect(log.contains(#"info catalogs loaded catalogs="app, onboarding, promo, rate""#), "\(log)")
        let welcome = try RawHTTPClient(port: port).request("GET", "/v1/catalogs/promo/alerts/welcome?name=Ana")
        #expect(welcome.status == 200)
        #expect(try welcome.decode(EnvelopeBody.self).id == "promo/welcome")
        let rating = try RawHTTPClient(port: port).request("GET", "/v1/catalogs/rate/alerts/askRating")
        #expect(rating.status == 200)
        let missing = try RawHTTPClient(port: port).request("GET", "/v1/catalogs/promo/alerts/welcome")
        #expect(missing.status == 400)
    }

    @Test("render and catalog list/show read --catalogs, else ALERTD_CATALOGS, as serve does")
    func commandsReadTheFolder() throws {
        // Given a folder with a Critical Moments config and an alertd catalog
        try fixtures.write("catalogs/rate.json", rateConfig)
        try fixtures.write("catalogs/promo.json", promoCatalog)
        let folder = fixtures.path("catalogs")

        // When the commands are run with the option, and with the environment variable only
        let rendered = try AlertdProcess.run(["render", "promo/welcome", "--param", "name=Ana", "--catalogs", folder])
        let listed = try AlertdProcess.run(["catalog", "list"], environment: ["ALERTD_CATALOGS": folder])
        let shown = try AlertdProcess.run(["catalog", "show", "rate"], environment: ["ALERTD_CATALOGS": folder])
        let without = try AlertdProcess.run(["render", "promo/welcome", "--param", "name=Ana"])

        // Then each sees the folder's catalogs beside the built-in ones; without it, none
        #expect(rendered.status == 0, "stderr: \(rendered.standardError)")
        let spec = try JSONDecoder().decode(EnvelopeBody.self, from: Data(rendered.standardOutput.utf8))
        #expect(spec.id == "promo/welcome")
        #expect(rendered.standardOutput.contains("Welcome, Ana!"))
        #expect(lines(listed.standardOutput).map { String($0.prefix { $0 != "\t" }) } == ["app", "onboarding", "promo", "rate"])
        #expect(lines(shown.standardOutput).contains { $0.hasPrefix("askRating\talert") }, "\(shown.standardOutput)")
        #expect(without.status != 0)
        #expect(without.standardError.contains("promo"), "stderr: \(without.standardError)")
    }

    @Test("validate with ALERTD_CATALOGS checks that folder too, and spec files lead into its catalogs")
    func validateReadsTheFolder() throws {
        // Given a folder whose promo catalog a spec file leads into, and a broken config in another
        try fixtures.write("catalogs/rate.json", rateConfig)
        try fixtures.write("catalogs/promo.json", promoCatalog)
        try fixtures.write("broken/broken.json", brokenConfig)
        let spec = try fixtures.write("spec.json", #"""
            {"kind": "alert", "title": "Hi", "actions": [
              {"id": "go", "label": "Go", "action": {"type": "next", "alert": "promo/welcome", "params": {"name": "Ana"}}}]}
            """#)

        // When the spec is validated with each folder in the environment
        let good = try AlertdProcess.run(["validate", spec], environment: ["ALERTD_CATALOGS": fixtures.path("catalogs")])
        let broken = try AlertdProcess.run(["render", "app/questionExit", "--catalogs", fixtures.path("broken")])

        // Then the folder's files are counted and the spec's link resolves; a broken folder stops render with status 2
        #expect(good.status == 0, "stdout: \(good.standardOutput)")
        #expect(lines(good.standardOutput).last == "3 files checked: 0 errors, 1 warning")
        #expect(broken.status == 2)
        #expect(broken.standardError.contains("silent"), "stderr: \(broken.standardError)")
        #expect(broken.standardOutput.isEmpty)
    }

    private func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
}
