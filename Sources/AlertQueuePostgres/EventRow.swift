import AlertQueue
import Foundation
import PostgresNIO

/// `alertd.events`: one row per `ItemEvent`, written in the transaction of its change.
enum EventRow {
    /// Inserts `events` in one statement (nothing for none).
    static func insert(_ events: [ItemEvent]) -> PostgresQuery? {
        guard !events.isEmpty else { return nil }
        func column<Element>(_ value: (ItemEvent) -> Element) -> BinaryArray<Element> { BinaryArray(events.map(value)) }
        return """
            INSERT INTO alertd.events (session, ticket, type, at, detail)
            SELECT e.session, e.ticket, e.type, e.at, e.detail::jsonb
            FROM unnest(\(column(\.session))::text[], \(column(\.ticket))::text[], \(column(\.kind.rawValue))::text[], \
            \(column(\.at.timeIntervalSince1970))::float8[], \(column { $0.detail.isEmpty ? "{}" : $0.detailJSON })::text[])
                WITH ORDINALITY AS e(session, ticket, type, at, detail, ord)
            ORDER BY e.ord
            """
    }

    /// The events of one item, oldest first; a type this version does not know is left out.
    static func timeline(session: String, ticket: String, on connection: PostgresConnection, logger: Logger) async throws -> [StoredEvent] {
        let rows = try await connection.query(
            """
            SELECT id, type, at, detail::text FROM alertd.events WHERE session = \(session) AND ticket = \(ticket) ORDER BY id
            """, logger: logger
        ).collect()
        return try rows.compactMap { row in
            let (id, type, at, detail) = try row.decode((Int64, String, Double, String).self)
            guard let kind = ItemEvent.Kind(rawValue: type) else { return nil }
            let event = ItemEvent(
                kind: kind, session: session, ticket: ticket, at: Date(timeIntervalSince1970: at),
                detail: ItemEvent.detail(fromJSON: detail))
            return StoredEvent(id: id, event: event)
        }
    }
}

extension PostgresQueueStore {
    /// The events table and the history's index. `id` is an identity column: unique and
    /// increasing in the order ids are drawn, which on PostgreSQL is not quite commit order (a
    /// transaction that drew a smaller id can commit after one that drew a larger).
    static let eventsSchema: [PostgresQuery] = [
        """
        CREATE TABLE alertd.events (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            session text NOT NULL,
            ticket text NOT NULL,
            type text NOT NULL,
            -- Seconds since 1970: the step's time (the caller's clock, or the database's).
            at double precision NOT NULL,
            detail jsonb NOT NULL DEFAULT '{}'
        )
        """,
        "CREATE INDEX events_item ON alertd.events (session, ticket, id)",
        """
        CREATE INDEX items_session_finished ON alertd.items (session, sequence DESC)
        WHERE state NOT IN ('queued', 'presenting')
        """,
        claimNextLoggedFunction,
        enqueueCountedLoggedFunction,
    ]

    /// `alertd.claim_next_logged`: `alertd.claim_next` (same arguments and columns) with its
    /// events. It locks the session first, records what `claim_next` is about to end (leases:
    /// `requeued` or `dead`, then `expired` for those past their TTL too; queued items past their
    /// TTL: `expired`), claims, and records the delivery. An instance of the version before calls
    /// `claim_next` itself and records none of these.
    static let claimNextLoggedFunction: PostgresQuery = """
        CREATE FUNCTION alertd.claim_next_logged(
            p_session text, p_now float8, p_lease_until float8, p_lease_duration float8, p_max_deliveries integer)
        RETURNS TABLE (
            o_ticket text, o_session text, o_content text, o_priority integer, o_lane text, o_dedupe_key text,
            o_state text, o_sequence bigint, o_enqueued_at float8, o_expires_at float8, o_deliveries integer,
            o_lease_until float8, o_at_head boolean)
        LANGUAGE plpgsql VOLATILE SET plan_cache_mode = force_custom_plan AS $$
        DECLARE
            v_now float8 := coalesce(nullif(p_now, 'NaN'), extract(epoch FROM now())::float8);
            v_item record;
        BEGIN
            PERFORM 1 FROM alertd.sessions AS s WHERE s.session = p_session FOR UPDATE;
            INSERT INTO alertd.events (session, ticket, type, at, detail)
            SELECT p_session, x.ticket, x.type, v_now, x.detail FROM (
                SELECT i.sequence, 0 AS step, i.ticket,
                    CASE WHEN i.deliveries >= p_max_deliveries THEN 'dead' ELSE 'requeued' END AS type,
                    CASE WHEN i.deliveries >= p_max_deliveries THEN jsonb_build_object('deliveries', i.deliveries)
                        ELSE jsonb_build_object('delivery', i.deliveries) END AS detail
                FROM alertd.items AS i
                WHERE i.session = p_session AND i.state = 'presenting' AND i.lease_until <= v_now
                UNION ALL
                SELECT i.sequence, 1, i.ticket, 'expired', '{}'::jsonb FROM alertd.items AS i
                WHERE i.session = p_session AND i.expires_at <= v_now AND (i.state = 'queued'
                    OR (i.state = 'presenting' AND i.lease_until <= v_now AND i.deliveries < p_max_deliveries))
            ) AS x ORDER BY x.step, x.sequence;
            SELECT * INTO v_item FROM alertd.claim_next(p_session, p_now, p_lease_until, p_lease_duration, p_max_deliveries);
            IF NOT FOUND THEN
                RETURN;
            END IF;
            INSERT INTO alertd.events (session, ticket, type, at, detail)
            VALUES (p_session, v_item.o_ticket, 'delivered', v_now, jsonb_strip_nulls(jsonb_build_object(
                'delivery', v_item.o_deliveries,
                'leaseUntil', to_char(to_timestamp(v_item.o_lease_until) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))));
            RETURN QUERY SELECT v_item.o_ticket, v_item.o_session, v_item.o_content, v_item.o_priority, v_item.o_lane,
                v_item.o_dedupe_key, v_item.o_state, v_item.o_sequence, v_item.o_enqueued_at, v_item.o_expires_at,
                v_item.o_deliveries, v_item.o_lease_until, v_item.o_at_head;
        END
        $$
        """

    /// `alertd.enqueue_counted_logged`: `alertd.enqueue_counted` (same arguments, and `p_origins`,
    /// who queued each) with an `enqueued` event for each item it inserted, at its enqueue time.
    static let enqueueCountedLoggedFunction: PostgresQuery = """
        CREATE FUNCTION alertd.enqueue_counted_logged(
            p_tickets text[], p_sessions text[], p_contents text[], p_priorities bigint[], p_lanes text[],
            p_dedupe_keys text[], p_ttls float8[], p_expires float8[], p_at_heads boolean[], p_nows float8[],
            p_max_live integer, p_origins text[])
        RETURNS TABLE (o_now float8, o_next_sequences bigint[], o_held_back text[], o_live bigint[], o_ahead bigint[])
        LANGUAGE plpgsql VOLATILE AS $$
        DECLARE
            v_result record;
        BEGIN
            SELECT * INTO v_result FROM alertd.enqueue_counted(p_tickets, p_sessions, p_contents, p_priorities, p_lanes,
                p_dedupe_keys, p_ttls, p_expires, p_at_heads, p_nows, p_max_live);
            INSERT INTO alertd.events (session, ticket, type, at, detail)
            SELECT i.session, i.ticket, 'enqueued', i.enqueued_at, jsonb_build_object('by', u.origin)
            FROM unnest(p_tickets, p_origins) WITH ORDINALITY AS u(ticket, origin, ord)
            JOIN alertd.items AS i ON i.ticket = u.ticket
            WHERE i.session <> ALL(v_result.o_held_back)
            ORDER BY u.ord;
            RETURN QUERY SELECT v_result.o_now, v_result.o_next_sequences, v_result.o_held_back, v_result.o_live,
                v_result.o_ahead;
        END
        $$
        """
}
