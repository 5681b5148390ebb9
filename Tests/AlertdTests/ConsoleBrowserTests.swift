import Foundation
import TestExecutors
import Testing
@testable import AlertdTestSupport
@testable import HTTPTestSupport

// The preview console in a real browser: headless Chromium (Debian's `chromium` and
// `chromium-driver`, which `make test` installs) driven by Selenium (PyPI, in .build/venv)
// through scripts/console_browser_check.py, against a live `alertd serve`. The script says
// what it checks; this test starts the server, runs it and reads its verdict. Screenshots go to
// .build/test-artifacts/console (or ALERTD_TEST_ARTIFACTS), outside git.

@Suite("Console in headless Chromium", .ownThread)
struct ConsoleBrowserTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let chromium = "/usr/bin/chromium"
    static let driver = "/usr/bin/chromedriver"
    static let locales = ["en", "ar", "ja"]

    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// Where the screenshots go: ALERTD_TEST_ARTIFACTS, else .build/test-artifacts, then `console`.
    static var artifacts: URL {
        let base = ProcessInfo.processInfo.environment["ALERTD_TEST_ARTIFACTS"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? root.appendingPathComponent(".build/test-artifacts")
        return base.appendingPathComponent("console")
    }

    @Test(
        "every kind in en, ar and ja: no console error or CSP violation, the spec's texts and buttons (alerts in iOS order, mirrored in ar), card flows walked; the operator view enqueues, explains and cancels",
        .timeLimit(.minutes(5)))
    func alertDialogs() async throws {
        // Given a browser, its driver and Selenium, which `make test` installs: missing is a failure
        let python = SchemaChecker().python
        for (path, what) in [(Self.chromium, "chromium"), (Self.driver, "chromium-driver's chromedriver"), (python.path, "the test venv's Python")]
        where !FileManager.default.isExecutableFile(atPath: path) {
            throw Missing(description: "No \(what) at \(path). Run `make test` (or `make test-venv`): it installs chromium, chromium-driver and Selenium.")
        }

        // And alertd serving the built-in catalogs on a free port, with an admin token for the operator view
        let adminToken = "console-" + UUID().uuidString
        let (server, port) = try AlertdProcess.serving(["--store", "memory", "--admin-token", adminToken])
        defer { server.kill() }
        let artifacts = Self.artifacts
        try? FileManager.default.removeItem(at: artifacts)

        // When the script drives the console in each locale
        let run = try await ChildRun.run(
            python,
            [
                Self.root.appendingPathComponent("scripts/console_browser_check.py").path,
                "--url", "http://127.0.0.1:\(port)", "--artifacts", artifacts.path, "--locales", Self.locales.joined(separator: ","),
                "--chromium", Self.chromium, "--driver", Self.driver, "--admin-token", adminToken,
            ],
            limit: .seconds(240))

        // Then it finds no problem, and says what it checked
        #expect(!run.output.contains("No module named 'selenium'"), "Selenium is not installed: run `make test-venv`")
        #expect(run.status == 0, "console_browser_check.py exited \(run.status):\n\(run.output)")
        #expect(run.output.contains("checked ") && run.output.contains("the operator view driven"), "not the script's report:\n\(run.output)")
        #expect(!run.output.contains("PROBLEM"), "\(run.output)")

        // And left a screenshot of each locale's galleries and of each dialog and sheet
        let shots = try FileManager.default.contentsOfDirectory(atPath: artifacts.path)
        for locale in Self.locales {
            for gallery in ["alert", "sheet"] {
                #expect(shots.contains("gallery-\(gallery)-\(locale).png"), "no \(gallery) gallery screenshot for \(locale) in \(artifacts.path)")
            }
            #expect(shots.contains("app-logoutConfirm-\(locale).png"), "no dialog screenshot for \(locale)")
            #expect(shots.contains("app-shareSheet-\(locale).png"), "no sheet screenshot for \(locale)")
            for preview in ["app-loading", "app-welcomeToast", "onboarding-setup"] {
                #expect(shots.contains("\(preview)-\(locale).png"), "no screenshot of \(preview) for \(locale)")
            }
        }
        #expect(shots.contains { $0.hasPrefix("compare-") }, "no screenshot of an alert in every locale")
        #expect(shots.contains("gallery-en.png"), "no screenshot of every kind in en")
        #expect(shots.contains("operator-queue.png") && shots.contains("operator-cancelled.png"), "no screenshot of the operator view")

        // And the docs' pictures: each kind in a left-to-right and a right-to-left locale
        let pictures = Set((try? FileManager.default.contentsOfDirectory(atPath: artifacts.appendingPathComponent("docs").path)) ?? [])
        for kind in ["alert", "sheet", "hud", "toast", "card"] {
            for locale in ["en", "ar"] {
                #expect(pictures.contains("\(kind)-\(locale).png"), "no docs picture of a \(kind) in \(locale)")
            }
        }

        // And alertd served it all and is still serving
        #expect(try RawHTTPClient(port: port).request("GET", "/livez").status == 200)
    }
}
