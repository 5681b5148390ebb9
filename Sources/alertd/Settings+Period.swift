import AlertSpec

extension Settings {
    /// A period setting (`--retention`, `--outcomes-retention`, `--session-idle`: `90s`, `15m`,
    /// `12h`, `30d`, read as a `Period`): a bad flag is reported like a bad variable or file
    /// line, and start-up stops.
    mutating func period(_ flag: String?, _ setting: Setting) -> Period {
        var given: Period?
        if let flag {
            given = Period(flag)
            if given == nil { report("\(setting.flag): expected \(Period.expected), got \"\(flag)\"") }
        }
        guard case .text(let text) = setting.default, let fallback = Period(text) else {
            preconditionFailure("\(setting.flag) has no period default")
        }
        return value(given, setting, default: fallback, expected: Period.expected, show: { "'\($0)'" }) {
            Period($0)
        }
    }
}
