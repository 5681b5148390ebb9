import Foundation
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// The server's session-wide pacing (`--min-modal-gap`, `--max-modals-per-day`, `--quiet-hours`,
// `--time-zone`, `--pacing-bypass-priority`), as an operator sets it: flag, variable or file
// line; a bad value stops start-up naming the setting.

@Suite("alertd configuration: session-wide pacing")
struct PacingOptionTests {
    @Test("the pacing settings default to off, UTC and 900, and are read from a flag, a variable or the file")
    func defaultsAndSources() throws {
        // Given nothing
        let plain = try AlertdProcess.run(["serve", "--print-config"])
        #expect(plain.exited && plain.status == 0, "stderr: \(plain.standardError)")
        let defaults = ConfigFileTests.settings(in: plain.standardOutput)
        #expect(defaults["min-modal-gap"]?.value == "'off'" && defaults["max-modals-per-day"]?.value == "'off'")
        #expect(defaults["quiet-hours"]?.value == "'off'" && defaults["time-zone"]?.value == "'UTC'")
        #expect(defaults["pacing-bypass-priority"]?.value == "900")

        // When each comes from a source of its own
        let file = try ConfigFileTests.configFile("quiet-hours: '22:00-08:00'\ntime-zone: Europe/Berlin\n")
        defer { ConfigFileTests.remove(file) }
        let given = try AlertdProcess.run(
            ["serve", "--config", file.path, "--print-config", "--min-modal-gap", "30s", "--pacing-bypass-priority", "800"],
            environment: ["ALERTD_MAX_MODALS_PER_DAY": "5"])
        // Then
        #expect(given.status == 0, "stderr: \(given.standardError)")
        let settings = ConfigFileTests.settings(in: given.standardOutput)
        #expect(settings["min-modal-gap"]?.value == "'30s'" && settings["min-modal-gap"]?.source == "--min-modal-gap")
        #expect(settings["max-modals-per-day"]?.value == "'5'" && settings["max-modals-per-day"]?.source == "ALERTD_MAX_MODALS_PER_DAY")
        #expect(settings["quiet-hours"]?.value == "'22:00-08:00'" && settings["quiet-hours"]?.source == file.path)
        #expect(settings["time-zone"]?.value == "'Europe/Berlin'")
        #expect(settings["pacing-bypass-priority"]?.value == "800")
    }

    @Test(
        "a bad pacing value stops start-up with exit status 2 and a line naming the setting",
        arguments: [
            (["--min-modal-gap", "30"], "--min-modal-gap must be off or a period"),
            (["--min-modal-gap", "400d"], "--min-modal-gap must be off or a period"),
            (["--max-modals-per-day", "0"], "--max-modals-per-day must be off or a whole number from 1 to 10000, not 0"),
            (["--max-modals-per-day", "10001"], "--max-modals-per-day must be off or a whole number from 1 to 10000, not 10001"),
            (["--quiet-hours", "22:00-22:00"], "--quiet-hours must be off or local times HH:MM-HH:MM"),
            (["--time-zone", "Mars/Olympus_Mons"], "--time-zone must be an IANA time zone this system knows, such as Europe/Berlin, not Mars/Olympus_Mons"),
            (["--pacing-bypass-priority", "1001"], "--pacing-bypass-priority must be from 0 to 1000, not 1001"),
        ])
    func refused(arguments: [String], message: String) throws {
        // When
        let result = try AlertdProcess.run(["serve", "--print-config", "--port", "0"] + arguments)
        // Then
        #expect(result.exited && result.status == 2, "status \(result.status)")
        #expect(result.standardError.contains("alertd: \(message)"), "\(result.standardError)")
        #expect(!result.standardOutput.contains("min-modal-gap:"))
    }

    @Test("a bad time zone from a variable stops start-up too")
    func refusedFromVariable() throws {
        let result = try AlertdProcess.run(["serve", "--print-config"], environment: ["ALERTD_TIME_ZONE": "Europe/Nowhere"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("--time-zone must be an IANA time zone"), "\(result.standardError)")
    }
}
