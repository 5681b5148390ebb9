import AlertQueue
import Foundation
import PostgresNIO

/// The `QueueStore` calls: each is one transaction on a connection of the pool (`perform`); a
/// step that may change its session goes through `write`, which hands the session to the
/// notifier once the step committed. Enqueues are gathered into batches (`EnqueueBatcher`,
/// `PostgresQueueStore+EnqueueBatch.swift`); the steps' statements are in
/// `PostgresQueueStore+Steps.swift` and `+Next.swift`.
extension PostgresQueueStore {
    public func enqueue(_ item: NewItem, now: Date) async throws -> EnqueueResult {
        try await enqueues.enqueue(item, now: now) { batch in await self.runEnqueueBatch(batch) }
    }

    public func next(session: String, now: Date) async throws -> QueueItem? {
        try await perform { connection in try await self.claimNext(session: session, now: now, on: connection) }
    }

    public func acknowledge(
        session: String, ticket: String, input: String?, now: Date, answer: @escaping @Sendable (QueueItem) throws -> AckAnswer
    ) async throws -> Acknowledgement {
        let (acknowledgement, changed) = try await perform { connection in
            try await self.acknowledge(session: session, ticket: ticket, input: input, now: now, answer: answer, on: connection)
        }
        // The sessions whose copies the ack took back changed too.
        if changed { notifier.gather(Set([session] + acknowledgement.takenBack.map(\.session))) }
        return acknowledgement
    }

    public func items(session: String, now: Date) async throws -> [QueueItem] {
        try await write(session: session) { connection in try await self.listing(session: session, now: now, on: connection) }
    }

    public func item(session: String, ticket: String) async throws -> QueueItem? {
        try await perform { connection in
            let rows = try await connection.query(
                """
                SELECT \(unescaped: ItemRow.columnsWithInput) FROM alertd.items WHERE ticket = \(ticket) AND session = \(session)
                """, logger: self.logger)
            return try await ItemRow.items(from: rows, contents: self.contents, withInput: true).first
        }
    }

    public func timeline(session: String, ticket: String) async throws -> [StoredEvent] {
        try await perform { connection in
            try await EventRow.timeline(session: session, ticket: ticket, on: connection, logger: self.logger)
        }
    }

    public func history(session: String, before: HistoryCursor?, limit: Int) async throws -> HistoryPage {
        try await perform { connection in
            let rows = try await connection.query(
                """
                SELECT \(unescaped: ItemRow.columnsWithInput) FROM alertd.items
                WHERE session = \(session) AND state NOT IN ('queued', 'presenting') AND sequence < \(before?.sequence ?? Int64.max)
                ORDER BY sequence DESC LIMIT \(limit + 1)
                """, logger: self.logger)
            var items = try await ItemRow.items(from: rows, contents: self.contents, withInput: true)
            let more = items.count > limit
            if more { items.removeLast() }
            return HistoryPage(items: items, next: more ? items.last.map { HistoryCursor(sequence: $0.sequence) } : nil)
        }
    }

    public func cancel(session: String, ticket: String?, by cause: CancelCause, now: Date) async throws -> Int {
        try await write(session: session) { connection in
            try await self.cancel(session: session, ticket: ticket, by: cause, now: now, on: connection)
        }
    }

    public func hold(session: String, until: Date?) async throws {
        try await write(session: session) { connection in
            try await self.hold(session: session, until: until, on: connection)
        }
    }

    public func holdUntil(session: String, now: Date) async throws -> Date? {
        try await perform { connection in
            let rows = try await connection.query(
                """
                SELECT hold_until, extract(epoch FROM now())::float8 FROM alertd.sessions WHERE session = \(session)
                """, logger: self.logger
            ).collect()
            guard let row = rows.first else { return nil }
            let (until, databaseNow) = try row.decode((Double?, Double).self)
            let deadline = until.map(Date.init(timeIntervalSince1970:))
            return QueuePolicy.isHolding(until: deadline, now: self.clock(caller: now, database: databaseNow)) ? deadline : nil
        }
    }

    /// The hold's end or the first scheduled item's time after now (`items_queued_scheduled`),
    /// at the store's clock, as `claim_next` compares them: one statement; and, when the session
    /// is marked `paced`, the earliest time a rule holding a queued item back lifts (`pacingLifts`).
    public func nextTimedChange(session: String, now: Date) async throws -> Date? {
        let caller: Double? = if case .caller = options.clock { now.timeIntervalSince1970 } else { nil }
        return try await perform { connection in
            let rows = try await connection.query(
                """
                WITH n AS (SELECT coalesce(\(caller)::float8, extract(epoch FROM now())::float8) AS at)
                SELECT least(
                    (SELECT s.hold_until FROM alertd.sessions AS s, n WHERE s.session = \(session) AND s.hold_until > n.at),
                    (SELECT min(i.not_before) FROM alertd.items AS i, n
                        WHERE i.state = 'queued' AND i.not_before IS NOT NULL AND i.session = \(session) AND i.not_before > n.at)),
                    coalesce((SELECT s.paced FROM alertd.sessions AS s WHERE s.session = \(session)), false),
                    (SELECT at FROM n)
                """, logger: self.logger
            ).collect()
            guard let row = rows.first else { return nil }
            let (timed, paced, at) = try row.decode((Double?, Bool, Double).self)
            let change = timed.map(Date.init(timeIntervalSince1970:))
            let profile = try await self.effectiveProfile(session: session, on: connection).over(self.policy.settings.profile)
            guard paced || !profile.isNone,
                let lifts = try await self.pacingLifts(session: session, profile: profile, now: Date(timeIntervalSince1970: at), on: connection)
            else {
                return change
            }
            return min(change ?? lifts, lifts)
        }
    }

    /// Every instance's live items (through `items_census_live`), at the store's clock (the
    /// database's, unless `options.clock` is the caller's, as in every call).
    public func census(now: Date) async throws -> QueueCensus {
        let caller: Double? = if case .caller = options.clock { now.timeIntervalSince1970 } else { nil }
        return try await perform { connection in
            let rows = try await connection.query(
                """
                SELECT lane,
                    CASE WHEN state = 'queued' AND expires_at <= coalesce(\(caller)::float8, extract(epoch FROM now())::float8)
                        THEN 'expired' ELSE state END AS counted,
                    count(*)
                FROM alertd.items WHERE state IN ('queued', 'presenting')
                GROUP BY lane, counted
                """, logger: self.logger
            ).collect()
            var census = QueueCensus()
            for row in rows {
                let (lane, state, count) = try row.decode((String, String, Int).self)
                census.add(lane: lane, state: state, count: count)
            }
            return census
        }
    }

    /// Whether the store can serve: PostgreSQL answers `SELECT 1` within
    /// `options.reachabilityTimeout`, and its schema is migrated and not newer than this version's
    /// (the first call migrates it).
    public func isReachable() async -> Bool {
        do {
            let answer = try await withDeadline(options.reachabilityTimeout) {
                try await self.ensureMigrated()
                return try await self.pool.query("SELECT 1").first?.decode(Int.self)
            }
            return answer == 1
        } catch {
            return false
        }
    }
}
