import Foundation
import Testing
@testable import AlertdTestSupport

/// `make run` serves from the checkout with alertd's defaults: the generated admin token and
/// session secret land in the default data folder, the queue in `STORE`. Git must ignore
/// them, so a `git add .` never commits a secret (`.gitignore`).
@Suite("make run keeps its secrets and store out of git")
struct CheckoutSecretsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Only a git checkout has a `.gitignore` that matters (a worktree's `.git` is a file).
    static var inGitCheckout: Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent(".git").path) }

    /// The paths `make run` writes, relative to the checkout: the default data folder's secret
    /// files (as `alertd serve --print-config` gives the folder) and the Makefile's `STORE` file.
    static func writtenPaths() throws -> [String] {
        let printed = try AlertdProcess.run(["serve", "--print-config"], environment: ["ALERTD_DATA_DIR": ""])
        #expect(printed.exited && printed.status == 0, "stderr: \(printed.standardError)")
        let folder = try #require(ConfigFileTests.settings(in: printed.standardOutput)["data-dir"]?.value)
            .trimmingCharacters(in: CharacterSet(charactersIn: "'"))
        let makefile = try String(contentsOf: root.appendingPathComponent("Makefile"), encoding: .utf8)
        let run = try #require(makefile.split(separator: "\n").first { $0.hasPrefix("\t.build/release/alertd serve") })
        #expect(!run.contains("--data-dir"), "make run names its own data folder: check that one instead")
        let store = try #require(makefile.split(separator: "\n").first { $0.hasPrefix("STORE ?= sqlite:") })
        return [folder + "/admin-token", folder + "/session-secret", String(store.dropFirst("STORE ?= sqlite:".count))]
    }

    @Test("git check-ignore ignores the default data folder's secrets and make run's store", .enabled(if: inGitCheckout))
    func ignored() async throws {
        let paths = try Self.writtenPaths()
        #expect(paths.count == 3, "\(paths)")
        // A path outside the checkout (a default moved elsewhere) is out of git's reach anyway.
        for path in paths where !path.hasPrefix("/") || path.hasPrefix(Self.root.path + "/") {
            // Exit 0: ignored; 1: not ignored; anything else: git could not tell.
            let check = try await ChildRun.run(
                URL(fileURLWithPath: "/usr/bin/env"), ["git", "-C", Self.root.path, "check-ignore", "--no-index", "-q", path])
            #expect(check.status == 0, "git does not ignore \(path) (exit \(check.status)): \(check.output)")
        }
    }
}
