import AlertSpec
import Foundation

/// When paced alerts were shown, as a step's pacing rules count them: for each alert and scope
/// (the session, or every session of its user), the delivery times the longest rule can look
/// back on (`Pacing.maxPeriod`), oldest first, and whether the alert was ever shown there.
///
/// A store fills it for the alerts of the session's paced items (`QueueItem.pacing`); the step
/// adds its own deliveries (`recordShown`), which the store then keeps.
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

    /// Delivery times by key, oldest first.
    public private(set) var shown: [Key: [Date]] = [:]
    /// The keys shown at least once, however long ago (`Pacing.Once`).
    public private(set) var everShown: Set<Key> = []
    /// The deliveries this step made, for the store to keep.
    public private(set) var recorded: [(alert: String, at: Date)] = []

    public init() {}

    /// Adds what the store read: `times` (in any order), and whether the alert was shown in
    /// `scope` before them (`ever`, for a "once" read apart from the window).
    public mutating func add(alert: String, scope: Pacing.Scope, shownAt times: [Date], ever: Bool = false) {
        let key = Key(alert: alert, scope: scope)
        if !times.isEmpty {
            shown[key, default: []].append(contentsOf: times)
            shown[key]?.sort()
        }
        if ever || !times.isEmpty { everShown.insert(key) }
    }

    /// The key under which every modal shown is kept while a session-wide rule counts them
    /// (`SessionProfile.minModalGap`, `.maxModalsPerDay`); no alert id has its form.
    public static let modals = "*modal"

    /// The step delivered `alert` at `at`: it counts in both scopes from now on.
    public mutating func recordShown(alert: String, at: Date) {
        for scope in Pacing.Scope.allCases { add(alert: alert, scope: scope, shownAt: [at]) }
        recorded.append((alert, at))
    }

    public static func == (lhs: PacingHistory, rhs: PacingHistory) -> Bool {
        lhs.shown == rhs.shown && lhs.everShown == rhs.everShown
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
        func times(_ scope: Scope) -> [Date] { history.shown[.init(alert: alert, scope: scope)] ?? [] }
        if let once, history.everShown.contains(.init(alert: alert, scope: once.scope)) {
            return .capped(rule: .once, until: nil)
        }
        var latest: (rule: PacingRule, until: Date)?
        func holds(_ rule: PacingRule, until: Date) {
            if until > now, latest.map({ until > $0.until }) ?? true { latest = (rule, until) }
        }
        for limit in limits {
            let period = TimeInterval(limit.period.seconds)
            let inWindow = times(limit.scope).filter { $0 > now.addingTimeInterval(-period) }
            // Allowed again once the oldest deliveries that fill the limit leave the window.
            if inWindow.count >= limit.count {
                holds(.limit, until: inWindow[inWindow.count - limit.count].addingTimeInterval(period))
            }
        }
        if let minGap, let last = times(minGap.scope).last {
            holds(.minGap, until: last.addingTimeInterval(TimeInterval(minGap.duration.seconds)))
        }
        return latest.map { .capped(rule: $0.rule, until: $0.until) } ?? .allowed
    }
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
        let shown = history.shown[.init(alert: PacingHistory.modals, scope: .user)] ?? []
        if let minModalGap, let last = shown.last { holds(.modalGap, until: last.addingTimeInterval(TimeInterval(minModalGap.seconds))) }
        if let maxModalsPerDay {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let today = calendar.startOfDay(for: now)
            if shown.filter({ $0 >= today }).count >= maxModalsPerDay, let tomorrow = calendar.date(byAdding: .day, value: 1, to: today) {
                holds(.dailyCap, until: tomorrow)
            }
        }
        return latest
    }

    /// Whether the modals shown must be kept: a rule counts them.
    public var countsModals: Bool { minModalGap != nil || maxModalsPerDay != nil }
}
