import Foundation
import PostgresTestSupport
import TestExecutors
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// `alertd serve --store postgres://…` and its options, as an operator meets them at start-up.

@Suite("alertd executable: the PostgreSQL store options", .ownThread)
struct PostgresStoreOptionTests {
    @Test(
        "a PostgreSQL URL that cannot be used stops start-up with one line saying why, without the password",
        arguments: [
            ("postgres://alertd:hunter2@/alertd", "names no host"),
            ("postgresql://alertd:hunter2@db:99999/alertd", "port 99999"),
            ("postgres://alertd:hunter2@db/alertd?pool=3", "unknown option pool"),
            ("postgres://alertd:hunter2@db", "/DATABASE"),
        ])
    func malformedURL(url: String, reason: String) throws {
        // When alertd is asked to serve on a URL it cannot use
        let result = try AlertdProcess.run(["serve", "--port", "0", "--store", url])

        // Then it exits with status 2, one line on stderr saying why, and never the password
        #expect(result.exited && result.status == 2, "status \(result.status)")
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(result.standardError)")
        #expect(result.standardError.contains(reason), "stderr: \(result.standardError)")
        #expect(!result.standardError.contains("hunter2") && !result.standardOutput.contains("hunter2"))
        #expect(!result.standardOutput.contains("listening"))
    }

    @Test("ALERTD_STORE and ALERTD_STORE_POOL_SIZE are taken; the start-up line shows the URL without its password")
    func environmentTwins() async throws {
        // Given a database whose URL carries a password (trust authentication ignores it)
        let url = try await PostgresCluster.shared().createDatabase().replacingOccurrences(
            of: "postgres@", with: "postgres:hunter2@")

        // When alertd starts with the store and the pool size from the environment
        let run = try AlertdProcess.launch(
            ["serve", "--host", "127.0.0.1", "--port", "0"],
            environment: ["ALERTD_STORE": url, "ALERTD_STORE_POOL_SIZE": "3"])
        defer { run.kill() }
        let first = try #require(run.readStandardOutputLine(within: .seconds(10)), "stderr: \(run.standardErrorSoFar())")
        let port = try #require(Int(first.split(separator: ":").last ?? ""), "first line: \(first)")
        let summary = run.waitForStandardError(containing: "info listening", within: .seconds(5))

        // Then its log names the store without the password, and it serves the queue from that database
        #expect(summary.contains("info store opened store=postgres://postgres@127.0.0.1:"), "\(summary)")
        #expect(!summary.contains("hunter2"))
        #expect(eventually(within: .seconds(10)) {
            (try? RawHTTPClient(port: port).request("GET", "/readyz").status) == 200
        })
        #expect(run.terminate(), "did not stop cleanly")
        #expect(!run.standardErrorSoFar().contains("hunter2"))

        // And a pool size of 0 is refused at start
        let refused = try AlertdProcess.run(["serve", "--port", "0", "--store", url, "--store-pool-size", "0"])
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("--store-pool-size must be at least 1"), "\(refused.standardError)")
    }

    @Test("--store-notify-spacing is read from the flag or ALERTD_STORE_NOTIFY_SPACING, defaults to 20 ms, and refuses what is outside 0…500")
    func notifySpacing() throws {
        // When alertd prints its configuration without the setting, then with it from the environment
        let unset = try AlertdProcess.run(["serve", "--print-config"])
        let fromEnvironment = try AlertdProcess.run(
            ["serve", "--print-config"], environment: ["ALERTD_STORE_NOTIFY_SPACING": "0"])

        // Then the default is 20 and the environment's value is taken
        #expect(unset.status == 0 && fromEnvironment.status == 0, "\(unset.standardError) \(fromEnvironment.standardError)")
        #expect(unset.standardOutput.contains("store-notify-spacing: 20 "), "\(unset.standardOutput)")
        #expect(fromEnvironment.standardOutput.contains("store-notify-spacing: 0 "), "\(fromEnvironment.standardOutput)")

        // And a spacing below 0 or above 500 stops start-up with one line saying so
        for value in ["-1", "501"] {
            let refused = try AlertdProcess.run(["serve", "--port", "0", "--store-notify-spacing=\(value)"])
            #expect(refused.exited && refused.status == 2, "\(value): status \(refused.status)")
            #expect(refused.standardError == "alertd: --store-notify-spacing must be from 0 to 500 milliseconds\n",
                "\(value): \(refused.standardError)")
        }
    }
}
