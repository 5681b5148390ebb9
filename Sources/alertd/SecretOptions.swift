import ArgumentParser
import Foundation

/// Where the session secret comes from, for every command that signs or checks session tokens
/// (`serve`, `token`): `--session-secret` or `ALERTD_SESSION_SECRET`, else the file `serve`
/// generated in `--data-dir` (`ALERTD_DATA_DIR`). One definition, so `token` signs with exactly
/// the secret the server checks with.
struct SecretOptions: ParsableArguments {
    @Option(name: Setting.dataDir.optionName, help: Setting.dataDir.optionHelp)
    var dataDir: String?

    @Option(name: Setting.sessionSecret.optionName, help: Setting.sessionSecret.optionHelp)
    var sessionSecret: String?

    /// The data folder: the flag, else `ALERTD_DATA_DIR`, else the configuration file's, else `./alertd-data`.
    func dataFolder(_ settings: inout Settings) -> String {
        settings.string(dataDir, .dataDir)
    }

    /// The session secret given by the flag, `ALERTD_SESSION_SECRET` or the configuration file;
    /// nil means the data folder's.
    func givenSessionSecret(_ settings: inout Settings) -> String? {
        settings.optionalString(sessionSecret, .sessionSecret)
    }
}
