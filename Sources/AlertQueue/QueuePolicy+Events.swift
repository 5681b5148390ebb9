import AlertSpec
import Foundation

// The details `QueuePolicy` records with its steps' events (see `ItemEvent.Kind`).
extension QueuePolicy {
    /// Appends an event to the step's, unless `settings.recordsEvents` is off: then the detail
    /// is never built either.
    func record(
        _ kind: ItemEvent.Kind, _ ticket: String, in items: inout SessionItems, at now: Date,
        _ detail: @autoclosure () -> [String: ParameterValue] = [:]
    ) {
        guard settings.recordsEvents else { return }
        items.record(kind, ticket, at: now, detail())
    }

    /// Cancels the queued HUDs `replaced` in favour of the HUD `ticket`: the latest wins.
    func supersede(_ replaced: [QueueItem], by ticket: String, in items: inout SessionItems, now: Date) {
        let tickets = Set(replaced.map(\.ticket))
        for item in replaced { record(.superseded, item.ticket, in: &items, at: now, ["by": .string(ticket)]) }
        items.updateAll(where: { tickets.contains($0.ticket) }) { $0.state = .cancelled }
    }

    /// Finishes the queued item `ticket` that its pacing `rule` holds back and drops
    /// (`Pacing.WhenCapped.drop`): cancelled, its event `capped`.
    func cap(_ ticket: String, rule: PacingRule, until: Date?, in items: inout SessionItems, now: Date) {
        var detail: [String: ParameterValue] = ["rule": .string(rule.rawValue)]
        if let until { detail["until"] = .string(ItemEvent.timeText(until)) }
        record(.capped, ticket, in: &items, at: now, detail)
        items.update(ticket: ticket) { $0.state = .cancelled }
    }

    /// What an ack of `item` (as prepared at `now`) records. Time on screen runs from its last
    /// delivery, which began a lease of `leaseDuration` seconds; an item whose lease had ended
    /// (queued again) has none.
    func acknowledgedDetail(_ item: QueueItem, action: String?, role: String?, input: String?, now: Date) -> [String: ParameterValue] {
        var detail: [String: ParameterValue] = [:]
        if let action { detail["action"] = .string(action) }
        if let role { detail["role"] = .string(role) }
        if let input { detail["input"] = .string(input) }
        if item.state == .presenting, let leaseUntil = item.leaseUntil {
            let shown = now.timeIntervalSince(leaseUntil.addingTimeInterval(-settings.leaseDuration))
            detail["onScreen"] = .number(max(0, (shown * 1000).rounded() / 1000))
        }
        return detail
    }

    /// What a delivery records: its number and, but for a HUD, the lease's end.
    static func deliveredDetail(delivery: Int, leaseUntil: Date?) -> [String: ParameterValue] {
        var detail: [String: ParameterValue] = ["delivery": .integer(delivery)]
        if let leaseUntil { detail["leaseUntil"] = .string(ItemEvent.timeText(leaseUntil)) }
        return detail
    }

    /// What a refresh changed the item to.
    static func refreshDetail(_ newer: QueueItem) -> [String: ParameterValue] {
        var detail: [String: ParameterValue] = ["priority": .integer(newer.priority), "lane": .string(newer.lane.rawValue)]
        if let expiresAt = newer.expiresAt { detail["expiresAt"] = .string(ItemEvent.timeText(expiresAt)) }
        if let notBefore = newer.notBefore { detail["notBefore"] = .string(ItemEvent.timeText(notBefore)) }
        return detail
    }

    /// What an enqueue records: who queued the item, and when it is scheduled for, if it is.
    static func enqueuedDetail(_ item: QueueItem, origin: EnqueueOrigin) -> [String: ParameterValue] {
        var detail: [String: ParameterValue] = ["by": .string(origin.rawValue)]
        if let notBefore = item.notBefore { detail["notBefore"] = .string(ItemEvent.timeText(notBefore)) }
        if let campaign = item.campaign { detail["campaign"] = .string(campaign) }
        if let group = item.group { detail["group"] = .string(group) }
        return detail
    }
}
