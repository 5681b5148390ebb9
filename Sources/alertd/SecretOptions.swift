import AlertServer
import ArgumentParser
import Foundation

/// Where the session secret comes from, for every command that signs or checks session tokens
/// (`serve`, `token`): `--session-secret` or `ALERTD_SESSION_SECRET`, else the file `serve`
/// generated in `--data-dir` (`ALERTD_DATA_DIR`). One definition, so `token` signs with exactly
/// the secret the server checks with.
struct SecretOptions: ParsableArguments {
    static let defaultDataFolder = "./alertd-data"

    @Option(help: "Folder for the SQLite store and generated secrets; ALERTD_DATA_DIR. (default: \(defaultDataFolder))")
    var dataDir: String?

    @Option(help: "Secret that signs session tokens; ALERTD_SESSION_SECRET. (default: generated once, kept in DATA-DIR/\(Credentials.sessionSecretFile))")
    var sessionSecret: String?

    /// The data folder: the flag, else `ALERTD_DATA_DIR`, else the configuration file's, else `./alertd-data`.
    func dataFolder(_ settings: inout Settings) -> String {
        settings.string(dataDir, flagName: "data-dir", env: "ALERTD_DATA_DIR", default: Self.defaultDataFolder)
    }

    /// The session secret given by the flag, `ALERTD_SESSION_SECRET` or the configuration file;
    /// nil means the data folder's.
    func givenSessionSecret(_ settings: inout Settings) -> String? {
        settings.optionalString(
            sessionSecret, flagName: "session-secret", env: "ALERTD_SESSION_SECRET", secret: true,
            unset: "generated once, kept in DATA-DIR/\(Credentials.sessionSecretFile)")
    }
}
