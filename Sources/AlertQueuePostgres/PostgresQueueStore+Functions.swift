import PostgresNIO

/// The functions of the later migrations. `lockFunctionsPlanEachCall` makes the lock functions
/// again, their query that reads a session's items planned at each call, not once for all;
/// `insertItemsFunction` adds the batch's insert.
///
/// PL/pgSQL keeps a plan for each statement of a function, on each connection, made for any
/// argument once custom plans stop looking cheaper; it is made again only when the table's
/// statistics change. A plan made while `alertd.items` was small (a sequential scan of its one
/// page, or a read of every live item through `items_census`) stayed in use as the queue grew,
/// until the next `ANALYZE`: a write then read the whole queue, and a batch of enqueues that
/// took 18 pages took 700 at 20,000 live items. Planned at each call (`RETURN QUERY EXECUTE`),
/// the query is planned with the table's size of the moment and the sessions it names, and takes
/// their index ranges. The batch's sequences come from a loop of `nextval` (a query over
/// `generate_series` cost as much to plan as to run). The rest is as before.
extension PostgresQueueStore {
    /// The end of both: with no item, one row of NULL item columns carries `now()` and the
    /// sequences.
    private static let whenNoItem = """
        IF NOT FOUND THEN
                RETURN QUERY SELECT NULL::text, NULL::text, NULL::text, NULL::integer, NULL::text, NULL::text,
                    NULL::text, NULL::bigint, NULL::float8, NULL::float8, NULL::integer, NULL::float8, NULL::boolean,
                    v_now, v_next;
            END IF;
        """

    /// `alertd.lock_session`, as `lockSessionFunction` describes it.
    static let lockSessionFunctionV2: PostgresQuery = """
        CREATE OR REPLACE FUNCTION alertd.lock_session(p_session text, p_sequence boolean, p_states text[], p_ticket text)
        RETURNS TABLE (
            o_ticket text, o_session text, o_content text, o_priority integer, o_lane text, o_dedupe_key text,
            o_state text, o_sequence bigint, o_enqueued_at float8, o_expires_at float8, o_deliveries integer,
            o_lease_until float8, o_at_head boolean, o_now float8, o_next_sequence bigint)
        LANGUAGE plpgsql VOLATILE AS $$
        DECLARE
            v_now float8;
            v_next bigint;
        BEGIN
            INSERT INTO alertd.sessions AS s (session) VALUES (p_session)
            ON CONFLICT (session) DO UPDATE SET changed_by = pg_current_xact_id()
            RETURNING extract(epoch FROM now())::float8,
                CASE WHEN p_sequence THEN nextval('alertd.item_sequence') END
            INTO v_now, v_next;
            RETURN QUERY EXECUTE $query$
                SELECT i.ticket, i.session, i.content::text, i.priority, i.lane, i.dedupe_key, i.state, i.sequence,
                    i.enqueued_at, i.expires_at, i.deliveries, i.lease_until, i.at_head, $4, $5
                FROM alertd.items AS i
                WHERE i.session = $1 AND (i.state = ANY($2) OR i.ticket = $3)
                ORDER BY i.sequence
                FOR UPDATE
                $query$ USING p_session, p_states, p_ticket, v_now, v_next;
            \(unescaped: whenNoItem)
        END
        $$
        """

    /// `alertd.lock_sessions`, as `lockSessionsFunction` describes it.
    static let lockSessionsFunctionV2: PostgresQuery = """
        CREATE OR REPLACE FUNCTION alertd.lock_sessions(p_sessions text[], p_sequences integer)
        RETURNS TABLE (
            o_ticket text, o_session text, o_content text, o_priority integer, o_lane text, o_dedupe_key text,
            o_state text, o_sequence bigint, o_enqueued_at float8, o_expires_at float8, o_deliveries integer,
            o_lease_until float8, o_at_head boolean, o_now float8, o_next_sequences bigint[])
        LANGUAGE plpgsql VOLATILE AS $$
        DECLARE
            v_now float8 := extract(epoch FROM now())::float8;
            v_next bigint[] := '{}';
        BEGIN
            INSERT INTO alertd.sessions AS s (session)
            SELECT DISTINCT u.session FROM unnest(p_sessions) AS u(session) ORDER BY u.session
            ON CONFLICT (session) DO UPDATE SET changed_by = pg_current_xact_id();
            FOR v_index IN 1..p_sequences LOOP
                v_next := v_next || nextval('alertd.item_sequence');
            END LOOP;
            RETURN QUERY EXECUTE $query$
                SELECT i.ticket, i.session, i.content::text, i.priority, i.lane, i.dedupe_key, i.state, i.sequence,
                    i.enqueued_at, i.expires_at, i.deliveries, i.lease_until, i.at_head, $2, $3
                FROM alertd.items AS i
                WHERE i.session = ANY($1) AND i.state IN ('queued', 'presenting')
                ORDER BY i.sequence
                FOR UPDATE
                $query$ USING p_sessions, v_now, v_next;
            \(unescaped: whenNoItem)
        END
        $$
        """

    /// `alertd.insert_items(...)`: a batch's items, one array per column (`ItemRow.insert`),
    /// inserted in sequence order. The same statement the batch used to send itself, kept here so
    /// that PostgreSQL parses and plans it once per connection rather than once per batch (about
    /// 0.1 ms each time); an insert's plan has nothing to choose that the table's size could
    /// make wrong. A dedupe key already live fails it, as before (`items_live_dedupe`).
    static let insertItemsFunction: PostgresQuery = """
        CREATE FUNCTION alertd.insert_items(
            p_tickets text[], p_sessions text[], p_contents text[], p_priorities bigint[], p_lanes text[],
            p_dedupe_keys text[], p_states text[], p_sequences bigint[], p_enqueued_at float8[],
            p_expires_at float8[], p_deliveries bigint[], p_lease_until float8[], p_at_head boolean[])
        RETURNS void LANGUAGE plpgsql VOLATILE AS $$
        BEGIN
            INSERT INTO alertd.items (ticket, session, content, priority, lane, dedupe_key, state, sequence,
                enqueued_at, expires_at, deliveries, lease_until, at_head)
            SELECT ticket, session, content::jsonb, priority, lane, dedupe_key, state, sequence, enqueued_at,
                NULLIF(expires_at, 'NaN'), deliveries, NULLIF(lease_until, 'NaN'), at_head
            FROM unnest(p_tickets, p_sessions, p_contents, p_priorities, p_lanes, p_dedupe_keys, p_states,
                p_sequences, p_enqueued_at, p_expires_at, p_deliveries, p_lease_until, p_at_head)
                AS new(ticket, session, content, priority, lane, dedupe_key, state, sequence, enqueued_at,
                    expires_at, deliveries, lease_until, at_head)
            ORDER BY sequence;
        END
        $$
        """
}
