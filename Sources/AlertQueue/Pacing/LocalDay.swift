import Foundation
import Locking

/// A calendar day in a time zone, and local times of day, as the session-wide rules judge them
/// on every step: the answers of Foundation's calendar are kept per zone while they hold (the
/// day until it ends, the zone's offset from UTC until its next change of clock), as they cost
/// more than the rest of a step's pacing.
struct LocalDay: Equatable {
    /// The day's first instant, and the next day's.
    var start: Date
    var end: Date

    /// The day in `zone` that holds `now`.
    static func holding(_ now: Date, in zone: TimeZone) -> LocalDay {
        if let day = known.withLock({ $0.days[zone.identifier] }), day.start <= now, now < day.end { return day }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let start = calendar.startOfDay(for: now)
        let day = LocalDay(start: start, end: calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400))
        known.withLock { $0.remember(day, of: zone.identifier) }
        return day
    }

    /// The local time of `now` in `zone`, in minutes since midnight (0..<1440).
    static func minute(of now: Date, in zone: TimeZone) -> Int {
        let offset: Int
        if let known = known.withLock({ $0.offsets[zone.identifier] }), known.from <= now, now < known.until {
            offset = known.seconds
        } else {
            offset = zone.secondsFromGMT(for: now)
            let until = zone.nextDaylightSavingTimeTransition(after: now) ?? .distantFuture
            known.withLock { $0.remember((offset, now, until), of: zone.identifier) }
        }
        let local = Int(now.timeIntervalSince1970.rounded(.down)) + offset
        return ((local % 86_400 + 86_400) % 86_400) / 60
    }

    /// What was worked out, by zone identifier; a few zones are in use at once.
    private struct Known {
        var days: [String: LocalDay] = [:]
        var offsets: [String: (seconds: Int, from: Date, until: Date)] = [:]

        mutating func remember(_ day: LocalDay, of zone: String) {
            if days.count >= 512 { days = [:] }
            days[zone] = day
        }

        mutating func remember(_ offset: (seconds: Int, from: Date, until: Date), of zone: String) {
            if offsets.count >= 512 { offsets = [:] }
            offsets[zone] = offset
        }
    }

    private static let known = Locked(Known())
}
