import Foundation
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// `--retention`, `--outcomes-retention` and `--session-idle`: periods such as 30d, 12h, 15m or 90s, from a flag,
// an ALERTD_* variable or the --config file; anything else stops start-up naming the setting.

@Suite("alertd configuration: retention periods")
struct RetentionOptionTests {
    @Test("the periods default to 30d and 400d, and are read from a flag, a variable or the file in every unit")
    func periodsAreRead() throws {
        // Given nothing
        let plain = try AlertdProcess.run(["serve", "--print-config"], environment: ["ALERTD_DATA_DIR": ""])
        #expect(plain.exited && plain.status == 0, "stderr: \(plain.standardError)")
        let defaults = ConfigFileTests.settings(in: plain.standardOutput)
        #expect(defaults["retention"]?.value == "'30d'" && defaults["retention"]?.source == "default")
        #expect(defaults["outcomes-retention"]?.value == "'400d'")

        // Given a file, a variable and a flag, each in a unit of its own
        let file = try ConfigFileTests.configFile("retention: 15m\noutcomes-retention: 90s\n")
        defer { ConfigFileTests.remove(file) }
        let fromFile = ConfigFileTests.settings(
            in: try AlertdProcess.run(["serve", "--config", file.path, "--print-config"]).standardOutput)
        #expect(fromFile["retention"]?.value == "'15m'" && fromFile["retention"]?.source == file.path)
        #expect(fromFile["outcomes-retention"]?.value == "'90s'")
        let given = try AlertdProcess.run(
            ["serve", "--config", file.path, "--print-config", "--retention", "12h"],
            environment: ["ALERTD_OUTCOMES_RETENTION": "2d"])
        let settings = ConfigFileTests.settings(in: given.standardOutput)
        #expect(settings["retention"]?.value == "'12h'" && settings["retention"]?.source == "--retention")
        #expect(settings["outcomes-retention"]?.value == "'2d'" && settings["outcomes-retention"]?.source == "ALERTD_OUTCOMES_RETENTION")
        // 120 minutes are printed as the hours they are
        let hours = try AlertdProcess.run(["serve", "--print-config", "--retention", "120m"])
        #expect(ConfigFileTests.settings(in: hours.standardOutput)["retention"]?.value == "'2h'")
    }

    @Test(
        "a period that is not a whole number and a unit stops start-up, naming the setting",
        arguments: ["30", "0d", "-1d", "1.5h", "12 h", "d", "1w", "99999999999999999d"])
    func badPeriod(text: String) throws {
        // When given as a flag, as a variable, and in a file
        let flag = try AlertdProcess.run(["serve", "--print-config", "--retention=\(text)"])
        let variable = try AlertdProcess.run(["serve", "--print-config"], environment: ["ALERTD_OUTCOMES_RETENTION": text])
        let file = try ConfigFileTests.configFile("retention: '\(text)'\n")
        defer { ConfigFileTests.remove(file) }
        let inFile = try AlertdProcess.run(["serve", "--print-config", "--config", file.path])

        // Then each stops with exit status 2 and one line naming the setting
        #expect(flag.exited && flag.status == 2 && !flag.standardOutput.contains("retention:"))
        #expect(flag.standardError.contains("--retention: expected a period such as 30d, 12h, 15m or 90s"), "\(flag.standardError)")
        #expect(variable.status == 2)
        #expect(variable.standardError.contains("ALERTD_OUTCOMES_RETENTION (--outcomes-retention): expected a period"), "\(variable.standardError)")
        #expect(inFile.status == 2)
        #expect(inFile.standardError.contains("\(file.path): retention: expected a period"), "\(inFile.standardError)")
    }

    @Test("--session-idle defaults to 90d, is read from a flag or a variable, and a bad one stops start-up")
    func sessionIdle() throws {
        let plain = try AlertdProcess.run(["serve", "--print-config"], environment: ["ALERTD_DATA_DIR": ""])
        #expect(ConfigFileTests.settings(in: plain.standardOutput)["session-idle"]?.value == "'90d'")
        let flag = try AlertdProcess.run(["serve", "--print-config", "--session-idle", "48h"])
        #expect(ConfigFileTests.settings(in: flag.standardOutput)["session-idle"]?.value == "'2d'")
        let variable = try AlertdProcess.run(["serve", "--print-config"], environment: ["ALERTD_SESSION_IDLE": "30m"])
        let fromVariable = ConfigFileTests.settings(in: variable.standardOutput)["session-idle"]
        #expect(fromVariable?.value == "'30m'" && fromVariable?.source == "ALERTD_SESSION_IDLE")
        let bad = try AlertdProcess.run(["serve", "--print-config", "--session-idle", "0d"])
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("--session-idle: expected a period"), "\(bad.standardError)")
    }
}
