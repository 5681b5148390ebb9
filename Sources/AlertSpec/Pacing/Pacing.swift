/// How often an alert may be shown, declared with the alert (`AlertTarget.pacing`, a file
/// catalog's `pacing:`) and tightened by an enqueue. "Shown" means delivered: a `next` that
/// hands the item to the app. The queue enforces the rule in its store's step.
///
/// ```swift
/// // At most once per 30 days on a device; a capped pre-prompt is dropped, not kept waiting.
/// let prePrompt = Pacing(limits: [.init(count: 1, period: .days(30))], whenCapped: .drop)
/// // Whatever the alert allows, this enqueue wants a minute between two showings.
/// let effective = prePrompt.tightened(by: Pacing(minGap: .init(duration: .seconds(60))))
/// ```
public struct Pacing: Sendable, Hashable {
    /// Whose deliveries a rule counts.
    public enum Scope: String, Sendable, Codable, CaseIterable, Comparable {
        /// The session's own deliveries.
        case session
        /// The deliveries to every session of the session's user; a session without a user
        /// counts alone, as in `session`.
        case user

        /// `user` counts at least every delivery `session` counts, so it is the stricter.
        public static func < (lhs: Scope, rhs: Scope) -> Bool { lhs == .session && rhs == .user }
    }

    /// What becomes of an item the rule does not allow now.
    public enum WhenCapped: String, Sendable, Codable, CaseIterable {
        /// It waits, queued, until the rule allows it (or its TTL ends).
        case `defer`
        /// It is dropped.
        case drop
    }

    /// At most `count` deliveries in any `period` (a sliding window).
    public struct Limit: Sendable, Hashable, Codable {
        public var count: Int
        public var period: Period
        public var scope: Scope

        public init(count: Int, period: Period, scope: Scope = .session) {
            self.count = count
            self.period = period
            self.scope = scope
        }

        /// Whether keeping this limit keeps `other` too: no more deliveries, over at least as
        /// long a window, counted over at least as many sessions.
        public func implies(_ other: Limit) -> Bool {
            count <= other.count && period >= other.period && scope >= other.scope
        }
    }

    /// Shown once ever.
    public struct Once: Sendable, Hashable, Codable {
        public var scope: Scope

        public init(scope: Scope = .session) { self.scope = scope }
    }

    /// At least `duration` since the alert was last shown.
    public struct Gap: Sendable, Hashable, Codable {
        public var duration: Period
        public var scope: Scope

        public init(duration: Period, scope: Scope = .session) {
            self.duration = duration
            self.scope = scope
        }
    }

    /// Every limit applies; none implies another (`tightened(by:)` keeps them so).
    public var limits: [Limit]
    public var once: Once?
    public var minGap: Gap?
    public var whenCapped: WhenCapped

    /// The longest period or gap a rule may name: 366 days, as far ahead as an item may be
    /// scheduled.
    public static let maxPeriod = Period.days(366)
    /// The most deliveries a limit may allow in its period.
    public static let maxCount = 10_000

    /// No rule: shown whenever the queue would show it. Every alert's default.
    public static let none = Pacing()

    public init(limits: [Limit] = [], once: Once? = nil, minGap: Gap? = nil, whenCapped: WhenCapped = .defer) {
        self.limits = limits
        self.once = once
        self.minGap = minGap
        self.whenCapped = whenCapped
    }

    /// Whether it limits anything (`whenCapped` alone does not).
    public var isNone: Bool { limits.isEmpty && once == nil && minGap == nil }

    /// This rule with `other` (an enqueue's) applied in addition, never looser than either:
    ///
    /// - limits: both sets apply; a limit another one implies is left out (1 per 30 days
    ///   makes 3 per day redundant, but 3 per day and 1 per hour both stay);
    /// - once: the wider scope (`user` over `session`);
    /// - minimum gap: the longer gap, counted in the wider scope;
    /// - when capped: `drop` if either drops.
    public func tightened(by other: Pacing) -> Pacing {
        var limits: [Limit] = []
        for limit in self.limits + other.limits where !limits.contains(where: { $0.implies(limit) }) {
            limits.removeAll { limit.implies($0) }
            limits.append(limit)
        }
        let once = [self.once, other.once].compactMap(\.self).max { $0.scope < $1.scope }
        let gaps = [minGap, other.minGap].compactMap(\.self)
        let minGap = gaps.isEmpty
            ? nil : Gap(duration: gaps.map(\.duration).max()!, scope: gaps.map(\.scope).max()!)
        let whenCapped: WhenCapped = whenCapped == .drop || other.whenCapped == .drop ? .drop : .defer
        return Pacing(limits: limits, once: once, minGap: minGap, whenCapped: whenCapped)
    }

    /// What a reader of the rule (`init(json:at:issues:)`) would have refused in it: a count
    /// or a period out of range. A catalog written in code is checked with it when it loads.
    public var problems: [String] {
        var found: [String] = []
        for limit in limits where !(1...Self.maxCount).contains(limit.count) {
            found.append("a limit's count is \(limit.count), not 1 to \(Self.maxCount)")
        }
        for period in limits.map(\.period) + [minGap?.duration].compactMap(\.self) where period > Self.maxPeriod {
            found.append("the period \(period) is longer than \(Self.maxPeriod)")
        }
        return found
    }

    /// Why this rule cannot hold for an item that waits at most `ttl` seconds (nil: for ever):
    /// a deferred item must be able to wait out its gap. Nil when it can.
    public func problem(ttl: Double?) -> String? {
        guard whenCapped == .defer, let ttl, let gap = minGap, Double(gap.duration.seconds) > ttl else { return nil }
        return "A deferred item waits out its minimum gap (\(gap.duration)), longer than its TTL (\(Self.seconds(ttl))) lets it wait;"
            + " use whenCapped \"drop\", a shorter gap or a longer TTL."
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))s" : "\(value)s"
    }
}
