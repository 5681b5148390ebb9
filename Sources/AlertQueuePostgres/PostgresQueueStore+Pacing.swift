import AlertQueue
import AlertSpec
import Foundation
import PostgresNIO

/// Pacing on PostgreSQL. `next` of a session with queued paced items is a step in Swift, like
/// an ack's: `alertd.deliver_unpaced` claims for every other session in one statement and only
/// signals these (`o_paced`, from `sessions.paced`); then `pacedNext` locks the session, loads
/// all its live items and the deliveries their rules count (`alertd.pacing_shown`), runs
/// `QueuePolicy.next` and writes the step and its paced deliveries back, in one transaction.
extension PostgresQueueStore {
    /// `alertd.deliver_unpaced`: the withdraw owed to the session (when `withdraws`) or the item
    /// claimed, and whether the session has queued paced items, which it left alone.
    func deliverUnpaced(
        session: String, now callerNow: Date, withdraws: Bool, on connection: PostgresConnection
    ) async throws -> (delivery: Delivery?, paced: Bool) {
        let settings = policy.settings
        let (now, leaseUntil) = claimTimes(callerNow)
        let rows = try await connection.query(
            """
            SELECT * FROM alertd.deliver_unpaced(\(session), \(now)::float8, \(leaseUntil)::float8, \
            \(settings.leaseDuration)::float8, \(settings.maxDeliveries)::integer, \(settings.recordsEvents), \(withdraws), \
            \(!settings.profile.isNone))
            """, logger: logger
        ).collect()
        guard let row = rows.first else { return (nil, false) }
        let columns = row.makeRandomAccess()
        if try columns[14].decode(Bool.self) { return (nil, true) }
        if let ticket = try columns[13].decode(String?.self) { return (.withdraw(ticket: ticket), false) }
        return (.item(try ItemRow.item(from: row, contents: contents)), false)
    }

    /// `next` of a session with queued paced items: its row locked (with its hold), all its live
    /// items loaded `FOR UPDATE` with their schedules and rules, the history of their alerts, the
    /// policy's step, then the items, events and recorded deliveries written; the session's
    /// `paced` mark cleared once no queued item is paced. All at the step's `now` (the database's
    /// with `clock: .database`).
    func pacedNext(session: String, now callerNow: Date, on connection: PostgresConnection) async throws -> QueueItem? {
        try await connection.transaction(logger: logger) { connection in
            let lock = try await connection.query(
                """
                SELECT hold_until, extract(epoch FROM now())::float8 FROM alertd.sessions WHERE session = \(session) FOR UPDATE
                """, logger: logger
            ).collect()
            guard let row = lock.first else { return nil }
            let (hold, databaseNow) = try row.decode((Double?, Double).self)
            let now = clock(caller: callerNow, database: databaseNow)
            let rows = try await connection.query(
                """
                SELECT \(unescaped: ItemRow.columnsWithSchedule) FROM alertd.items
                WHERE session = \(session) AND state IN ('queued', 'presenting') ORDER BY sequence FOR UPDATE
                """, logger: logger
            ).collect()
            var items = SessionItems(
                session: session, items: try rows.map { try ItemRow.item(from: $0, contents: contents, withSchedule: true) })
            let profile = try await effectiveProfile(session: session, on: connection)
            var history = try await pacingHistory(
                session: session, of: items.all, profile: profile.over(policy.settings.profile), now: now, on: connection)
            let delivered = policy.next(
                &items, holdUntil: hold.map(Date.init(timeIntervalSince1970:)), pacing: &history, profile: profile, now: now)
            try await save(items, on: connection)
            try await keepShown(history.recorded, session: session, on: connection)
            if !items.all.contains(where: { $0.state == .queued && !$0.pacing.isNone }) {
                try await connection.query("UPDATE alertd.sessions SET paced = false WHERE session = \(session)", logger: logger)
            }
            return delivered
        }
    }

    /// The earliest time after `now` that a rule holding back one of the session's queued paced
    /// items (`defer`) lifts; nil when none does (or none is paced). Two reads: the items, then
    /// their history.
    /// With a session-wide `profile` (the effective one), also when the rules holding the
    /// session's queued modals and toasts below the bypass priority lift.
    func pacingLifts(session: String, profile: SessionProfile = .none, now: Date, on connection: PostgresConnection) async throws -> Date? {
        let rows = try await connection.query(
            """
            SELECT \(unescaped: ItemRow.columnsWithSchedule) FROM alertd.items
            WHERE session = \(session) AND state = 'queued' AND pacing IS NOT NULL
            """, logger: logger
        ).collect()
        let items = try rows.map { try ItemRow.item(from: $0, contents: contents, withSchedule: true) }
        let history = try await pacingHistory(session: session, of: items, profile: profile, now: now, on: connection)
        var lifts = items.filter { $0.pacing.whenCapped == .defer }.compactMap { item -> Date? in
            guard case .capped(_, let until?) = item.pacing.verdict(alert: item.pacedAlert, history: history, now: now) else {
                return nil
            }
            return until > now ? until : nil
        }
        if !profile.isNone {
            let lanes = try await connection.query(
                """
                SELECT DISTINCT lane FROM alertd.items
                WHERE session = \(session) AND state = 'queued' AND lane <> 'hud' AND priority < \(policy.settings.bypassPriority)
                """, logger: logger
            ).collect()
            for row in lanes {
                if let lane = Lane(rawValue: try row.decode(String.self)), let hold = profile.hold(lane: lane, history: history, now: now) {
                    lifts.append(hold.until)
                }
            }
        }
        return lifts.min()
    }

    /// Paced deliveries older than `cutoff`, but the newest of each alert and scope.
    public func purgePacing(before cutoff: Date) async throws -> Int {
        try await perform { connection in
            let rows = try await connection.query(
                """
                WITH gone AS (
                    DELETE FROM alertd.pacing_shown AS p
                    WHERE p.at < \(cutoff.timeIntervalSince1970)::float8 AND EXISTS (
                        SELECT 1 FROM alertd.pacing_shown AS q WHERE q.scope = p.scope AND q.alert = p.alert AND q.at > p.at)
                    RETURNING 1)
                SELECT count(*)::integer FROM gone
                """, logger: self.logger
            ).collect()
            return try rows.first?.decode(Int.self) ?? 0
        }
    }
}

