/// A length of time written as a whole number and its unit: `90s`, `15m`, `12h`, `30d`
/// (seconds, minutes, hours, days). The one reader of that form: pacing rules, the retention
/// settings and a campaign's `seenWithin` all parse it here.
///
/// ```swift
/// Period("30d")?.seconds             // 2_592_000
/// Period.minutes(90).description       // "90m"
/// ```
public struct Period: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Greater than zero.
    public let seconds: Int

    private static let units: [(suffix: Character, seconds: Int)] = [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)]

    /// What a problem says it expected.
    public static let expected = "a period such as 30d, 12h, 15m or 90s"

    /// Nil unless `seconds` is more than zero.
    public init?(seconds: Int) {
        guard seconds > 0 else { return nil }
        self.seconds = seconds
    }

    /// Parses `text`; nil for anything else (no unit, a unit of its own, zero, a sign, a
    /// fraction, a value past `Int`).
    public init?(_ text: String) {
        guard let last = text.last, let unit = Self.units.first(where: { $0.suffix == last }) else { return nil }
        let digits = text.dropLast()
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
            let count = Int(digits), case let (product, overflow) = count.multipliedReportingOverflow(by: unit.seconds),
            !overflow
        else { return nil }
        self.init(seconds: product)
    }

    /// `count` seconds, minutes, hours or days, for periods written in code; `count` must be
    /// more than zero.
    public static func seconds(_ count: Int) -> Period { Period(seconds: count)! }
    public static func minutes(_ count: Int) -> Period { .seconds(count * 60) }
    public static func hours(_ count: Int) -> Period { .seconds(count * 3_600) }
    public static func days(_ count: Int) -> Period { .seconds(count * 86_400) }

    /// In the largest unit that divides it: `30d`, `36h`, `90s`.
    public var description: String {
        let unit = Self.units.first { seconds % $0.seconds == 0 }!
        return "\(seconds / unit.seconds)\(unit.suffix)"
    }

    public static func < (lhs: Period, rhs: Period) -> Bool { lhs.seconds < rhs.seconds }
}

extension Period: Codable {
    /// Written as its text (`"30d"`); read from that text or from a whole number of seconds.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let period =
            (try? container.decode(String.self)).flatMap(Period.init) ?? (try? container.decode(Int.self)).flatMap(Period.init(seconds:))
        guard let period else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Expected \(Self.expected), or whole seconds.")
        }
        self = period
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
