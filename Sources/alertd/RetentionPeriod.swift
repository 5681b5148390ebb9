/// A period written as a whole number and a unit: `90s`, `15m`, `12h`, `30d` (seconds, minutes,
/// hours, days), as `--retention`, `--outcomes-retention` and `--session-idle` take it.
struct RetentionPeriod: Equatable, CustomStringConvertible {
    /// Greater than zero.
    let seconds: Int

    private static let units: [(suffix: Character, seconds: Int)] = [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)]

    /// What a setting's problem line says it expected.
    static let expected = "a period such as 30d, 12h, 15m or 90s"

    init?(seconds: Int) {
        guard seconds > 0 else { return nil }
        self.seconds = seconds
    }

    /// Parses `text`; nil for anything else (no unit, a unit of its own, zero, a sign, a fraction).
    init?(_ text: String) {
        guard let last = text.last, let unit = Self.units.first(where: { $0.suffix == last }) else { return nil }
        let digits = text.dropLast()
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
            let count = Int(digits), case let (product, overflow) = count.multipliedReportingOverflow(by: unit.seconds),
            !overflow
        else { return nil }
        self.init(seconds: product)
    }

    /// In the largest unit that divides it: `30d`, `36h`, `90s`.
    var description: String {
        let unit = Self.units.first { seconds % $0.seconds == 0 }!
        return "\(seconds / unit.seconds)\(unit.suffix)"
    }
}

extension Settings {
    /// A period setting (`RetentionPeriod`): a bad flag is reported like a bad variable or file
    /// line, and start-up stops.
    mutating func period(_ flag: String?, _ setting: Setting) -> RetentionPeriod {
        var given: RetentionPeriod?
        if let flag {
            given = RetentionPeriod(flag)
            if given == nil { report("\(setting.flag): expected \(RetentionPeriod.expected), got \"\(flag)\"") }
        }
        guard case .text(let text) = setting.default, let fallback = RetentionPeriod(text) else {
            preconditionFailure("\(setting.flag) has no period default")
        }
        return value(given, setting, default: fallback, expected: RetentionPeriod.expected, show: { "'\($0)'" }) {
            RetentionPeriod($0)
        }
    }
}
