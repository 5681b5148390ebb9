import AlertSpec
import Foundation

// `next` under pacing: the alert's own rule (`Pacing`) and the session's (`SessionProfile`).
extension QueuePolicy {
    /// `next`, paced by the deliveries `pacing` counts and by `profile` (the session's, over its
    /// user's) over the server's (`QueueSettings.profile`): an item its alert's rule holds back
    /// is stepped over (`defer`) or finished as `capped` (`drop`); one the session-wide rules
    /// hold back waits. The paced deliveries it makes, and the modal it shows while a
    /// session-wide rule counts modals, are recorded in `pacing` for the store to keep.
    public func next(
        _ items: inout SessionItems, holdUntil: Date?, pacing: inout PacingHistory, profile: SessionProfile = .none, now: Date
    ) -> QueueItem? {
        prepare(&items, now: now)
        let profile = profile.over(settings.profile)
        let lanes = Self.freeLanes(items.all, holdUntil: holdUntil, now: now)
        var candidates = items.all.filter { $0.state == .queued && lanes.contains($0.lane) && Self.isDeliverable($0, now: now) }
        for item in candidates {
            if !item.pacing.isNone,
                case .capped(let rule, let until) = item.pacing.verdict(alert: item.pacedAlert, history: pacing, now: now)
            {
                candidates.removeAll { $0.ticket == item.ticket }
                if item.pacing.whenCapped == .drop { cap(item.ticket, rule: rule, until: until, in: &items, now: now) }
            } else if profile.hold(item, history: pacing, bypassPriority: settings.bypassPriority, now: now) != nil {
                candidates.removeAll { $0.ticket == item.ticket }
            }
        }
        guard let best = candidates.min(by: Self.precedes) else { return nil }
        if !best.pacing.isNone { pacing.recordShown(alert: best.pacedAlert, at: now) }
        if best.lane == .modal, profile.countsModals { pacing.recordShown(alert: PacingHistory.modals, at: now) }
        return deliver(best, in: &items, now: now)
    }
}
