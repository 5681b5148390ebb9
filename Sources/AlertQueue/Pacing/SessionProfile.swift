import AlertSpec
import Foundation

/// How popups are paced for a session as a whole, whatever the alert: its time zone, quiet
/// hours during which modals and toasts wait (HUDs still flow), the least time between two
/// modals, and the most modals a day. Every member is optional: the server's defaults
/// (`QueueSettings.profile`), then the user's profile, then the session's own, each member
/// from the most specific that has it (`over(_:)`).
///
/// ```swift
/// let berlin = SessionProfile(timeZone: "Europe/Berlin", quietHours: QuietHours("22:00-08:00"), maxModalsPerDay: 5)
/// let effective = berlin.over(userProfile).over(settings.profile)
/// ```
public struct SessionProfile: Sendable, Equatable, Codable {
    /// An IANA time zone identifier (`Europe/Berlin`): where quiet hours and days are counted.
    /// UTC when none is known.
    public var timeZone: String?
    public var quietHours: QuietHours?
    public var minModalGap: Period?
    public var maxModalsPerDay: Int?

    public init(timeZone: String? = nil, quietHours: QuietHours? = nil, minModalGap: Period? = nil, maxModalsPerDay: Int? = nil) {
        self.timeZone = timeZone
        self.quietHours = quietHours
        self.minModalGap = minModalGap
        self.maxModalsPerDay = maxModalsPerDay
    }

    /// No member set.
    public static let none = SessionProfile()

    /// Whether it asks for nothing a step must check.
    public var isNone: Bool { quietHours == nil && minModalGap == nil && maxModalsPerDay == nil }

    /// This profile, each member it lacks taken from `base`.
    public func over(_ base: SessionProfile) -> SessionProfile {
        SessionProfile(
            timeZone: timeZone ?? base.timeZone, quietHours: quietHours ?? base.quietHours,
            minModalGap: minModalGap ?? base.minModalGap, maxModalsPerDay: maxModalsPerDay ?? base.maxModalsPerDay)
    }

    /// The time zone to count in: the profile's, UTC when it has none or one this system does not know.
    public var zone: TimeZone {
        timeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
    }

    /// The most modals a day may allow.
    public static let maxModalsLimit = 10_000
}

/// A daily window of local time, `22:00-08:00`: from its start, included, to its end, excluded;
/// one that ends before it starts runs past midnight. Written and read as that text.
public struct QuietHours: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Minutes after local midnight, 0 to 1,439.
    public var start: Int
    public var end: Int

    /// Nil unless both are 0 to 1,439 and differ.
    public init?(start: Int, end: Int) {
        guard (0..<1_440).contains(start), (0..<1_440).contains(end), start != end else { return nil }
        self.start = start
        self.end = end
    }

    /// Reads `HH:MM-HH:MM` (24-hour, two digits each); nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = Self.minutes(parts[0]), let end = Self.minutes(parts[1]) else { return nil }
        self.init(start: start, end: end)
    }

    private static func minutes(_ text: Substring) -> Int? {
        let pieces = text.split(separator: ":", omittingEmptySubsequences: false)
        guard pieces.count == 2, pieces.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let hours = Int(pieces[0]), let minutes = Int(pieces[1]), hours < 24, minutes < 60
        else { return nil }
        return hours * 60 + minutes
    }

    /// What a problem says it expected.
    public static let expected = "local times HH:MM-HH:MM, such as 22:00-08:00"

    public var description: String {
        func text(_ minutes: Int) -> String {
            let (hours, rest) = (minutes / 60, minutes % 60)
            return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
        }
        return "\(text(start))-\(text(end))"
    }

    /// When the quiet hours that hold `now` end, in `zone`; nil when `now` is outside them.
    /// Local times that a change of clock skips or repeats are counted as the calendar counts
    /// them (the end is the first instant whose local time is the end or later).
    public func end(holding now: Date, in zone: TimeZone) -> Date? {
        let minute = LocalDay.minute(of: now, in: zone)
        let inside = start < end ? (start <= minute && minute < end) : (minute >= start || minute < end)
        guard inside else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let day = calendar.startOfDay(for: now)
        let endsToday = minute < end
        let endDay = endsToday ? day : calendar.date(byAdding: .day, value: 1, to: day)!
        return calendar.date(bySettingHour: end / 60, minute: end % 60, second: 0, of: endDay, matchingPolicy: .nextTime, direction: .forward)
            ?? now.addingTimeInterval(60)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let hours = QuietHours(try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Expected \(Self.expected).")
        }
        self = hours
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
