import AlertServer
import ArgumentParser
import Logging

/// `--log-format` and `--log-level` of `alertd serve`, with their `ALERTD_*` twins. Logs go to
/// standard error, one line per event (see `AlertdLogHandler`); standard output keeps only the
/// `alertd listening on …` line.
struct LogOptions: ParsableArguments {
    @Option(name: Setting.logFormat.optionName, help: Setting.logFormat.optionHelp)
    var logFormat: String?

    @Option(name: Setting.logLevel.optionName, help: Setting.logLevel.optionHelp)
    var logLevel: String?

    /// The format and level, or nil with a problem reported for a value that is neither.
    func resolve(_ settings: inout Settings) -> (format: LogFormat, level: Logger.Level)? {
        let formatText = settings.string(logFormat, .logFormat)
        let levelText = settings.string(logLevel, .logLevel)
        let format = LogFormat(rawValue: formatText)
        let level = Logger.Level(rawValue: levelText)
        if format == nil {
            settings.report("--log-format must be \(LogFormat.allCases.map(\.rawValue).joined(separator: " or ")), not \(formatText)")
        }
        if level == nil {
            settings.report(
                "--log-level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")), not \(levelText)")
        }
        guard let format, let level else { return nil }
        return (format, level)
    }

    /// Sends every swift-log logger of the process to `AlertdLogHandler`; call once.
    static func bootstrap(format: LogFormat, level: Logger.Level) -> Logger {
        LoggingSystem.bootstrap { _ in AlertdLogHandler(format: format, level: level) }
        return Logger(label: "alertd")
    }
}
