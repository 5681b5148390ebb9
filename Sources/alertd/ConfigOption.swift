import ArgumentParser
import Foundation

/// `--config FILE` (`ALERTD_CONFIG`), for every command that reads settings (`serve`, `token`,
/// `healthcheck`), so that each reads the same file the server was started with.
struct ConfigOption: ParsableArguments {
    @Option(name: Setting.config.optionName, help: Setting.config.optionHelp)
    var path: String?

    /// The settings of this run: flags, then `ALERTD_*` variables, then the file (if any), then
    /// the defaults. A file that cannot be read or parsed is already among its problems.
    func settings(environment: [String: String] = ProcessInfo.processInfo.environment) -> Settings {
        let given = path ?? environment[Setting.config.environment].flatMap { $0.isEmpty ? nil : $0 }
        return Settings(environment: environment, file: given.map(ConfigFile.load))
    }
}
