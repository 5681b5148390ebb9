import Foundation
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// The built alertd executable's configuration: flags, ALERTD_* variables and the --config file,
// in that precedence; --print-config; and start-up refusals for a bad file.

@Suite("alertd configuration: --config file, precedence and --print-config")
struct ConfigFileTests {
    /// A configuration file with `text`, in a folder removed by the caller's `defer`.
    static func configFile(_ text: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alertd-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("alertd.yaml")
        try Data(text.utf8).write(to: file)
        return file
    }

    static func remove(_ file: URL) {
        try? FileManager.default.removeItem(at: file.deletingLastPathComponent())
    }

    /// `--print-config` lines as name → (value, source); a hidden secret has the value "(hidden)".
    static func settings(in printed: String) -> [String: (value: String, source: String)] {
        var settings: [String: (value: String, source: String)] = [:]
        for line in printed.split(separator: "\n") where !line.hasPrefix("# alertd") {
            let hidden = line.hasPrefix("# ")
            let text = hidden ? line.dropFirst(2) : line[...]
            guard let colon = text.firstIndex(of: ":"), let hash = text.range(of: "  #", options: .backwards) else {
                continue
            }
            let name = String(text[..<colon])
            let value = text[text.index(after: colon)..<hash.lowerBound].trimmingCharacters(in: .whitespaces)
            let source = text[hash.upperBound...].trimmingCharacters(in: .whitespaces)
            settings[name] = (value, String(source))
        }
        return settings
    }

    @Test("each setting comes from its flag, else ALERTD_*, else the file, else the default; secrets and passwords hidden")
    func precedence() throws {
        // Given a file that sets four settings, two of which are also given by variable or flag
        let file = try Self.configFile(
            """
            # alertd for the test
            port: 9301
            lease: 31
            max-deliveries: 7
            store: postgres://alertd:hunter2@127.0.0.1:5432/alertd
            admin-token: admin-token-from-the-file
            catalogs:
            """)
        defer { Self.remove(file) }

        // When the effective settings are printed with a variable and a flag on top
        let result = try AlertdProcess.run(
            ["serve", "--config", file.path, "--print-config", "--port", "9302"],
            environment: ["ALERTD_LEASE": "32", "ALERTD_SESSION_SECRET": "session-secret-from-the-environment"])

        // Then it exits 0 without serving, and each value names where it came from
        #expect(result.exited && result.status == 0, "stderr: \(result.standardError)")
        #expect(!result.standardOutput.contains("listening"))
        let settings = Self.settings(in: result.standardOutput)
        #expect(settings["port"]?.value == "9302" && settings["port"]?.source == "--port")
        #expect(settings["lease"]?.value == "32" && settings["lease"]?.source == "ALERTD_LEASE")
        #expect(settings["max-deliveries"]?.value == "7" && settings["max-deliveries"]?.source == file.path)
        #expect(settings["max-queue-length"]?.value == "100" && settings["max-queue-length"]?.source == "default")
        #expect(settings["host"]?.value == "'127.0.0.1'")
        // An empty setting in the file counts as not given
        #expect(settings["catalogs"]?.value == "~")
        // And no secret shows: not the tokens, not the store's password
        #expect(settings["admin-token"]?.value == "(hidden)" && settings["admin-token"]?.source == file.path)
        #expect(settings["session-secret"]?.value == "(hidden)" && settings["session-secret"]?.source == "ALERTD_SESSION_SECRET")
        #expect(settings["store"]?.value == "'postgres://alertd:***@127.0.0.1:5432/alertd'")
        for secret in ["hunter2", "admin-token-from-the-file", "session-secret-from-the-environment"] {
            #expect(!result.standardOutput.contains(secret) && !result.standardError.contains(secret))
        }
    }

    @Test("what --print-config prints is a configuration file that reads back to the same settings")
    func printedReadsBack() throws {
        // Given settings from flags and variables, printed
        let first = try AlertdProcess.run(
            ["serve", "--print-config", "--store", "memory", "--render-cache-size", "17", "--host", "it's.local"],
            environment: ["ALERTD_MAX_QUEUE_LENGTH": "12", "ALERTD_CATALOGS": "/srv/catalogs"])
        #expect(first.exited && first.status == 0, "stderr: \(first.standardError)")

        // When that output alone is the configuration
        let file = try Self.configFile(first.standardOutput)
        defer { Self.remove(file) }
        let second = try AlertdProcess.run(["serve", "--config", file.path, "--print-config"])
        #expect(second.exited && second.status == 0, "stderr: \(second.standardError)")

        // Then every value is the same (but the data folder: each test run has its own, by variable)
        let before = Self.settings(in: first.standardOutput), after = Self.settings(in: second.standardOutput)
        #expect(before.count >= 20 && before.keys.sorted() == after.keys.sorted())
        for (name, setting) in before where name != "data-dir" {
            #expect(after[name]?.value == setting.value, "\(name)")
        }
        #expect(after["host"]?.value == "'it''s.local'" && after["render-cache-size"]?.source == file.path)
    }

    @Test("a bad configuration file stops start-up with one line per problem and exit status 2")
    func badFile() throws {
        // Given a file with a misspelt name, a word where a number belongs and a list
        let file = try Self.configFile("prot: 9090\nlease: soon\nthreads: [1, 2]\nstore: memory\n")
        defer { Self.remove(file) }

        // When alertd serve starts with it
        let result = try AlertdProcess.run(["serve", "--config", file.path])

        // Then it does not serve, and says what is wrong, one line each
        #expect(result.exited && result.status == 2)
        #expect(!result.standardOutput.contains("listening"))
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.contains { $0.contains("unknown setting prot") && $0.contains("did you mean port?") })
        #expect(lines.contains { $0.contains("lease: expected a whole number, got \"soon\"") })
        #expect(lines.contains { $0.contains("threads must be a single value") })
    }

    @Test(
        "a configuration file that cannot be used is refused, never ignored",
        arguments: [
            ("- port: 9090\n", "must be a mapping of setting names"),
            ("port: [\n", "is not valid YAML"),
            ("port: 1\nport: 2\n", "duplicated key(s): 'port'"),
        ])
    func unusableFile(text: String, expected: String) throws {
        let file = try Self.configFile(text)
        defer { Self.remove(file) }
        let result = try AlertdProcess.run(["serve", "--config", file.path])
        #expect(result.exited && result.status == 2)
        #expect(result.standardError.contains(expected), "stderr: \(result.standardError)")
        let missing = try AlertdProcess.run(["serve"], environment: ["ALERTD_CONFIG": file.path + ".missing"])
        #expect(missing.status == 2 && missing.standardError.contains("does not exist"))
    }

    @Test("serve, token and healthcheck read the same file: its admin token, session secret and port")
    func sharedByCommands() throws {
        // Given a server started with a file that holds its secrets
        let file = try Self.configFile(
            """
            store: memory
            admin-token: admin-from-file-\(UUID().uuidString)
            session-secret: secret-from-file-\(UUID().uuidString)
            """)
        defer { Self.remove(file) }
        let (server, port) = try AlertdProcess.serving(["--config", file.path])
        defer { server.kill() }
        let adminToken = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")[1].dropFirst("admin-token: ".count)

        // Then the admin token of the file is the server's
        let issued = try RawHTTPClient(port: port).request(
            "POST", "/v1/sessions/ana-phone/token", headers: [("Authorization", "Bearer \(adminToken)")])
        #expect(issued.status == 201 || issued.status == 200)

        // And alertd token with the same file signs tokens the server accepts
        let token = try AlertdProcess.run(["token", "ana-phone", "--config", file.path])
        #expect(token.status == 0, "stderr: \(token.standardError)")
        let session = token.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let queue = try RawHTTPClient(port: port).request(
            "GET", "/v1/sessions/ana-phone/queue", headers: [("Authorization", "Bearer \(session)")])
        #expect(queue.status == 200)

        // And alertd healthcheck finds the server from a file's host and port
        let probeFile = try Self.configFile("host: 127.0.0.1\nport: \(port)\n")
        defer { Self.remove(probeFile) }
        let health = try AlertdProcess.run(["healthcheck", "--config", probeFile.path])
        #expect(health.status == 0, "stderr: \(health.standardError)")
    }
}
