import AlertSpec
import Foundation

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

    /// Adds what judging this rule for `alert` at `now` asks of the history to `demand`.
    public func ask(alert: String, now: Date, in demand: inout PacingHistory.Demand) {
        for limit in limits {
            demand.ask(.init(alert: alert, scope: limit.scope)) { needs in
                needs.count(in: limit.window(now: now))
                // The rank before too: once the step records a delivery, it is the limit's rank.
                needs.time(ofRank: limit.count)
                needs.time(ofRank: limit.count - 1)
            }
        }
        if let minGap { demand.ask(.init(alert: alert, scope: minGap.scope)) { $0.time(ofRank: 1) } }
        if let once { demand.ask(.init(alert: alert, scope: once.scope)) }
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

    /// Adds what judging the session-wide rules at `now` asks of the modals shown
    /// (`PacingHistory.modals`, scope `user`) to `demand`: nothing when no rule counts them.
    public func ask(now: Date, in demand: inout PacingHistory.Demand) {
        guard countsModals else { return }
        demand.ask(.init(alert: PacingHistory.modals, scope: .user)) { needs in
            if minModalGap != nil { needs.time(ofRank: 1) }
            if maxModalsPerDay != nil { needs.count(in: .init(from: LocalDay.holding(now, in: zone).start)) }
        }
    }

    /// Whether the modals shown must be kept: a rule counts them.
    public var countsModals: Bool { minModalGap != nil || maxModalsPerDay != nil }
}
