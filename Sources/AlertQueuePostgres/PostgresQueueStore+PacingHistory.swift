import AlertQueue
import AlertSpec
import Foundation
import PostgresNIO

// The deliveries pacing rules count on PostgreSQL (`alertd.pacing_shown`): read as the rules
// ask (`PacingHistory.Demand`), kept by each paced step.
extension PostgresQueueStore {
    /// What the rules of `items`' queued paced items, and `profile`'s (the effective one), ask
    /// of the deliveries at `now`, under the session's key (`s:<session>`) and its user's
    /// (`u:<user>`; the session's own for a session without a user): each key's last delivery
    /// and each window's count in one statement, counted in the index; the times of the ranks a
    /// limit needs in a second, only once a window holds that many. Nothing read when nothing
    /// is paced.
    func pacingHistory(
        session: String, of items: [QueueItem], profile: SessionProfile = .none, now: Date, on connection: PostgresConnection
    ) async throws -> PacingHistory {
        let demand = PacingHistory.Demand(items: items, profile: profile, now: now)
        var history = PacingHistory()
        guard !demand.isEmpty else { return history }
        let users = try await connection.query(
            "SELECT user_id FROM alertd.sessions_known WHERE session = \(session)", logger: logger
        ).collect()
        let user = try users.first?.decode(String?.self) ?? nil
        let scopes = demand.keys.map { $0.key.scope == .user ? user.map { "u:\($0)" } ?? "s:\(session)" : "s:\(session)" }
        let alerts = demand.keys.map(\.key.alert)
        var windows: [(key: Int, window: PacingHistory.Window)] = []
        for (index, entry) in demand.keys.enumerated() { windows += entry.needs.windows.map { (index, $0) } }
        let rows = try await connection.query(
            """
            SELECT 0::int8, k.i, (SELECT max(p.at) FROM alertd.pacing_shown AS p WHERE p.scope = k.scope AND p.alert = k.alert), 0::int8
            FROM unnest(\(BinaryArray(scopes))::text[], \(BinaryArray(alerts))::text[]) WITH ORDINALITY AS k(scope, alert, i)
            UNION ALL
            SELECT 1::int8, w.i, NULL::float8, (SELECT count(*) FROM alertd.pacing_shown AS p
                WHERE p.scope = w.scope AND p.alert = w.alert AND (p.at > w.start OR (w.inclusive AND p.at = w.start)))
            FROM unnest(\(BinaryArray(windows.map { scopes[$0.key] }))::text[], \(BinaryArray(windows.map { alerts[$0.key] }))::text[],
                \(BinaryArray(windows.map(\.window.start.timeIntervalSince1970)))::float8[],
                \(BinaryArray(windows.map(\.window.inclusive)))::bool[]) WITH ORDINALITY AS w(scope, alert, start, inclusive, i)
            """, logger: logger
        ).collect()
        var reads = demand.keys.map { _ in PacingHistory.Read() }
        for row in rows {
            let (kind, ordinal, last, count) = try row.decode((Int64, Int64, Double?, Int64).self)
            let index = Int(ordinal) - 1
            if kind == 0, let last {
                reads[index].ever = true
                reads[index].set(Date(timeIntervalSince1970: last), ofRank: 1)
            } else if kind == 1 {
                reads[windows[index].key].set(Int(count), in: windows[index].window)
            }
        }
        // The ranks past the last that a window holds: each found by stepping back as many rows.
        let ranks = demand.keys.enumerated().flatMap { index, entry in
            entry.needs.ranks.filter { $0 > 1 && $0 <= reads[index].most }.map { (key: index, rank: $0) }
        }
        if !ranks.isEmpty {
            let rows = try await connection.query(
                """
                SELECT r.i, (SELECT p.at FROM alertd.pacing_shown AS p WHERE p.scope = r.scope AND p.alert = r.alert
                    ORDER BY p.at DESC OFFSET r.rank - 1 LIMIT 1)
                FROM unnest(\(BinaryArray(ranks.map { scopes[$0.key] }))::text[], \(BinaryArray(ranks.map { alerts[$0.key] }))::text[],
                    \(BinaryArray(ranks.map { Int64($0.rank) }))::int8[]) WITH ORDINALITY AS r(scope, alert, rank, i)
                """, logger: logger
            ).collect()
            for row in rows {
                let (ordinal, at) = try row.decode((Int64, Double?).self)
                let wanted = ranks[Int(ordinal) - 1]
                if let at { reads[wanted.key].set(Date(timeIntervalSince1970: at), ofRank: wanted.rank) }
            }
        }
        for (index, entry) in demand.keys.enumerated() {
            history.add(alert: entry.key.alert, scope: entry.key.scope, read: reads[index])
        }
        return history
    }

    /// Keeps a step's paced deliveries: each under `s:<session>` and, when the session has a
    /// user, `u:<user>`; never timed before the last one kept under its key.
    func keepShown(_ shown: [(alert: String, at: Date)], session: String, on connection: PostgresConnection) async throws {
        guard !shown.isEmpty else { return }
        try await connection.query(
            """
            INSERT INTO alertd.pacing_shown (scope, alert, at)
            SELECT k.key, r.alert, greatest(r.at,
                coalesce((SELECT max(p.at) FROM alertd.pacing_shown AS p WHERE p.scope = k.key AND p.alert = r.alert), r.at))
            FROM unnest(\(BinaryArray(shown.map(\.alert)))::text[], \(BinaryArray(shown.map(\.at.timeIntervalSince1970)))::float8[])
                AS r(alert, at)
            CROSS JOIN (
                SELECT 's:' || \(session)
                UNION ALL
                SELECT 'u:' || user_id FROM alertd.sessions_known WHERE session = \(session) AND user_id IS NOT NULL) AS k(key)
            """, logger: logger)
    }
}
