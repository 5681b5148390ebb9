import AlertQueue
import AlertSpec
import Foundation
import GRDB

// What every step of the SQLite store does around `QueuePolicy`, inside its write: load the
// session's items, deliver under the session's hold, write back what changed.

extension SQLiteQueueStore {
    /// `next`'s step on the session's loaded `items`, under the session's hold. Paced (a queued
    /// item with a rule, or a session-wide rule of `profile`, the session's over its user's
    /// (read when not given), over the server's), it reads the deliveries the rules count and keeps those it makes;
    /// unless `whole` (every queued item loaded), it then delivers nothing: an item held back
    /// may hide the next best, which a window did not read. A poll that waits looks itself.
    /// `history`: the deliveries already read for exactly these items; `keys`: the session's
    /// keys (`PacingShown.Keys`), when already read.
    func deliver(
        from items: inout SessionItems, now: Date, whole: Bool = false, history read: PacingHistory? = nil,
        profile given: SessionProfile? = nil, keys known: PacingShown.Keys? = nil, in db: Database
    ) throws -> QueueItem? {
        let holdUntil = try HoldRecord.until(session: items.session, in: db).map(Date.init(timeIntervalSince1970:))
        let profile = try given ?? profile(session: items.session, in: db)
        let effective = profile.over(policy.settings.profile)
        guard PacingRecord.paces(items.all) || !effective.isNone else { return policy.next(&items, holdUntil: holdUntil, now: now) }
        guard whole else { return nil }
        let keys = try known ?? PacingShown.keys(session: items.session, in: db)
        var history = try read ?? PacingShown.history(for: items.all, profile: effective, session: items.session, keys: keys, now: now, in: db)
        let delivered = policy.next(&items, holdUntil: holdUntil, pacing: &history, profile: profile, now: now)
        try PacingShown.keep(history.recorded, session: items.session, keys: keys, in: db)
        return delivered
    }

    /// The session's items in `scope` (none for nil), for a step.
    func load(session: String, scope: ItemRecord.Scope?, in db: Database) throws -> SessionItems {
        let loaded = try scope.map { try ItemRecord.fetch(db, session: session, scope: $0, contents: contents) } ?? []
        return SessionItems(session: session, items: loaded)
    }

    /// Writes a step's changes: updates first (they may free a dedupe key), then inserts; its
    /// events (`EventRecord`) are staged for the transaction's commit (`StagedEvents`), which
    /// inserts every write's at once; each item row written lists the ids of
    /// its new events, and the events are kept for the roll-up once committed (a campaign
    /// copy's also counted in its campaign's tallies). A step
    /// changes only the state, deliveries and lease of the items it loaded (see `SessionItems`),
    /// and the content, priority, lane and expiry of those it refreshed, whose kept content is
    /// forgotten now and again when the transaction ends (a load in between keeps the new one).
    func save(_ items: SessionItems, in db: Database) throws {
        let (updated, inserted, events) = (items.updated, items.inserted, items.events)
        // Ids first: each item row written lists its new events' ids (`EventRecord.idsInItems`).
        var ids: [Int64] = []
        ids.reserveCapacity(events.count)
        for _ in events { ids.append(try eventIDs.next(in: db)) }
        func listed(_ ticket: String) -> String {
            var text = ""
            for index in events.indices where events[index].ticket == ticket {
                text += ","
                text += String(ids[index])
            }
            return text
        }
        for item in updated {
            guard items.refreshed.contains(item.ticket) else {
                try ItemRecord.updateProgress(of: item, appending: listed(item.ticket), in: db)
                continue
            }
            try ItemRecord.updateRefreshed(item, appending: listed(item.ticket), in: db)
            let (contents, ticket) = (contents, item.ticket)
            contents.forget(key: ticket)
            batcher.transactionEnd.then { contents.forget(key: ticket) }
        }
        for item in inserted {
            try ItemRecord(item, contents: contents).insertRow(db, events: listed(item.ticket))
        }
        guard !events.isEmpty else { return }
        var written: [RecentOutcomes.Event] = []
        written.reserveCapacity(events.count)
        var appended: Set<String> = []
        for (event, id) in zip(events, ids) {
            batcher.transactionEnd.events.stage(event, id: id)
            // An event is of an item the step changed (the session's others, in a long one, are
            // many); one of an item it did not write is listed on its own.
            // (Its alert is read where the item lies: a copy of the item cost 600 instructions.)
            let (alert, campaign): (String?, String?)
            if let index = updated.firstIndex(where: { $0.ticket == event.ticket }) {
                (alert, campaign) = (Self.alert(of: updated[index].content), updated[index].campaign)
            } else if let index = inserted.firstIndex(where: { $0.ticket == event.ticket }) {
                (alert, campaign) = (Self.alert(of: inserted[index].content), inserted[index].campaign)
            } else {
                if appended.insert(event.ticket).inserted {
                    try ItemRecord.appendEvents(listed(event.ticket), ticket: event.ticket, in: db)
                }
                let item = items.item(ticket: event.ticket)
                (alert, campaign) = (item.flatMap { Self.alert(of: $0.content) }, item?.campaign)
            }
            let kept = RecentOutcomes.event(event, id: id, alert: alert)
            if let campaign { try CampaignTallies.countEvent(event.kind, action: kept.action, campaign: campaign, in: db) }
            written.append(kept)
        }
        batcher.transactionEnd.onCommit { [recentOutcomes, written] in recentOutcomes.kept(written) }
    }

    private static func alert(of content: QueueContent) -> String? {
        if case .alert(let id, _) = content { id } else { nil }
    }
}
