import AlertQueue
import Foundation
import PostgresNIO

extension PostgresQueueStore {
    /// Two statements, changing nothing: the items (live and dead through `items_session`,
    /// finished ones newest first through the same index), then the hold with the database's
    /// clock; a third, the history of their alerts, when queued items are paced. Read without locks: a write between them is seen by a later call.
    public func snapshot(session: String, now: Date, finished: Int) async throws -> SessionSnapshot {
        try await perform { connection in
            let listed = [ItemState.queued, .presenting, .dead].map(\.rawValue)
            let ended = [ItemState.done, .cancelled, .expired].map(\.rawValue)
            let rows = try await connection.query(
                """
                (SELECT \(unescaped: ItemRow.columnsWithInput) FROM alertd.items
                    WHERE session = \(session) AND state = ANY(\(listed)::text[]))
                UNION ALL
                (SELECT \(unescaped: ItemRow.columnsWithInput) FROM alertd.items
                    WHERE session = \(session) AND state = ANY(\(ended)::text[]) ORDER BY sequence DESC LIMIT \(finished))
                """, logger: self.logger)
            let all = try await ItemRow.items(from: rows, contents: self.contents, withInput: true)
            let hold = try await connection.query(
                """
                SELECT (SELECT hold_until FROM alertd.sessions WHERE session = \(session)),
                    extract(epoch FROM now())::float8
                """, logger: self.logger
            ).collect()
            let (until, databaseNow) = try hold.first?.decode((Double?, Double).self) ?? (nil, now.timeIntervalSince1970)
            let live = all.filter { $0.state.isLive || $0.state == .dead }.sorted { $0.sequence < $1.sequence }
            let now = self.clock(caller: now, database: databaseNow)
            let profile = try await self.effectiveProfile(session: session, on: connection)
            return SessionSnapshot(
                session: session, now: now, items: live, holdUntil: until.map(Date.init(timeIntervalSince1970:)),
                finished: all.filter { !$0.state.isLive && $0.state != .dead }.sorted { $0.sequence > $1.sequence },
                pacing: try await self.pacingHistory(
                    session: session, of: live, profile: profile.over(self.policy.settings.profile), now: now, on: connection),
                profile: profile)
        }
    }
}
