#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AlertCatalogs
import AlertServer
import AlertSpec
import ChildProcesses
import Dispatch
import Foundation
import MicroHTTP
import Synchronization
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// The built alertd executable: serve, signals, render.


@Suite("alertd executable")
struct ProcessTests {
    @Test("serve --port 0 prints its address, serves, and exits 0 on SIGTERM")
    func serveAndTerminate() throws {
        // Given alertd serving on a free port with an in-memory store
        let run = try AlertdProcess.launch(["serve", "--host", "127.0.0.1", "--port", "0", "--store", "memory"])
        defer { run.kill() }
        let line = try #require(
            run.readStandardOutputLine(within: .seconds(10)), "no first line; stderr: \(run.standardErrorSoFar())")
        let prefix = "alertd listening on http://127.0.0.1:"
        #expect(line.hasPrefix(prefix), "first line: \(line)")
        let port = try #require(Int(line.dropFirst(prefix.count)), "no port in \(line)")
        #expect(port > 0)

        // And its log (standard error) tells what it opened; standard output says nothing more
        let log = run.waitForStandardError(containing: "info listening", within: .seconds(5))
        #expect(log.contains("info store opened store=memory"), "log: \(log)")
        #expect(run.readStandardOutputLine(within: .milliseconds(200)) == nil)
        // And with no admin token or session secret given, it generated both, readable by it alone
        for name in ["admin-token", "session-secret"] {
            let file = run.dataFolder.appendingPathComponent(name).path
            #expect(log.contains("info secret kept (owner only) file=\(file)"), "log: \(log)")
            let permissions = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
            #expect(permissions == 0o600)
        }

        // When a client asks it something
        let response = try RawHTTPClient(port: port).request("GET", "/v1/catalogs/app/alerts/questionExit")
        #expect(response.status == 200)
        #expect(try response.decode(EnvelopeBody.self).id == "app/questionExit")

        // And it is sent SIGTERM
        #expect(signalProcess(run.process.processIdentifier, SIGTERM) == 0)

        // Then it stops through its shutdown path and exits with status 0 within 10 s
        let exited = run.waitForExit(within: .seconds(10))
        #expect(exited, "still running 10 s after SIGTERM")
        if exited {
            #expect(run.process.terminationReason == .exit, "killed by signal \(run.process.terminationStatus)")
            #expect(run.process.terminationStatus == 0)
            let log = run.waitForStandardError(containing: "info stopped", within: .seconds(1))
            #expect(log.contains("info stopping\n"), "log: \(log)")
            #expect(log.hasSuffix("info stopped\n"), "log: \(log)")
        }
    }

    @Test("SIGTERM sent as soon as the listening line appears still stops alertd cleanly")
    func terminateRightAfterReadiness() throws {
        // Given alertd that has just said it is listening (the line supervisors wait for)
        let run = try AlertdProcess.launch(["serve", "--host", "127.0.0.1", "--port", "0", "--store", "memory"])
        defer { run.kill() }
        let line = try #require(
            run.readStandardOutputLine(within: .seconds(10)), "no first line; stderr: \(run.standardErrorSoFar())")
        #expect(line.hasPrefix("alertd listening on "))

        // When SIGTERM follows at once
        #expect(signalProcess(run.process.processIdentifier, SIGTERM) == 0)

        // Then it still exits 0 through its shutdown path (its signal handling exists before it
        // prints the address: a signal sent then once killed it or was lost).
        let exited = run.waitForExit(within: .seconds(10))
        #expect(exited, "still running 10 s after SIGTERM")
        if exited {
            #expect(
                run.process.terminationReason == .exit,
                "alertd was killed by signal \(run.process.terminationStatus) instead of stopping")
            #expect(run.process.terminationStatus == 0, "stderr: \(run.standardErrorSoFar().suffix(4000))")
        }
    }

    @Test("serve --port 99999 fails at once naming the port")
    func serveWithBadPort() throws {
        // Given a port that does not exist
        // When alertd is asked to serve on it
        let result = try AlertdProcess.run(["serve", "--port", "99999", "--store", "memory"])
        // Then it exits non-zero and says why on stderr
        #expect(result.exited)
        #expect(result.status != 0)
        #expect(result.standardError.contains("99999"), "stderr: \(result.standardError)")
        #expect(result.standardError.contains("port"), "stderr: \(result.standardError)")
        #expect(!result.standardOutput.contains("listening"))
    }

    @Test("render app/questionExit prints the spec as JSON")
    func renderCommand() throws {
        // Given the built-in catalog
        // When the spec is rendered on the command line
        let result = try AlertdProcess.run(["render", "app/questionExit", "--locale", "en"])
        // Then it exits 0 with the same JSON the server sends
        #expect(result.exited)
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let spec = try JSONDecoder().decode(AlertSpec.self, from: Data(result.standardOutput.utf8))
        #expect(spec.id == "app/questionExit")
        #expect(spec.locale == "en")
        let expected = try CatalogRegistry.builtIn().render(
            catalog: "app", type: "questionExit", parameters: [:], locale: "en")
        #expect(spec == expected)
    }

    @Test("render --locale ar-XB prints the pseudo-locale's spec; another private-use region is refused")
    func renderPseudoLocale() throws {
        // Given the built-in catalog
        // When it is rendered in a pseudo-locale, and in a private-use region that names none
        let result = try AlertdProcess.run(["render", "app/questionExit", "--locale", "ar-XB"])
        let refused = try AlertdProcess.run(["render", "app/questionExit", "--locale", "de-XA"])
        // Then the first is the server's rendering, right to left; the second fails naming the pseudo-locales
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let spec = try JSONDecoder().decode(AlertSpec.self, from: Data(result.standardOutput.utf8))
        #expect(spec.locale == "ar-XB")
        #expect(spec.direction == .rtl)
        #expect(spec == (try CatalogRegistry.builtIn().render(catalog: "app", type: "questionExit", parameters: [:], locale: "ar-XB")))
        #expect(refused.status != 0)
        #expect(refused.standardError.contains("en-XA or ar-XB"), "stderr: \(refused.standardError)")
    }

    @Test("render with a mistyped parameter exits non-zero naming it")
    func renderCommandWithBadParameter() throws {
        // Given newMessages, whose count is an integer
        // When it is rendered with count=abc
        let result = try AlertdProcess.run(["render", "app/newMessages", "--param", "count=abc", "--param", "sender=A"])
        // Then it fails and says which parameter
        #expect(result.exited)
        #expect(result.status != 0)
        #expect(result.standardError.contains("count"), "stderr: \(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }

    @Test("ALERTD_* environment twins configure serve when the flags are absent")
    func environmentTwins() throws {
        // Given an admin token and a catalog folder given only through the environment
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alertd-env-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"alerts": {"hi": {"kind": "alert", "title": "Hi", "actions": [{"id": "ok", "label": "OK"}]}}}"#.utf8)
            .write(to: folder.appendingPathComponent("envcat.json"))
        let run = try AlertdProcess.launch(
            ["serve", "--host", "127.0.0.1", "--port", "0", "--store", "memory"],
            environment: ["ALERTD_ADMIN_TOKEN": "token-from-env", "ALERTD_CATALOGS": folder.path])
        defer { run.kill() }
        let line = try #require(run.readStandardOutputLine(within: .seconds(10)), "stderr: \(run.standardErrorSoFar())")
        let port = try #require(Int(line.split(separator: ":").last ?? ""))
        // Then the folder's catalog is served, and the admin token is the one given: not generated
        let log = run.waitForStandardError(containing: "info listening", within: .seconds(5))
        #expect(log.contains("envcat"), "log: \(log)")
        #expect(log.contains("session-secret\n"), "log: \(log)")
        #expect(!FileManager.default.fileExists(atPath: run.dataFolder.appendingPathComponent("admin-token").path))
        let token = try RawHTTPClient(port: port).request(
            "POST", "/v1/sessions/s/token", headers: [("Authorization", "Bearer token-from-env")])
        #expect(token.status == 201)
    }
}

