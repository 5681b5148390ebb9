import AlertQueue
import Foundation
import PostgresNIO

// Copies of one alert on several sessions in one transaction, the take-back of a group's other
// copies when one is answered, and the withdraws that leaves owed to devices.

extension PostgresQueueStore {
    /// `items.group_id` (a copy's group, `QueueItem.group`), its index of live copies only, the
    /// withdraws owed to devices (`alertd.withdrawals`, empty but for those moments) and
    /// `alertd.next_delivery`, which hands one out before it claims.
    static let groupsSchema: [PostgresQuery] = [
        "ALTER TABLE alertd.items ADD COLUMN group_id text",
        """
        CREATE INDEX items_group_live ON alertd.items (group_id)
        WHERE group_id IS NOT NULL AND state IN ('queued', 'presenting')
        """,
        """
        CREATE TABLE alertd.withdrawals (
            session text NOT NULL,
            ticket text NOT NULL,
            at double precision NOT NULL,
            PRIMARY KEY (session, ticket))
        """,
        nextDeliveryFunction,
    ]

    /// `alertd.next_delivery(...)`: `claim_next`'s arguments and `p_logged`. Takes the oldest
    /// withdraw owed to the session, if any, and returns it alone (the item columns NULL);
    /// else returns what `claim_next_logged` (or `claim_next`, unlogged) claims, the withdraw
    /// NULL. One statement either way.
    static let nextDeliveryFunction: PostgresQuery = """
        CREATE FUNCTION alertd.next_delivery(
            p_session text, p_now float8, p_lease_until float8, p_lease_duration float8, p_max_deliveries integer,
            p_logged boolean)
        RETURNS TABLE (
            o_ticket text, o_session text, o_content text, o_priority integer, o_lane text, o_dedupe_key text,
            o_state text, o_sequence bigint, o_enqueued_at float8, o_expires_at float8, o_deliveries integer,
            o_lease_until float8, o_at_head boolean, o_withdraw text)
        LANGUAGE plpgsql VOLATILE AS $$
        DECLARE
            v_withdraw text;
        BEGIN
            DELETE FROM alertd.withdrawals AS w
            WHERE w.session = p_session AND w.ticket = (
                SELECT x.ticket FROM alertd.withdrawals AS x WHERE x.session = p_session
                ORDER BY x.at, x.ticket LIMIT 1 FOR UPDATE SKIP LOCKED)
            RETURNING w.ticket INTO v_withdraw;
            IF v_withdraw IS NOT NULL THEN
                RETURN QUERY SELECT NULL::text, NULL::text, NULL::text, NULL::integer, NULL::text, NULL::text, NULL::text,
                    NULL::bigint, NULL::float8, NULL::float8, NULL::integer, NULL::float8, NULL::boolean, v_withdraw;
                RETURN;
            END IF;
            IF p_logged THEN
                RETURN QUERY SELECT c.*, NULL::text
                FROM alertd.claim_next_logged(p_session, p_now, p_lease_until, p_lease_duration, p_max_deliveries) AS c;
            ELSE
                RETURN QUERY SELECT c.*, NULL::text
                FROM alertd.claim_next(p_session, p_now, p_lease_until, p_lease_duration, p_max_deliveries) AS c;
            END IF;
        END
        $$
        """

    /// Each copy as `enqueue` queues it, in one transaction (`insertCopies`): a copy whose
    /// session's queue is full is refused alone, the others are queued.
    public func enqueue(copies: [NewItem], now: Date) async throws -> [Result<EnqueueResult, QueueError>] {
        let results = try await perform { connection in
            try await connection.transaction(logger: self.logger) { connection in
                try await self.insertCopies(copies, now: now, on: connection)
            }
        }
        notifier.gather(Set(zip(copies, results).compactMap { copy, result in (try? result.get())?.created == true ? copy.session : nil }))
        return results
    }

    /// What the session's device is owed first, a withdraw, else `next`'s delivery: one
    /// statement (`alertd.deliver_unpaced`), and the paced step after it for a session with
    /// queued paced items (`pacedNext`).
    public func nextDelivery(session: String, now: Date) async throws -> Delivery? {
        try await perform { connection in
            let (delivery, paced) = try await self.deliverUnpaced(session: session, now: now, withdraws: true, on: connection)
            guard paced else { return delivery }
            return try await self.pacedNext(session: session, now: now, on: connection).map(Delivery.item)
        }
    }

    public func isOwedWithdraw(session: String) async throws -> Bool {
        try await perform { connection in
            let rows = try await connection.query(
                "SELECT EXISTS (SELECT 1 FROM alertd.withdrawals WHERE session = \(session))", logger: self.logger
            ).collect()
            return try rows.first?.decode(Bool.self) ?? false
        }
    }

    /// Takes back the live copies of `group` but `answered`, in the ack's transaction: their
    /// sessions' windows locked in one round trip, in session order; queued copies cancelled,
    /// presenting ones withdrawn and owed to their devices.
    func takeBack(group: String, answered: String, now: Date, on connection: PostgresConnection) async throws -> [TakenBack] {
        let rows = try await connection.query(
            """
            SELECT session, ticket FROM alertd.items
            WHERE group_id = \(group) AND group_id IS NOT NULL AND state IN ('queued', 'presenting') AND ticket <> \(answered)
            ORDER BY session, ticket
            """, logger: logger
        ).collect()
        let copies = try rows.map { try $0.decode((String, String).self) }
        guard !copies.isEmpty else { return [] }
        let window = try await lockWindows(
            copies.map { WindowRequest(session: $0.0, ticket: $0.1) }, sequences: 0, now: now, on: connection)
        let now = clock(caller: now, database: window.databaseNow)
        var taken: [TakenBack] = []
        for session in Set(copies.map(\.0)).sorted() {
            let tickets = Set(copies.filter { $0.0 == session }.map(\.1))
            var items = window.sessionItems(session)
            let withdrawn = policy.withdraw(tickets: tickets, by: .answered, after: answered, in: &items, now: now)
            try await save(items, on: connection)
            taken += withdrawn
        }
        let owed = taken.filter(\.withdrawn)
        if !owed.isEmpty {
            try await connection.query(
                """
                INSERT INTO alertd.withdrawals (session, ticket, at)
                SELECT s, t, \(now.timeIntervalSince1970)::float8
                FROM unnest(\(BinaryArray(owed.map(\.session)))::text[], \(BinaryArray(owed.map(\.ticket)))::text[]) AS u(s, t)
                ON CONFLICT DO NOTHING
                """, logger: logger)
        }
        return taken
    }
}
