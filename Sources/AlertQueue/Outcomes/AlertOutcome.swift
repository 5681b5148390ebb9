import Foundation

/// What happened to an alert, as a product team counts it: the outcomes of the daily roll-up
/// (`OutcomeTally`) and of `alertd_alert_outcomes_total`.
public enum AlertOutcome: String, Sendable, Codable, CaseIterable {
    /// Queued (a duplicate that refreshed an item is not counted again).
    case enqueued
    /// Shown: every delivery, a redelivery after a lease included (impressions).
    case delivered
    /// Answered: every ack, by action id and role.
    case acknowledged
    /// The answers that closed the alert: an ack with no action, or with a `cancel` action.
    case dismissed
    case expired
    /// Cancelled by the admin, the session, as undeliverable, by an answer on another device or a
    /// recall (queued, or withdrawn from the screen), or replaced by a newer HUD.
    case cancelled
    case dead
    /// Dropped by its pacing rule (`Pacing.WhenCapped.drop`) instead of shown.
    case capped

    /// The outcome an event counts as, if any (refreshes and requeues are not outcomes).
    public init?(_ kind: ItemEvent.Kind) {
        switch kind {
        case .enqueued: self = .enqueued
        case .delivered: self = .delivered
        case .acknowledged: self = .acknowledged
        case .expired: self = .expired
        case .cancelled, .withdrawn, .superseded: self = .cancelled
        case .dead: self = .dead
        case .capped: self = .capped
        case .refreshed, .requeued: return nil
        }
    }

    /// The label of an item that is an ad-hoc spec, not a catalog alert.
    public static let adhoc = "adhoc"
}

/// A UTC calendar day, counted from 1970-01-01 (day 0): the roll-up's grain.
public struct OutcomeDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var number: Int

    public init(number: Int) { self.number = number }

    /// The day `date` falls on, in UTC.
    public init(_ date: Date) { self.init(secondsSince1970: date.timeIntervalSince1970) }

    public init(secondsSince1970 seconds: Double) { number = Int((seconds / 86_400).rounded(.down)) }

    /// `2026-12-05`; nil for anything else (a date that does not exist included).
    public init?(text: some StringProtocol) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        var components = DateComponents(year: year, month: month, day: day)
        components.timeZone = .gmt
        guard let date = Self.calendar.date(from: components),
            Self.calendar.dateComponents([.year, .month, .day], from: date) == DateComponents(year: year, month: month, day: day)
        else { return nil }
        self.init(date)
    }

    /// Midnight UTC at the start of the day.
    public var start: Date { Date(timeIntervalSince1970: Double(number) * 86_400) }

    public var description: String {
        let parts = Self.calendar.dateComponents([.year, .month, .day], from: start)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.number < rhs.number }

    public func adding(_ days: Int) -> OutcomeDay { OutcomeDay(number: number + days) }

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }()
}

/// Seconds from delivery to answer, kept as counts in logarithmic buckets (four to a
/// doubling, from 0.1 s to about 29 hours): a day's buckets add up across instances and days,
/// and a quantile read from them is within 9% of the true one.
public enum AnswerTimeBuckets {
    /// Bucket 0 is up to 0.1 s; bucket k covers 0.1·2^((k-1)/4) to 0.1·2^(k/4) s; the last, the rest.
    public static let count = 81

    public static func bucket(seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0.1 else { return 0 }
        return min(count - 1, Int((4 * log2(seconds / 0.1)).rounded(.down)) + 1)
    }

    /// A bucket's middle (geometric), what a quantile that falls in it reads as.
    public static func seconds(ofBucket bucket: Int) -> Double {
        bucket <= 0 ? 0.05 : 0.1 * pow(2, (Double(bucket) - 0.5) / 4)
    }
}
