#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AlertServer
import Foundation
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// The built alertd executable's operations commands: token, healthcheck, --version.

@Suite("alertd executable: token, healthcheck and --version")
struct OperationsCommandTests {
    private static func queueStatus(port: Int, session: String, token: String) throws -> Int {
        try RawHTTPClient(port: port).request(
            "GET", "/v1/sessions/\(session)/queue", headers: [("Authorization", "Bearer \(token)")]
        ).status
    }

    private static func token(of result: AlertdProcess.Finished) throws -> String {
        #expect(result.exited && result.status == 0, "status \(result.status); stderr: \(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        try #require(lines.count == 1, "stdout: \(result.standardOutput)")
        return String(lines[0])
    }

    @Test("alertd token SESSION, with the server's data folder, opens SESSION on that server and nothing else")
    func tokenFromDataFolder() throws {
        // Given a server that generated its session secret into its data folder
        let (server, port) = try AlertdProcess.serving(["--store", "memory"])
        defer { server.kill() }

        // When alertd token is run with the same data folder (ALERTD_DATA_DIR, as serve reads it)
        let token = try Self.token(
            of: try AlertdProcess.run(["token", "ana-phone"], environment: ["ALERTD_DATA_DIR": server.dataFolder.path]))

        // Then the server accepts it for ana-phone
        #expect(try Self.queueStatus(port: port, session: "ana-phone", token: token) == 200)
        // And refuses it for another session (403) and for an admin call (403)
        #expect(try Self.queueStatus(port: port, session: "bob-phone", token: token) == 403)
        let adminCall = try RawHTTPClient(port: port).request(
            "POST", "/v1/sessions/ana-phone/token", headers: [("Authorization", "Bearer \(token)")])
        #expect(adminCall.status == 403)

        // And a token signed with another secret is not valid at all (401)
        let forged = try Self.token(of: try AlertdProcess.run(["token", "ana-phone", "--session-secret", "not-the-servers"]))
        #expect(try Self.queueStatus(port: port, session: "ana-phone", token: forged) == 401)
    }

    @Test("alertd token takes the secret as serve does: --session-secret or ALERTD_SESSION_SECRET")
    func tokenFromGivenSecret() throws {
        // Given a server whose session secret is given on its command line
        let secret = "secret-\(UUID().uuidString)"
        let (server, port) = try AlertdProcess.serving(["--store", "memory", "--session-secret", secret])
        defer { server.kill() }

        // When tokens are made with the same secret through the flag and through the environment
        let byFlag = try Self.token(of: try AlertdProcess.run(["token", "kiosk-7", "--session-secret", secret]))
        let byEnvironment = try Self.token(
            of: try AlertdProcess.run(["token", "kiosk-7"], environment: ["ALERTD_SESSION_SECRET": secret]))

        // Then both open kiosk-7
        #expect(try Self.queueStatus(port: port, session: "kiosk-7", token: byFlag) == 200)
        #expect(try Self.queueStatus(port: port, session: "kiosk-7", token: byEnvironment) == 200)
        // And the flag wins over the environment, as for serve
        let flagWins = try Self.token(
            of: try AlertdProcess.run(
                ["token", "kiosk-7", "--session-secret", secret], environment: ["ALERTD_SESSION_SECRET": "other"]))
        #expect(try Self.queueStatus(port: port, session: "kiosk-7", token: flagWins) == 200)
    }

    @Test("--ttl sets the expiry: valid until then, not after; out of range is refused")
    func tokenLifetime() throws {
        // Given a known secret
        let secret = "ttl-secret"
        let tokens = SessionTokens(secret: secret)

        // When a token is made for 60 seconds
        let before = Date().timeIntervalSince1970
        let token = try Self.token(of: try AlertdProcess.run(["token", "s", "--ttl", "60", "--session-secret", secret]))
        let after = Date().timeIntervalSince1970

        // Then its expiry is 60 s after it was made (whole seconds, rounded down)
        let parts = token.split(separator: ".")
        try #require(parts.count == 4, "token: \(token)")
        let expiry = try #require(Double(parts[2]))
        #expect(expiry >= (before + 60).rounded(.down) && expiry <= after + 60, "expiry \(expiry), made \(before)…\(after)")
        // And it opens its session until that second and not from it on
        #expect(tokens.session(of: token, now: Date(timeIntervalSince1970: expiry - 1)) == "s")
        #expect(tokens.session(of: token, now: Date(timeIntervalSince1970: expiry)) == nil)

        // And without --ttl a token lasts a day
        let daily = try Self.token(of: try AlertdProcess.run(["token", "s", "--session-secret", secret]))
        let dailyExpiry = try #require(Double(daily.split(separator: ".")[2]))
        #expect(abs(dailyExpiry - (Date().timeIntervalSince1970 + 86_400)) < 5)

        // And lifetimes outside 60 s … 90 days are refused on stderr, with no token printed
        for ttl in ["59", "7776001", "-5"] {
            let refused = try AlertdProcess.run(["token", "s", "--ttl", ttl, "--session-secret", secret])
            #expect(refused.exited && refused.status != 0, "--ttl \(ttl): status \(refused.status)")
            #expect(refused.standardError.contains("--ttl"), "--ttl \(ttl): stderr \(refused.standardError)")
            #expect(refused.standardOutput.isEmpty)
        }
    }

    @Test("alertd token with no secret to read, or a bad session id, fails on stderr and makes nothing")
    func tokenRefusals() throws {
        // Given a data folder where no server has started
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("alertd-token-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: empty) }

        // When a token is asked for
        let result = try AlertdProcess.run(["token", "s"], environment: ["ALERTD_DATA_DIR": empty.path])

        // Then it says there is no session secret and exits 1, printing no token and creating no secret
        #expect(result.exited && result.status == 1, "status \(result.status)")
        #expect(result.standardError.contains("no session secret"), "stderr: \(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: empty.path))

        // And a session id the API would refuse is refused here too
        let badSession = try AlertdProcess.run(["token", "not a session", "--session-secret", "x"])
        #expect(badSession.exited && badSession.status != 0)
        #expect(badSession.standardError.contains("session id"), "stderr: \(badSession.standardError)")
        #expect(badSession.standardOutput.isEmpty)
    }

    @Test("alertd healthcheck --url exits 0 against a ready server and 1 against a closed port")
    func healthcheckReadyAndClosed() throws {
        // Given a running server
        let (server, port) = try AlertdProcess.serving(["--store", "memory"])
        defer { server.kill() }

        // When the health check asks it
        let ready = try AlertdProcess.run(["healthcheck", "--url", "http://127.0.0.1:\(port)"])
        // Then it exits 0
        #expect(ready.exited && ready.status == 0, "status \(ready.status); stderr: \(ready.standardError)")
        #expect(ready.standardError.isEmpty, "stderr: \(ready.standardError)")

        // And configured only by the environment of a container (listening on every address),
        // it asks the loopback on ALERTD_PORT
        let configured = try AlertdProcess.run(
            ["healthcheck"], environment: ["ALERTD_HOST": "0.0.0.0", "ALERTD_PORT": String(port)])
        #expect(configured.status == 0, "stderr: \(configured.standardError)")

        // When it asks a port where nothing listens
        let closedPort = try ClosedPort()
        let closed = try AlertdProcess.run(["healthcheck", "--url", "http://127.0.0.1:\(closedPort.port)/readyz"])
        // Then it exits 1 and says why on stderr
        #expect(closed.exited && closed.status == 1, "status \(closed.status)")
        #expect(closed.standardError.contains("not ready"), "stderr: \(closed.standardError)")
        #expect(closed.standardError.contains("refused"), "stderr: \(closed.standardError)")
    }

    @Test("alertd healthcheck gives up after --timeout on a server that never answers")
    func healthcheckTimeout() throws {
        // Given a socket that listens but never answers (connections wait in its backlog)
        let silent = try SilentListener()

        // When the health check asks it with a 1 s timeout
        let started = ContinuousClock.now
        let result = try AlertdProcess.run(["healthcheck", "--url", "http://127.0.0.1:\(silent.port)", "--timeout", "1"])
        let took = ContinuousClock.now - started

        // Then it exits 1 after about that second, saying it got no answer
        #expect(result.exited && result.status == 1, "status \(result.status)")
        #expect(result.standardError.contains("within 1 s"), "stderr: \(result.standardError)")
        #expect(took < .seconds(8), "took \(took)")
    }

    @Test("alertd healthcheck against a server whose store cannot be reached exits 1 with the problem's detail")
    func healthcheckNotReady() throws {
        // Given a server on a PostgreSQL store where no database listens (it starts; /readyz is 503)
        let closedPort = try ClosedPort()
        let (server, port) = try AlertdProcess.serving([
            "--store", "postgres://alertd@127.0.0.1:\(closedPort.port)/alertd?sslmode=disable", "--store-timeout", "1",
        ])
        defer { server.kill() }

        // When the health check asks it
        let result = try AlertdProcess.run(["healthcheck", "--url", "http://127.0.0.1:\(port)", "--timeout", "5"])

        // Then it exits 1, quoting the 503 problem's detail
        #expect(result.exited && result.status == 1, "status \(result.status); stderr: \(result.standardError)")
        #expect(result.standardError.contains("503"), "stderr: \(result.standardError)")
        #expect(result.standardError.contains("The queue store cannot be reached"), "stderr: \(result.standardError)")
    }

    @Test("a malformed --url is a usage error, not a health verdict")
    func healthcheckBadURL() throws {
        for url in ["https://127.0.0.1:8080", "http://:8080", "http://127.0.0.1:99999", "127.0.0.1:8080"] {
            let result = try AlertdProcess.run(["healthcheck", "--url", url])
            #expect(result.exited && result.status != 0 && result.status != 1, "\(url): status \(result.status)")
            #expect(result.standardError.contains("--url"), "\(url): stderr \(result.standardError)")
        }
    }

    @Test("--version prints the version and exits 0")
    func version() throws {
        let result = try AlertdProcess.run(["--version"])
        #expect(result.exited && result.status == 0, "status \(result.status)")
        #expect(result.standardOutput == "0.1.0\n", "stdout: \(result.standardOutput)")
    }

    @Test("--help of token and healthcheck shows examples", arguments: ["token", "healthcheck"])
    func help(command: String) throws {
        let result = try AlertdProcess.run(["help", command])
        #expect(result.exited && result.status == 0)
        #expect(result.standardOutput.contains("Examples:"), "stdout: \(result.standardOutput)")
        #expect(result.standardOutput.contains("alertd \(command)"), "stdout: \(result.standardOutput)")
    }
}

/// A port of 127.0.0.1 where nothing listens: bound (so no one else takes it) but not listening.
private final class ClosedPort {
    let port: Int
    private let fd: Int32

    init() throws {
        let (fd, port) = try boundSocket()
        self.fd = fd
        self.port = port
    }

    deinit { close(fd) }
}

/// A socket of 127.0.0.1 that listens and never accepts: a connection completes, no answer comes.
private final class SilentListener {
    let port: Int
    private let fd: Int32

    init() throws {
        let (fd, port) = try boundSocket()
        guard listen(fd, 8) == 0 else {
            close(fd)
            throw RawHTTPError.system("listen", errno)
        }
        self.fd = fd
        self.port = port
    }

    deinit { close(fd) }
}

private func boundSocket() throws -> (Int32, Int) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw RawHTTPError.system("socket", errno) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard bound else {
        close(fd)
        throw RawHTTPError.system("bind", errno)
    }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
}
