#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AlertServer
import ChildProcesses
import Foundation
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// What `alertd serve` writes to its output and log never holds a secret: not the admin token,
// not the session secret, not a session token — whatever the calls, good or refused.

@Suite("alertd executable: secrets stay out of the log")
struct SecretLoggingTests {
    @Test("after good, refused and hostile calls, neither output nor log holds a token or the secret")
    func noSecretsLogged() throws {
        // Given alertd with a known admin token and session secret
        let admin = "admin-\(UUID().uuidString)"
        let secret = "secret-\(UUID().uuidString)"
        let run = try AlertdProcess.launch([
            "serve", "--host", "127.0.0.1", "--port", "0", "--store", "memory", "--admin-token", admin, "--session-secret", secret,
        ])
        defer { run.kill() }
        let line = try #require(run.readStandardOutputLine(within: .seconds(10)), "stderr: \(run.standardErrorSoFar())")
        let port = try #require(Int(line.split(separator: ":").last ?? ""), "no port in \(line)")

        // When clients make good calls, calls with bad tokens, and hostile ones
        let app = try SessionClient.open(port: port, session: "s", adminToken: admin)
        _ = try app.enqueue(#"{"alert":"app/questionExit"}"#)
        _ = try app.next()
        _ = try app.call("DELETE", "/queue", bearer: app.token)  // 403
        _ = try app.call("GET", "/queue", bearer: admin + "x")  // 401
        _ = try app.call("GET", "/queue", bearer: app.token + "x")  // 401
        _ = try RawHTTPClient(port: port).request(
            "POST", "/v1/sessions/s/queue", headers: [("Authorization", "Bearer \(admin)"), ("Content-Type", "text/plain")],
            body: Array("x".utf8))  // 415
        _ = try? RawHTTPClient(port: port).request(
            "GET", "/livez", headers: [("Authorization", "Bearer \(admin)"), ("X-Big", String(repeating: "b", count: 8000))])
        _ = try? RawHTTPClient(port: port).request(
            "POST", "/v1/sessions/s/queue",
            headers: [("Authorization", "Bearer \(admin)"), ("Content-Length", "2"), ("Transfer-Encoding", "chunked")], body: [])

        // Then, once it has stopped, nothing it wrote holds a secret
        _ = signalProcess(run.process.processIdentifier, SIGTERM)
        #expect(run.waitForExit(within: .seconds(15)))
        var written = line + "\n"
        while let next = run.readStandardOutputLine(within: .milliseconds(200)) { written += next + "\n" }
        written += run.standardErrorSoFar()
        #expect(written.contains("info stopped"), "the output was not read: \(written)")
        #expect(written.contains("info request method=GET path=/v1/sessions/s/next status=200"), "no request lines: \(written)")
        for (name, value) in [("admin token", admin), ("session secret", secret), ("session token", app.token)] {
            #expect(!written.contains(value), "the \(name) was written: \(written)")
        }
        // And the token's signature alone never shows either
        let signature = String(app.token.split(separator: ".").last ?? "")
        #expect(!signature.isEmpty && !written.contains(signature))
    }

    @Test("JSON logs: every line an object; tokens in a query or in Authorization, and the query itself, never written")
    func jsonLogsHoldNoToken() throws {
        // Given alertd logging JSON
        let admin = "admin-\(UUID().uuidString)"
        let run = try AlertdProcess.launch(
            ["serve", "--host", "127.0.0.1", "--port", "0", "--store", "memory", "--admin-token", admin],
            environment: ["ALERTD_LOG_FORMAT": "json"])
        defer { run.kill() }
        let line = try #require(run.readStandardOutputLine(within: .seconds(10)), "stderr: \(run.standardErrorSoFar())")
        let port = try #require(Int(line.split(separator: ":").last ?? ""), "no port in \(line)")

        // When clients send tokens where they belong and where they do not
        let app = try SessionClient.open(port: port, session: "s", adminToken: admin)
        _ = try app.enqueue(#"{"alert":"app/questionExit"}"#)
        let leaked = "query-\(UUID().uuidString)"
        let asked = try RawHTTPClient(port: port).request(
            "GET", "/v1/sessions/s/next?token=\(app.token)&access_token=\(leaked)&wait=0",
            headers: [("Authorization", "Bearer \(app.token)"), ("X-Request-Id", "secret-json-1")])
        #expect(asked.status == 200)
        _ = try RawHTTPClient(port: port).request("GET", "/v1/catalogs?api_key=\(leaked)", headers: [("Authorization", "Bearer \(admin)")])

        // Then, once it has stopped, every log line is a JSON object, and none holds a secret
        _ = signalProcess(run.process.processIdentifier, SIGTERM)
        #expect(run.waitForExit(within: .seconds(15)))
        let log = run.waitForStandardError(containing: #""message":"stopped""#, within: .seconds(2))
        let lines = log.split(separator: "\n")
        #expect(lines.count >= 8, "log: \(log)")
        for entry in lines {
            let object = try JSONSerialization.jsonObject(with: Data(entry.utf8)) as? [String: Any]
            #expect(object?["time"] is String && object?["level"] is String && object?["message"] is String, "not a log object: \(entry)")
        }
        for (name, value) in [("admin token", admin), ("session token", app.token), ("query value", leaked), ("query", "wait=0")] {
            #expect(!log.contains(value), "the \(name) was written: \(log)")
        }
        let request = try #require(lines.first { $0.contains("secret-json-1") }, "no request line: \(log)")
        #expect(request.contains(#""path":"/v1/sessions/s/next""#) && request.contains(#""status":200"#), "\(request)")
    }
}
