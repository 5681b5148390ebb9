#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChildProcesses
import Foundation
import TestExecutors
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// schemathesis (PyPI; `make test` installs it into .build/venv) generates requests from
// openapi.yaml — valid ones and invalid ones, one operation at a time and in chains that follow
// the document's links — and checks every answer against the document: no 5xx, only documented
// status codes, content types, headers and bodies matching their schemas, invalid input
// refused, valid input accepted, 401 without credentials, 405 with `Allow` for other methods.
// schemathesis.toml, at the package root, says what the document cannot; read it with this.
//
// Authentication: the admin token, with `-H "Authorization: Bearer …"`, on every request. The
// app's calls (`next`, `ack`, `PUT`/`DELETE …/hold`) refuse the admin token by design (403:
// they act for a device, docs/security.md), so schemathesis.toml gives those four the session token
// of one session and pins their `{session}` to it; this test issues the tokens and queues a few
// alerts there first, so `next` has something to deliver and `ack` something to acknowledge.

@Suite("schemathesis against the live alertd", .ownThread)
struct SchemathesisTests {
    /// The package root, found from this file.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// Fixed: the same seed, options and schemathesis version make the same requests.
    static let seed = 4242
    /// Test cases per operation (about 6,000 in all, under a minute on two cores).
    static let maxExamples = 100
    /// The session the app's calls use, and the one holds go to (a hold of up to ten minutes
    /// would otherwise keep `next` from delivering for the rest of the run).
    static let appSession = "schemathesis"
    static let holdSession = "schemathesis-hold"

    @Test(
        "openapi.yaml and the live server agree: schemathesis, every check, a fixed seed, finds nothing",
        .timeLimit(.minutes(10)))
    func schemathesis() async throws {
        let python = SchemaChecker().python
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw SchemaChecker.Unavailable(
                description: """
                    No Python for schemathesis at \(python.path). Run `make test`: it makes .build/venv with \
                    schemathesis (or set ALERTD_TEST_PYTHON to a Python that has it).
                    """)
        }

        // Given alertd on a free port with a SQLite store in a temporary folder, and settings
        // that differ from the defaults for this run:
        // - a 2 s lease (and 100 deliveries before an item is dead), so items `next` delivered
        //   and no one acknowledged come round again while the run lasts;
        // - 64 KiB of connection memory: a head larger than the connection memory gets
        //   libmicrohttpd's own short HTML answer and a closed connection (documented in
        //   openapi.yaml and docs/security.md; alertd never sees the request), and schemathesis'
        //   longest invalid query strings would meet that instead of alertd's 414 problem.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alertd-schemathesis-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let adminToken = "schemathesis-\(UUID().uuidString)"
        let server = try AlertdProcess.launch([
            "serve", "--host", "127.0.0.1", "--port", "0", "--store", "sqlite:" + folder.appendingPathComponent("alertd.sqlite").path,
            "--admin-token", adminToken, "--lease", "2", "--max-deliveries", "100", "--connection-memory", "65536",
        ])
        defer { server.kill() }
        let line = try #require(
            server.readStandardOutputLine(within: .seconds(10)), "no first line; stderr: \(server.standardErrorSoFar())")
        let prefix = "alertd listening on http://127.0.0.1:"
        let port = try #require(line.hasPrefix(prefix) ? Int(line.dropFirst(prefix.count)) : nil, "first line: \(line)")

        // And a session token for each pinned session, and one alert of each lane (and an
        // ad-hoc spec, and a card flow) queued for the app's session
        let app = try SessionClient.open(port: port, session: Self.appSession, adminToken: adminToken)
        let holder = try SessionClient.open(port: port, session: Self.holdSession, adminToken: adminToken)
        for item in [
            #"{"alert":"app/questionExit"}"#, #"{"alert":"app/shareSheet"}"#, #"{"alert":"onboarding/setup"}"#,
            #"{"alert":"app/welcomeToast","params":{"name":"Ana"}}"#, #"{"alert":"app/loading"}"#,
            #"{"alert":"app/newMessages","params":{"count":3,"sender":"Ana"}}"#, #"{"spec":\#(adHocAlert)}"#,
        ] {
            _ = try app.enqueue(item)
        }

        // When schemathesis runs every operation of the document the server serves, with
        // every check and a fixed seed
        let run = try await Self.runSchemathesis(
            python: python, port: port, adminToken: adminToken,
            environment: ["ALERTD_SESSION_TOKEN": app.token, "ALERTD_HOLD_SESSION_TOKEN": holder.token], in: folder)

        // Then it finds nothing (its report says what it found, and how to reproduce each case)
        #expect(run.status == 0, "schemathesis exited \(run.status):\n\(run.output)")
        #expect(run.output.contains("Seed: \(Self.seed)"), "not a schemathesis run report:\n\(run.output)")

        // And alertd is still serving, and stops cleanly
        #expect(try RawHTTPClient(port: port).request("GET", "/livez").status == 200)
        #expect(signalProcess(server.process.processIdentifier, SIGTERM) == 0)
        let stopped = server.waitForExit(within: .seconds(15))
        #expect(stopped, "alertd still running after SIGTERM")
        if stopped { #expect(server.process.terminationStatus == 0, "stderr: \(server.standardErrorSoFar())") }
    }

    /// `python -m schemathesis.cli run` against `127.0.0.1:port`, in `folder` (it writes
    /// nothing else), its exit status and everything it printed. Killed after ten minutes.
    static func runSchemathesis(
        python: URL, port: Int, adminToken: String, environment extra: [String: String], in folder: URL
    ) async throws -> ChildRun {
        try await ChildRun.run(
            python,
            [
                "-m", "schemathesis.cli", "--config-file", root.appendingPathComponent("schemathesis.toml").path,
                "run", root.appendingPathComponent("Sources/AlertServer/Resources/openapi.yaml").path,
                "--url", "http://127.0.0.1:\(port)",
                "-H", "Authorization: Bearer \(adminToken)",
                "--checks", "all",
                "--seed", "\(seed)",
                "--max-examples", "\(maxExamples)",
                // One worker: with two, Python 3.11 (bookworm's version) once failed here parsing
                // Python source in two threads at once, which Hypothesis does to describe its
                // strategies ("AST constructor recursion depth mismatch", CPython gh-106905).
                "--workers", "1",
                // No example database: a run depends on the seed alone, not on earlier runs.
                "--generation-database", "none",
                "--no-color",
            ],
            environment: ProcessInfo.processInfo.environment.merging(extra) { _, given in given }, in: folder)
    }
}
