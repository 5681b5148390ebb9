#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChildProcesses
import Foundation
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// The built alertd executable on SIGHUP: it reads its --catalogs folder again and serves it, or
// logs every problem and keeps serving the catalogs it had.

@Suite("alertd executable: SIGHUP reloads the catalogs")
struct ReloadSignalTests {
    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("alertd-sighup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func write(_ name: String, title: String?) throws {
        let title = title.map { #""title": "\#($0)", "# } ?? ""
        let text = #"{"alerts": {"hello": {"kind": "alert", \#(title)"actions": [{"id": "ok", "label": "OK"}]}}}"#
        try Data(text.utf8).write(to: folder.appendingPathComponent(name))
    }

    /// Waits until `GET path` answers a body containing `text`, up to `limit`.
    private func waitForBody(port: Int, _ path: String, containing text: String, within limit: Duration) throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if try RawHTTPClient(port: port).request("GET", path).text.contains(text) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    @Test("SIGHUP serves a changed file; with a broken one it logs every problem and keeps the old catalogs")
    func reloadOnSignal() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // Given alertd serving a folder with promo.json
        try write("promo.json", title: "Spring sale")
        let run = try AlertdProcess.launch([
            "serve", "--host", "127.0.0.1", "--port", "0", "--store", "memory", "--catalogs", folder.path,
        ])
        defer { run.kill() }
        let line = try #require(run.readStandardOutputLine(within: .seconds(10)), "stderr: \(run.standardErrorSoFar())")
        let port = try #require(Int(line.split(separator: ":").last ?? ""))
        let path = "/v1/catalogs/promo/alerts/hello"
        #expect(try RawHTTPClient(port: port).request("GET", path).text.contains("Spring sale"))

        // When the file changes and alertd gets SIGHUP
        try write("promo.json", title: "Summer sale")
        #expect(signalProcess(run.process.processIdentifier, SIGHUP) == 0)

        // Then it serves the new text and logs the reload
        #expect(try waitForBody(port: port, path, containing: "Summer sale", within: .seconds(10)))
        let log = run.waitForStandardError(containing: "catalogs reloaded", within: .seconds(5))
        #expect(log.contains("changed=promo"), "log: \(log)")

        // When the file breaks (two problems) and alertd gets SIGHUP again
        try write("promo.json", title: nil)
        try Data("alerts: [unclosed".utf8).write(to: folder.appendingPathComponent("broken.yaml"))
        #expect(signalProcess(run.process.processIdentifier, SIGHUP) == 0)

        // Then it logs every problem, keeps serving the catalogs it had, and is still running
        let failed = run.waitForStandardError(containing: "catalogs not reloaded", within: .seconds(10))
        #expect(failed.contains("catalogs not reloaded"), "log: \(failed)")
        let problems = run.waitForStandardError(containing: "broken.yaml", within: .seconds(5))
        #expect(problems.contains("promo.json: hello: /title"), "log: \(problems)")
        #expect(problems.contains("broken.yaml"), "log: \(problems)")
        #expect(try RawHTTPClient(port: port).request("GET", path).text.contains("Summer sale"))
        #expect(run.process.isRunning)

        // And it still stops cleanly on SIGTERM
        #expect(signalProcess(run.process.processIdentifier, SIGTERM) == 0)
        #expect(run.waitForExit(within: .seconds(10)))
        #expect(run.process.terminationStatus == 0)
    }

    @Test("SIGHUP without --catalogs logs that there is nothing to reload and keeps serving")
    func signalWithoutFolder() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try AlertdProcess.launch(["serve", "--host", "127.0.0.1", "--port", "0", "--store", "memory"])
        defer { run.kill() }
        let line = try #require(run.readStandardOutputLine(within: .seconds(10)), "stderr: \(run.standardErrorSoFar())")
        let port = try #require(Int(line.split(separator: ":").last ?? ""))
        #expect(signalProcess(run.process.processIdentifier, SIGHUP) == 0)
        let log = run.waitForStandardError(containing: "catalogs not reloaded", within: .seconds(10))
        #expect(log.contains("no catalog folder"), "log: \(log)")
        #expect(try RawHTTPClient(port: port).request("GET", "/livez").status == 200)
        #expect(run.process.isRunning)
    }
}
