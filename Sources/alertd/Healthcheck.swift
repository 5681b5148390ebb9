import AlertServer
import ArgumentParser
import Foundation
import MicroHTTP

/// `alertd healthcheck`: exit 0 when a running alertd's `/readyz` answers 200, else the reason
/// on standard error and exit 1. The container's `HEALTHCHECK`.
struct Healthcheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Exit 0 when a running alertd says it is ready (GET /readyz), else 1 with the reason.",
        discussion: """
            Without --url it asks the server this configuration describes: \
            http://HOST:PORT/readyz, from ALERTD_HOST and ALERTD_PORT or the --config file's host and \
            port (defaults 127.0.0.1 and 8080; a server listening on \
            0.0.0.0 or :: is asked on the loopback). Ready means 200; a 503 prints the problem's \
            detail (the store cannot be reached…), and so does no answer within --timeout.

            Examples:
              alertd healthcheck
              alertd healthcheck --url http://127.0.0.1:9090
              HEALTHCHECK CMD ["alertd", "healthcheck"]      (Dockerfile)
            """)

    @Option(help: "The URL to ask; one without a path asks its /readyz. (default: from ALERTD_HOST and ALERTD_PORT)")
    var url: String?

    @OptionGroup var config: ConfigOption

    @Option(help: "Seconds to wait for the whole answer.")
    var timeout: Double = 3

    func validate() throws {
        guard timeout > 0, timeout <= 60 else { throw ValidationError("--timeout is seconds from 0 to 60, not \(timeout)") }
        if let url {
            do { _ = try ReadinessProbe(url: url) } catch { throw ValidationError("--url: \(error)") }
        }
    }

    func run() throws {
        var settings = config.settings()
        let target =
            url
            ?? ReadinessProbe.defaultURL(host: settings.string(nil, .host), port: settings.integer(nil, .port))
        guard settings.problems.isEmpty else {
            for problem in settings.problems { printError("alertd healthcheck: \(problem)") }
            throw ExitCode(1)
        }
        let probe: ReadinessProbe
        do {
            probe = try ReadinessProbe(url: target)
        } catch {
            printError("alertd healthcheck: \(error)")
            throw ExitCode(1)
        }
        switch probe.check(timeout: .milliseconds(Int(timeout * 1000))) {
        case .ready:
            say("alertd healthcheck: ready (\(probe.url))")
        case .notReady(let reason):
            printError("alertd healthcheck: not ready: \(reason)")
            throw ExitCode(1)
        }
    }
}
