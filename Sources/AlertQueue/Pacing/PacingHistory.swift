import AlertSpec
import Foundation

/// When paced alerts were shown, as far as a step's pacing rules look: for each alert and scope
/// (the session, or every session of its user), how many deliveries fall in each window a rule
/// counts, the times of the newest few, and whether the alert was ever shown there.
///
/// A store fills it for the rules it judges (`needs`) either with every delivery in the longest
/// period a rule may name (`add(alert:scope:shownAt:)`), or with what the rules ask of each key
/// (`add(alert:scope:read:)`), so that reading it costs the same however long the history is.
/// The step adds its own deliveries (`recordShown`), which the store then keeps.
///
/// ```swift
/// var history = PacingHistory()
/// history.add(alert: "app/promo", scope: .user, shownAt: [yesterday])
/// let verdict = rule.verdict(alert: "app/promo", history: history, now: now)   // .capped(…)
/// ```
public struct PacingHistory: Sendable, Equatable {
    /// An alert's deliveries in one scope.
    public struct Key: Hashable, Sendable {
        public var alert: String
        public var scope: Pacing.Scope

        public init(alert: String, scope: Pacing.Scope) {
            self.alert = alert
            self.scope = scope
        }
    }

    /// A stretch a rule counts deliveries in: those after `start`, or from it on when `inclusive`.
    public struct Window: Hashable, Sendable {
        public var start: Date
        public var inclusive: Bool

        public init(after start: Date) { (self.start, inclusive) = (start, false) }
        public init(from start: Date) { (self.start, inclusive) = (start, true) }

        public func holds(_ time: Date) -> Bool { inclusive ? time >= start : time > start }
    }

    /// What the rules judged ask of one key: the windows they count, and the ranks (1: the newest
    /// delivery) whose times they need once a window holds that many. Its last delivery and
    /// whether there was ever one are always read.
    public struct Needs: Equatable, Sendable {
        public var windows: Set<Window> = []
        public var ranks: Set<Int> = []

        public init() {}

        public mutating func formUnion(_ other: Needs) {
            windows.formUnion(other.windows)
            ranks.formUnion(other.ranks)
        }

        public func union(_ other: Needs) -> Needs {
            var both = self
            both.formUnion(other)
            return both
        }
    }

    /// What a store read of one key for its `Needs`.
    public struct Read: Equatable, Sendable {
        /// The deliveries in each window asked for.
        public var counts: [Window: Int]
        /// The times of the ranks asked for that there are deliveries of (1: the newest).
        public var newest: [Int: Date]
        /// Whether the alert was ever shown in this scope.
        public var ever: Bool

        public init(counts: [Window: Int] = [:], newest: [Int: Date] = [:], ever: Bool = false) {
            self.counts = counts
            self.newest = newest
            self.ever = ever
        }
    }

    /// Deliveries as read in full, by key, oldest first.
    private var shown: [Key: [Date]] = [:]
    /// Deliveries as read for the rules' needs, by key.
    private var read: [Key: Read] = [:]
    /// The keys shown at least once, however long ago (`Pacing.Once`).
    private var everShown: Set<Key> = []
    /// The deliveries this step made, by key, oldest first.
    private var stepShown: [Key: [Date]] = [:]
    /// The deliveries this step made, for the store to keep.
    public private(set) var recorded: [(alert: String, at: Date)] = []

    public init() {}

    /// Adds what the store read: every delivery `times` (in any order) in the longest period a
    /// rule may name, and whether the alert was shown in `scope` before them (`ever`).
    public mutating func add(alert: String, scope: Pacing.Scope, shownAt times: [Date], ever: Bool = false) {
        let key = Key(alert: alert, scope: scope)
        if !times.isEmpty {
            shown[key, default: []].append(contentsOf: times)
            shown[key]?.sort()
        }
        if ever || !times.isEmpty { everShown.insert(key) }
    }

    /// Adds what the store read of a key for the rules' `Needs`.
    public mutating func add(alert: String, scope: Pacing.Scope, read: Read) {
        let key = Key(alert: alert, scope: scope)
        self.read[key] = read
        if read.ever { everShown.insert(key) }
    }

    /// The key under which every modal shown is kept while a session-wide rule counts them
    /// (`SessionProfile.minModalGap`, `.maxModalsPerDay`); no alert id has its form.
    public static let modals = "*modal"

    /// The step delivered `alert` at `at`: it counts in both scopes from now on. A step records
    /// at most one delivery of an alert (`Needs` asks for the rank before each it counts).
    public mutating func recordShown(alert: String, at: Date) {
        for scope in Pacing.Scope.allCases {
            let key = Key(alert: alert, scope: scope)
            stepShown[key, default: []].append(at)
            everShown.insert(key)
        }
        recorded.append((alert, at))
    }

    // MARK: What the rules ask

    /// Whether `key` was ever shown.
    public func ever(_ key: Key) -> Bool { everShown.contains(key) }

    /// How many deliveries of `key` fall in `window`.
    public func count(_ key: Key, in window: Window) -> Int {
        let own = stepShown[key]?.count(where: window.holds) ?? 0
        if let read = read[key] {
            guard let count = read.counts[window] else {
                assertionFailure("a pacing window read for none of the rules judged")
                return own
            }
            return count + own
        }
        return (shown[key]?.count(where: window.holds) ?? 0) + own
    }

    /// The time of `key`'s `rank`-th newest delivery (1: the last), nil when there are fewer.
    public func newest(_ key: Key, rank: Int) -> Date? {
        let own = stepShown[key] ?? []
        if rank <= own.count { return own[own.count - rank] }
        let rank = rank - own.count
        if let read = read[key] { return read.newest[rank] }
        guard let times = shown[key], rank <= times.count else { return nil }
        return times[times.count - rank]
    }

    public static func == (lhs: PacingHistory, rhs: PacingHistory) -> Bool {
        lhs.shown == rhs.shown && lhs.read == rhs.read && lhs.everShown == rhs.everShown && lhs.stepShown == rhs.stepShown
            && lhs.recorded.map(\.alert) == rhs.recorded.map(\.alert) && lhs.recorded.map(\.at) == rhs.recorded.map(\.at)
    }
}

/// What a pacing rule decides for an item now.
public enum PacingVerdict: Sendable, Equatable {
    /// It may be shown.
    case allowed
    /// Not now: `rule` holds it back until `until`, or for good (nil: shown once already).
    case capped(rule: PacingRule, until: Date?)
}

/// Which part of a rule holds an item back, as `/explain` names it: of the alert's own rule
/// (`Pacing`), or of the session's (`SessionProfile`).
public enum PacingRule: String, Sendable, Codable, CaseIterable {
    /// A limit of so many deliveries per period.
    case limit
    /// Shown once ever.
    case once
    /// The minimum gap since it was last shown.
    case minGap = "min-gap"
    /// The session's quiet hours: modals and toasts wait.
    case quietHours = "quiet-hours"
    /// The session's least time between two modals.
    case modalGap = "modal-gap"
    /// The session's most modals a day.
    case dailyCap = "daily-cap"
}

extension Pacing {
    /// Whether `alert`, paced by this rule, may be shown at `now` given `history`. When several
    /// parts hold it back, the one that lifts last is named (a "once" that never lifts first).
    public func verdict(alert: String, history: PacingHistory, now: Date) -> PacingVerdict {
        func key(_ scope: Scope) -> PacingHistory.Key { .init(alert: alert, scope: scope) }
        if let once, history.ever(key(once.scope)) {
            return .capped(rule: .once, until: nil)
        }
        var latest: (rule: PacingRule, until: Date)?
        func holds(_ rule: PacingRule, until: Date) {
            if until > now, latest.map({ until > $0.until }) ?? true { latest = (rule, until) }
        }
        for limit in limits {
            let period = TimeInterval(limit.period.seconds)
            // Allowed again once the oldest deliveries that fill the limit leave the window.
            if history.count(key(limit.scope), in: limit.window(now: now)) >= limit.count,
                let oldest = history.newest(key(limit.scope), rank: limit.count)
            {
                holds(.limit, until: oldest.addingTimeInterval(period))
            }
        }
        if let minGap, let last = history.newest(key(minGap.scope), rank: 1) {
            holds(.minGap, until: last.addingTimeInterval(TimeInterval(minGap.duration.seconds)))
        }
        return latest.map { .capped(rule: $0.rule, until: $0.until) } ?? .allowed
    }

    /// What judging this rule for `alert` at `now` asks of the history, by key.
    public func needs(alert: String, now: Date) -> [PacingHistory.Key: PacingHistory.Needs] {
        var needs: [PacingHistory.Key: PacingHistory.Needs] = [:]
        for limit in limits {
            let key = PacingHistory.Key(alert: alert, scope: limit.scope)
            needs[key, default: .init()].windows.insert(limit.window(now: now))
            // The rank before too: once the step records a delivery, it is the limit's rank.
            needs[key, default: .init()].ranks.formUnion([limit.count, limit.count - 1].filter { $0 >= 1 })
        }
        if let minGap { needs[.init(alert: alert, scope: minGap.scope), default: .init()].ranks.insert(1) }
        if let once, needs[.init(alert: alert, scope: once.scope)] == nil { needs[.init(alert: alert, scope: once.scope)] = .init() }
        return needs
    }
}

extension Pacing.Limit {
    /// The deliveries the limit counts at `now`: those of the last period.
    func window(now: Date) -> PacingHistory.Window { .init(after: now.addingTimeInterval(-TimeInterval(period.seconds))) }
}

extension SessionProfile {
    /// What the session-wide rules say of `item` at `now`: nil when they let it through (a HUD,
    /// an item of `bypassPriority` or more, or nothing holding), else the rule that lifts last
    /// and when. Modals shown count across the user's sessions (`PacingHistory.modals`, scope
    /// `user`: the session's own when it has no user); the day is the calendar day in the
    /// profile's time zone.
    public func hold(_ item: QueueItem, history: PacingHistory, bypassPriority: Int, now: Date) -> (rule: PacingRule, until: Date)? {
        guard item.priority < bypassPriority else { return nil }
        return hold(lane: item.lane, history: history, now: now)
    }

    /// What the session-wide rules say of an item of `lane` below the bypass priority at `now`.
    public func hold(lane: Lane, history: PacingHistory, now: Date) -> (rule: PacingRule, until: Date)? {
        guard lane != .hud else { return nil }
        var latest: (rule: PacingRule, until: Date)?
        func holds(_ rule: PacingRule, until: Date) {
            if until > now, latest.map({ until > $0.until }) ?? true { latest = (rule, until) }
        }
        if let quietHours, let end = quietHours.end(holding: now, in: zone) { holds(.quietHours, until: end) }
        guard lane == .modal else { return latest }
        let modals = PacingHistory.Key(alert: PacingHistory.modals, scope: .user)
        if let minModalGap, let last = history.newest(modals, rank: 1) {
            holds(.modalGap, until: last.addingTimeInterval(TimeInterval(minModalGap.seconds)))
        }
        if let maxModalsPerDay {
            let day = LocalDay.holding(now, in: zone)
            if history.count(modals, in: .init(from: day.start)) >= maxModalsPerDay { holds(.dailyCap, until: day.end) }
        }
        return latest
    }

    /// What judging the session-wide rules at `now` asks of the modals shown (`PacingHistory.modals`,
    /// scope `user`); nil when no rule counts them.
    public func needs(now: Date) -> PacingHistory.Needs? {
        guard countsModals else { return nil }
        var needs = PacingHistory.Needs()
        if minModalGap != nil { needs.ranks.insert(1) }
        if maxModalsPerDay != nil { needs.windows.insert(.init(from: LocalDay.holding(now, in: zone).start)) }
        return needs
    }

    /// Whether the modals shown must be kept: a rule counts them.
    public var countsModals: Bool { minModalGap != nil || maxModalsPerDay != nil }
}
