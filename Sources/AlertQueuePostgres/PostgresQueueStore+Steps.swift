import AlertQueue
import AlertSpec
import Foundation
import PostgresNIO

/// The writes other than `next`. Each is one transaction that first locks the session's row of
/// `alertd.sessions` (so writes of one session take turns, on every instance) and loads the
/// window of the session's items the step can touch `FOR UPDATE` (one round trip,
/// `lockWindows`; the listing and the cancel of everything load every live item), lets
/// `QueuePolicy` decide — exactly as the SQLite store does — and writes back what changed; it
/// tells its caller whether something did, for the NOTIFY sent after the commit.
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

    /// `lockSession`, then the session's items in `states` and `ticket` (whatever its state),
    /// locked for the transaction: one round trip (`alertd.lock_session`, see `lockSessionFunction`).
    func lockAndLoad(
        session: String, withSequence: Bool, states: [ItemState], ticket: String? = nil,
        on connection: PostgresConnection
    ) async throws -> (SessionLock, SessionItems) {
        let rows = try await connection.query(
            """
            SELECT * FROM alertd.lock_session(\(session), \(withSequence), \(states.map(\.rawValue))::text[], \(ticket))
            """, logger: logger
        ).collect()
        guard let first = rows.first else { throw PostgresStoreError.unreadableRow("locking a session returned no row") }
        let columns = first.makeRandomAccess()
        let lock = SessionLock(databaseNow: try columns[13].decode(Double.self), sequence: try columns[14].decode(Int64?.self))
        let items = try rows.filter { $0.makeRandomAccess()[0].bytes != nil }.map { try ItemRow.item(from: $0, contents: contents) }
        return (lock, SessionItems(session: session, items: items))
    }

    /// Writes a step's changes: updates first (they may free a dedupe key), then inserts. Returns
    /// whether there were any, which the caller NOTIFYs once committed (see `write(session:_:)`).
    @discardableResult
    func save(_ items: SessionItems, on connection: PostgresConnection) async throws -> Bool {
        _ = try await save(items, on: connection, returningGroupOf: nil)
        return items.hasChanges
    }

    /// `save`, returning the group of the item `ticket` (when the step updated it and it has one)
    /// from its update.
    func save(_ items: SessionItems, on connection: PostgresConnection, returningGroupOf ticket: String?) async throws -> String? {
        var group: String?
        for item in items.updated {
            var update = try ItemRow.update(item, in: items)
            guard item.ticket == ticket else {
                try await connection.query(update, logger: logger)
                continue
            }
            update.sql += " RETURNING group_id"
            group = try await connection.query(update, logger: logger).collect().first?.decode(String?.self)
        }
        for item in items.inserted {
            try await connection.query(try ItemRow.insert(item, contents: contents), logger: logger)
        }
        if let events = EventRow.insert(items.events) { try await connection.query(events, logger: logger) }
        return group
    }

    // MARK: - Steps

    /// One enqueue: `BEGIN`, `lockWindows` (the window the enqueue can touch, and the counts
    /// that place it), the insert, `COMMIT` (and the NOTIFY after it). The policy finds a
    /// duplicate in the window, which holds the live item with the key. Should the insert still
    /// meet a live item with its dedupe key (a writer the read did not see), the step writes
    /// nothing and is answered with the item that holds the key, as a duplicate: a lone insert
    /// asks the unique index with `ON CONFLICT DO NOTHING`; a step that also updates runs in a
    /// savepoint, rolled back on the unique violation. `seeingLiveItems: false` reads nothing,
    /// which is how tests take that path.
    func enqueue(
        _ new: NewItem, now: Date, seeingLiveItems: Bool = true, on connection: PostgresConnection
    ) async throws -> (EnqueueResult, changed: Bool) {
        try await connection.transaction(logger: logger) { connection in
            try await enqueueStep(new, now: now, seeingLiveItems: seeingLiveItems, on: connection)
        }
    }

    /// `enqueue`'s step, inside a transaction the caller opened.
    func enqueueStep(
        _ new: NewItem, now: Date, seeingLiveItems: Bool = true, on connection: PostgresConnection
    ) async throws -> (EnqueueResult, changed: Bool) {
        let request = seeingLiveItems ? WindowRequest.enqueue(new) : WindowRequest(session: new.session)
        let window = try await lockWindows([request], sequences: 1, now: now, on: connection)
        let now = clock(caller: now, database: window.databaseNow)
        let candidate = policy.makeItem(new, ticket: QueueTicket.make(at: now), sequence: window.sequences[0], now: now)
        var items =
            seeingLiveItems
            ? window.sessionItems(new.session, positioned: [(candidate, 0)]) : SessionItems(session: new.session, items: [])
        var result = try policy.enqueue(candidate, into: &items, now: now, onDuplicate: new.onDuplicate, origin: new.origin)
        guard result.created else {
            let changed = try await save(items, on: connection)
            if result.refreshed { result.position = try await place(ofQueued: result.item, on: connection) }
            return (result, changed)
        }
        if items.updated.isEmpty, items.inserted == [candidate] {
            if try await insertUnlessLiveDuplicate(candidate, on: connection) {
                if let events = EventRow.insert(items.events) { try await connection.query(events, logger: logger) }
                return (result, true)
            }
        } else {
            do {
                _ = try await connection.savepoint("enqueue", logger: logger) { connection in
                    try await save(items, on: connection)
                }
                return (result, true)
            } catch let error as PSQLError where error.isUniqueViolation && error.constraint == "items_live_dedupe" {}
        }
        let again = try await lockWindows([WindowRequest.enqueue(new)], sequences: 0, now: now, on: connection)
        var reloaded = again.sessionItems(new.session, positioned: [(candidate, 0)])
        var duplicate = try policy.enqueue(candidate, into: &reloaded, now: now, onDuplicate: new.onDuplicate, origin: new.origin)
        guard !duplicate.created else { throw PostgresStoreError.unreadableRow("a live dedupe key held by no live item") }
        let changed = try await save(reloaded, on: connection)
        if duplicate.refreshed { duplicate.position = try await place(ofQueued: duplicate.item, on: connection) }
        return (duplicate, changed)
    }

    /// Inserts `item` unless a live item of its session has its dedupe key; whether it did.
    private func insertUnlessLiveDuplicate(_ item: QueueItem, on connection: PostgresConnection) async throws -> Bool {
        var insert = try ItemRow.insert(item, contents: contents)
        insert.sql += """

            ON CONFLICT (session, dedupe_key) WHERE state IN ('queued', 'presenting') DO NOTHING RETURNING ticket
            """
        return try await connection.query(insert, logger: logger).collect().count == 1
    }

    /// An ack: the window holds the ticket; when `chain` answers with an item, a second read
    /// adds the live item with its key and the queued HUDs it would replace, and takes its sequence.
    func acknowledge(
        session: String, ticket: String, input: String?, now: Date, answer: @Sendable (QueueItem) throws -> AckAnswer,
        on connection: PostgresConnection
    ) async throws -> (Acknowledgement, changed: Bool) {
        try await connection.transaction(logger: logger) { connection in
            let window = try await lockWindows(
                [WindowRequest(session: session, ticket: ticket)], sequences: 0, now: now, on: connection)
            let now = clock(caller: now, database: window.databaseNow)
            var items = window.sessionItems(session)
            var chained: QueueItem?
            let acknowledged = try policy.acknowledged(ticket: ticket, in: items)
            let answered: AckAnswer
            do { answered = try answer(acknowledged) } catch { throw CallerError(error: error) }
            if let new = answered.chain {
                let more = try await lockWindows(
                    [WindowRequest(session: session, dedupeKey: new.dedupeKey, huds: new.lane == .hud)], sequences: 1,
                    now: now, on: connection)
                chained = policy.makeItem(new, ticket: QueueTicket.make(at: now), sequence: more.sequences[0], now: now)
                items = SessionItems(session: session, items: window.adding(more))
            }
            var acknowledgement = try policy.acknowledge(
                ticket: ticket, chain: chained, input: input, action: answered.action, role: answered.role, in: &items, now: now)
            // The window functions return no group: the ack's own update does, and the first
            // answer of a group takes its other copies back.
            let group = try await save(items, on: connection, returningGroupOf: acknowledged.state.isLive ? ticket : nil)
            if let group {
                acknowledgement.takenBack = try await takeBack(group: group, answered: ticket, now: now, on: connection)
            }
            return (acknowledgement, items.hasChanges)
        }
    }

    /// A cancel: of one ticket, its window; of every live item, all of them.
    func cancel(
        session: String, ticket: String?, by cause: CancelCause, now: Date, on connection: PostgresConnection
    ) async throws -> (Int, changed: Bool) {
        try await connection.transaction(logger: logger) { connection in
            var items: SessionItems
            let databaseNow: Double
            if let ticket {
                let window = try await lockWindows(
                    [WindowRequest(session: session, ticket: ticket)], sequences: 0, now: now, on: connection)
                (databaseNow, items) = (window.databaseNow, window.sessionItems(session))
            } else {
                let (lock, loaded) = try await lockAndLoad(
                    session: session, withSequence: false, states: [.queued, .presenting], on: connection)
                (databaseNow, items) = (lock.databaseNow, loaded)
            }
            let cancelled = try policy.cancel(ticket: ticket, by: cause, in: &items, now: clock(caller: now, database: databaseNow))
            return (cancelled, try await save(items, on: connection))
        }
    }

    /// The listing. Read without locks first; only when time has ended leases or TTLs (the policy
    /// changed something) is it done again as a locked write, so those changes are kept, as the
    /// SQLite store keeps them.
    func listing(
        session: String, now: Date, on connection: PostgresConnection
    ) async throws -> ([QueueItem], changed: Bool) {
        let listed: [ItemState] = [.queued, .presenting, .dead]
        let rows = try await connection.query(
            """
            SELECT \(unescaped: ItemRow.columnsWithSchedule), extract(epoch FROM now())::float8 FROM alertd.items
            WHERE session = \(session) AND state = ANY(\(listed.map(\.rawValue))::text[]) ORDER BY sequence
            """, logger: logger
        ).collect()
        var databaseNow = now.timeIntervalSince1970  // no row: nothing to time
        if let row = rows.first { databaseNow = try row.makeRandomAccess()[17].decode(Double.self) }
        let read = try rows.map { try ItemRow.item(from: $0, contents: contents, withSchedule: true) }
        var items = SessionItems(session: session, items: read)
        let listing = policy.listing(&items, now: clock(caller: now, database: databaseNow))
        guard items.hasChanges else { return (listing, false) }
        // `lock_session` returns no schedule, group, campaign or rule: they are taken from the
        // read above (a listing changes none of them).
        let schedules = Dictionary(uniqueKeysWithValues: read.compactMap { item in item.notBefore.map { (item.ticket, $0) } })
        let groups = Dictionary(uniqueKeysWithValues: read.compactMap { item in item.group.map { (item.ticket, $0) } })
        let campaigns = Dictionary(uniqueKeysWithValues: read.compactMap { item in item.campaign.map { (item.ticket, $0) } })
        let rules = Dictionary(uniqueKeysWithValues: read.map { ($0.ticket, $0.pacing) })
        return try await connection.transaction(logger: logger) { connection in
            let (lock, loaded) = try await lockAndLoad(
                session: session, withSequence: false, states: listed, on: connection)
            var items = loaded
            var listing = policy.listing(&items, now: clock(caller: now, database: lock.databaseNow))
            for index in listing.indices {
                listing[index].notBefore = schedules[listing[index].ticket]
                listing[index].group = groups[listing[index].ticket]
                listing[index].campaign = campaigns[listing[index].ticket]
                listing[index].pacing = rules[listing[index].ticket] ?? .none
            }
            return (listing, try await save(items, on: connection))
        }
    }

    /// Sets or releases the hold: one autocommit statement, which also stamps the session.
    func hold(session: String, until: Date?, on connection: PostgresConnection) async throws -> ((), changed: Bool) {
        try await connection.query(
            """
            INSERT INTO alertd.sessions (session, hold_until) VALUES (\(session), \(until?.timeIntervalSince1970)::float8)
            ON CONFLICT (session) DO UPDATE SET hold_until = EXCLUDED.hold_until, changed_by = pg_current_xact_id()
            """, logger: logger)
        return ((), true)
    }

    /// An enqueue that does not see the live items, as a writer racing this one would not: only
    /// the unique index can find the duplicate. For tests of that path.
    func enqueueUnseen(_ new: NewItem, now: Date) async throws -> EnqueueResult {
        try await perform { connection in
            try await self.enqueue(new, now: now, seeingLiveItems: false, on: connection).0
        }
    }
}
