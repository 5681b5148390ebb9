import AlertServer
import ArgumentParser
import Foundation

/// `alertd token SESSION`: prints a session token signed with the secret `serve` uses, as
/// `POST /v1/sessions/{session}/token` would issue it, without a running server.
struct Token: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a session token for an app, signed with the server's session secret.",
        discussion: """
            The secret is the one serve uses: --session-secret, ALERTD_SESSION_SECRET or the \
            --config file's session-secret, else the file DATA-DIR/\(Credentials.sessionSecretFile) \
            that serve generated (give the server's --config, or its --data-dir or ALERTD_DATA_DIR, and run as its user: the file is owner-only). Makes no \
            secret of its own: with none to read, it says so and exits 1.

            Prints the token alone on standard output. It opens SESSION's next, ack, hold and \
            GET queue calls until it expires.

            Examples:
              TOKEN=$(alertd token ana-phone)
              alertd token ana-phone --ttl 3600 --data-dir /var/lib/alertd/alertd-data
              ALERTD_SESSION_SECRET=… alertd token kiosk-7 --ttl 604800
            """)

    @Argument(help: "The session the token opens: 1 to 128 letters, digits, '.', '_', '-' or ':'.")
    var session: String

    @Option(help: """
        Seconds the token is valid, \(Int(SessionTokens.lifetimes.lowerBound)) to \
        \(Int(SessionTokens.lifetimes.upperBound)) (90 days).
        """)
    var ttl: Int = Int(SessionTokens.defaultLifetime)

    @OptionGroup var secrets: SecretOptions

    @OptionGroup var config: ConfigOption

    func validate() throws {
        guard SessionTokens.isSessionID(session) else {
            throw ValidationError("a session id has 1 to 128 letters, digits, '.', '_', '-' or ':', not \"\(session)\"")
        }
        guard SessionTokens.lifetimes.contains(Double(ttl)) else {
            throw ValidationError(
                "--ttl is seconds from \(Int(SessionTokens.lifetimes.lowerBound)) to \(Int(SessionTokens.lifetimes.upperBound)), not \(ttl)")
        }
    }

    func run() throws {
        var settings = config.settings()
        let folder = URL(fileURLWithPath: secrets.dataFolder(&settings))
        let given = secrets.givenSessionSecret(&settings)
        guard settings.problems.isEmpty else {
            for problem in settings.problems { printError("alertd token: \(problem)") }
            throw ExitCode(2)
        }
        guard let secret = Credentials.existingSessionSecret(given: given, folder: folder) else {
            let file = folder.appendingPathComponent(Credentials.sessionSecretFile).path
            if FileManager.default.fileExists(atPath: file) {
                printError("alertd token: cannot read the session secret in \(file) (owner-only: run as the server's user)")
            } else {
                printError(
                    "alertd token: no session secret: give --session-secret or ALERTD_SESSION_SECRET, or the --data-dir of a"
                        + " server that has started (\(file) does not exist)")
            }
            throw ExitCode(1)
        }
        say(SessionTokens(secret: secret).issue(session: session, lifetime: Double(ttl), now: Date()).token)
    }
}
