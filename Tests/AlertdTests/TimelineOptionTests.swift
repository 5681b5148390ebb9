import Foundation
import Testing
@testable import HTTPTestSupport
@testable import AlertdTestSupport

// `alertd serve --timeline on|off`, as an operator sets it: flag, variable or file line.

@Suite("alertd configuration: --timeline")
struct TimelineOptionTests {
    @Test("--timeline is on by default, taken from the flag, ALERTD_TIMELINE or the file, and refuses anything but on and off")
    func parses() throws {
        // When alertd prints its configuration without the setting, then with it from each source
        let file = try ConfigFileTests.configFile("timeline: off\n")
        defer { ConfigFileTests.remove(file) }
        let unset = try AlertdProcess.run(["serve", "--print-config"])
        let fromFlag = try AlertdProcess.run(["serve", "--print-config", "--timeline", "off"])
        let fromEnvironment = try AlertdProcess.run(["serve", "--print-config"], environment: ["ALERTD_TIMELINE": "off"])
        let fromFile = try AlertdProcess.run(["serve", "--print-config", "--config", file.path])

        // Then the default is on, and each source's value is taken from where it was given
        for result in [unset, fromFlag, fromEnvironment, fromFile] {
            #expect(result.exited && result.status == 0, "stderr: \(result.standardError)")
        }
        #expect(ConfigFileTests.settings(in: unset.standardOutput)["timeline"]?.value == "'on'", "\(unset.standardOutput)")
        let sources = [(fromFlag, "--timeline"), (fromEnvironment, "ALERTD_TIMELINE"), (fromFile, file.path)]
        for (result, source) in sources {
            let setting = ConfigFileTests.settings(in: result.standardOutput)["timeline"]
            #expect(setting?.value == "'off'" && setting?.source == source, "\(result.standardOutput)")
        }

        // And another value stops start-up with one line saying so
        let refusals: [(arguments: [String], environment: [String: String])] = [
            (["--timeline", "no"], [:]), ([], ["ALERTD_TIMELINE": "no"]),
        ]
        for (arguments, environment) in refusals {
            let refused = try AlertdProcess.run(["serve", "--port", "0"] + arguments, environment: environment)
            #expect(refused.exited && refused.status == 2, "status \(refused.status)")
            #expect(refused.standardError == "alertd: --timeline must be on or off, not no\n", "\(refused.standardError)")
        }
    }
}
