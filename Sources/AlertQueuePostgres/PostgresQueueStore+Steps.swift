import AlertQueue
import AlertSpec
import Foundation
import PostgresNIO

/// The writes other than `next`. Each is one transaction that first locks the session's row of
/// `alertd.sessions` (so writes of one session take turns, on every instance), then loads the
/// session's live items `FOR UPDATE`, lets `QueuePolicy` decide — exactly as the SQLite store
/// does — and writes back what changed, with a NOTIFY when something did.
extension PostgresQueueStore {
    /// What locking a session gives a step.
    struct SessionLock {
        /// The database's `now()`, seconds since 1970.
        var databaseNow: Double
        /// A fresh enqueue sequence, when asked for.
        var sequence: Int64?
    }

    /// Creates the session's row if needed and locks it until the transaction ends: a second
    /// writer of the session, on any instance, waits here until the first commits, then sees what
    /// it wrote. Marks the session changed for `changedSessions(since:)`.
    func lockSession(_ session: String, withSequence: Bool, on connection: PostgresConnection) async throws -> SessionLock {
        let sequence = withSequence ? "nextval('alertd.item_sequence')" : "NULL::bigint"
        let rows = try await connection.query(
            """
            INSERT INTO alertd.sessions AS s (session) VALUES (\(session))
            ON CONFLICT (session) DO UPDATE SET changed_by = pg_current_xact_id()
            RETURNING extract(epoch FROM now())::float8, \(unescaped: sequence)
            """, logger: logger
        ).collect()
        guard let row = rows.first else { throw PostgresStoreError.unreadableRow("locking a session returned no row") }
        let (databaseNow, next) = try row.decode((Double, Int64?).self)
        return SessionLock(databaseNow: databaseNow, sequence: next)
    }

    /// The session's items in `states`, and `ticket` whatever its state, locked for the transaction.
    func loadLocked(
        session: String, states: [ItemState], ticket: String? = nil, on connection: PostgresConnection
    ) async throws -> SessionItems {
        let rows = try await connection.query(
            """
            SELECT \(unescaped: ItemRow.columns) FROM alertd.items
            WHERE session = \(session) AND (state = ANY(\(states.map(\.rawValue))::text[]) OR ticket = \(ticket))
            ORDER BY sequence FOR UPDATE
            """, logger: logger)
        return SessionItems(session: session, items: try await ItemRow.items(from: rows))
    }

    /// Writes a step's changes: updates first (they may free a dedupe key), then inserts; then
    /// NOTIFYs the session's change, delivered by PostgreSQL when the transaction commits.
    func save(_ items: SessionItems, on connection: PostgresConnection) async throws {
        guard items.hasChanges else { return }
        for item in items.updated {
            try await connection.query(ItemRow.updateProgress(of: item), logger: logger)
        }
        for item in items.inserted {
            try await connection.query(try ItemRow.insert(item), logger: logger)
        }
        try await notify(session: items.session, on: connection)
    }

    /// Tells every listener that `session` changed, once the transaction commits.
    func notify(session: String, on connection: PostgresConnection) async throws {
        try await connection.query("SELECT pg_notify(\(options.channel), \(session))", logger: logger)
    }

    // MARK: - Steps

    /// One enqueue. The policy finds a duplicate among the live items loaded. Should the insert
    /// still break the unique index on live dedupe keys (a writer the load did not see), the
    /// step is rolled back to its savepoint and answered with the item that holds the key, as a
    /// duplicate. `seeingLiveItems: false` loads nothing, which is how tests take that path.
    func enqueue(
        _ new: NewItem, now: Date, seeingLiveItems: Bool = true, on connection: PostgresConnection
    ) async throws -> EnqueueResult {
        try await connection.transaction(logger: logger) { connection in
            let lock = try await lockSession(new.session, withSequence: true, on: connection)
            let now = clock(caller: now, database: lock.databaseNow)
            guard let sequence = lock.sequence else { throw PostgresStoreError.unreadableRow("no enqueue sequence") }
            let candidate = policy.makeItem(new, ticket: QueueTicket.random(), sequence: sequence, now: now)
            var items =
                seeingLiveItems
                ? try await loadLocked(session: new.session, states: [.queued, .presenting], on: connection)
                : SessionItems(session: new.session, items: [])
            let result = try policy.enqueue(candidate, into: &items, now: now)
            guard result.created else {
                try await save(items, on: connection)
                return result
            }
            do {
                try await connection.savepoint("enqueue", logger: logger) { connection in
                    try await save(items, on: connection)
                }
                return result
            } catch let error as PSQLError where error.isUniqueViolation && error.constraint == "items_live_dedupe" {
                var items = try await loadLocked(session: new.session, states: [.queued, .presenting], on: connection)
                let result = try policy.enqueue(candidate, into: &items, now: now)
                guard !result.created else { throw error }
                try await save(items, on: connection)
                return result
            }
        }
    }

    func ack(
        session: String, ticket: String, chain: NewItem?, now: Date, on connection: PostgresConnection
    ) async throws -> QueueItem {
        try await connection.transaction(logger: logger) { connection in
            let lock = try await lockSession(session, withSequence: chain != nil, on: connection)
            let now = clock(caller: now, database: lock.databaseNow)
            var items = try await loadLocked(session: session, states: [.queued, .presenting], ticket: ticket, on: connection)
            let chained = chain.map { chain in
                policy.makeItem(chain, ticket: QueueTicket.random(), sequence: lock.sequence ?? 0, now: now)
            }
            let acknowledged = try policy.ack(ticket: ticket, chain: chained, in: &items, now: now)
            try await save(items, on: connection)
            return acknowledged
        }
    }

    func cancel(session: String, ticket: String?, now: Date, on connection: PostgresConnection) async throws -> Int {
        try await connection.transaction(logger: logger) { connection in
            let lock = try await lockSession(session, withSequence: false, on: connection)
            let now = clock(caller: now, database: lock.databaseNow)
            var items = try await loadLocked(session: session, states: [.queued, .presenting], ticket: ticket, on: connection)
            let cancelled = try policy.cancel(ticket: ticket, in: &items, now: now)
            try await save(items, on: connection)
            return cancelled
        }
    }

    /// The listing. Read without locks first; only when time has ended leases or TTLs (the policy
    /// changed something) is it done again as a locked write, so those changes are kept, as the
    /// SQLite store keeps them.
    func listing(session: String, now: Date, on connection: PostgresConnection) async throws -> [QueueItem] {
        let listed: [ItemState] = [.queued, .presenting, .dead]
        let rows = try await connection.query(
            """
            SELECT \(unescaped: ItemRow.columns), extract(epoch FROM now())::float8 FROM alertd.items
            WHERE session = \(session) AND state = ANY(\(listed.map(\.rawValue))::text[]) ORDER BY sequence
            """, logger: logger
        ).collect()
        var databaseNow = Date().timeIntervalSince1970
        if let row = rows.first { databaseNow = try row.makeRandomAccess()[13].decode(Double.self) }
        var items = SessionItems(session: session, items: try rows.map(ItemRow.item(from:)))
        let listing = policy.listing(&items, now: clock(caller: now, database: databaseNow))
        guard items.hasChanges else { return listing }
        return try await connection.transaction(logger: logger) { connection in
            let lock = try await lockSession(session, withSequence: false, on: connection)
            var items = try await loadLocked(session: session, states: listed, on: connection)
            let listing = policy.listing(&items, now: clock(caller: now, database: lock.databaseNow))
            try await save(items, on: connection)
            return listing
        }
    }

    func hold(session: String, until: Date?, on connection: PostgresConnection) async throws {
        try await connection.transaction(logger: logger) { connection in
            try await connection.query(
                """
                INSERT INTO alertd.sessions (session, hold_until) VALUES (\(session), \(until?.timeIntervalSince1970)::float8)
                ON CONFLICT (session) DO UPDATE SET hold_until = EXCLUDED.hold_until, changed_by = pg_current_xact_id()
                """, logger: logger)
            try await notify(session: session, on: connection)
        }
    }

    /// An enqueue that does not see the live items, as a writer racing this one would not: only
    /// the unique index can find the duplicate. For tests of that path.
    func enqueueUnseen(_ new: NewItem, now: Date) async throws -> EnqueueResult {
        try await perform { connection in
            try await self.enqueue(new, now: now, seeingLiveItems: false, on: connection)
        }
    }
}
