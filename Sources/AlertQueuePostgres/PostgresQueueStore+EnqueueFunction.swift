import PostgresNIO

/// `alertd.enqueue_items(...)` (migration `enqueueItemsFunction`): a batch of enqueues in one
/// statement, and so in one round trip and one implicit transaction, for the sessions where
/// `QueuePolicy` would simply insert each of the batch's enqueues.
///
/// It locks the batch's sessions as `lock_sessions` does, takes one sequence per enqueue, and
/// loads the sessions' live items `FOR UPDATE` (planned at each call, as in `lock_sessions`).
/// It then holds back every session where the policy could do more than insert:
/// - a live item whose lease or TTL ended at an enqueue's time (`prepare` would change it);
/// - an enqueue whose dedupe key is live in the session, or given twice for it in the batch;
/// - a HUD enqueue where a HUD is queued, or a second HUD for the session in the batch;
/// - more than `p_max_live` live items once the batch's are in;
/// - two enqueues or more, one with a TTL (it could end before the next one's time).
/// It inserts the enqueues of the other sessions, and returns the live items it loaded (before
/// its insert) in `ItemRow.columns` order, each row followed by the database's `now()`, the
/// sequences (one per enqueue, in order) and the sessions held back; with no live item, one
/// row of NULL item columns carries those three. The store applies `QueuePolicy` to those items
/// for the inserted enqueues' answers (their positions), which must agree with the insert, and
/// runs the held-back sessions' enqueues the general way (`lock_sessions`, the policy in Swift,
/// the writes, `COMMIT`).
///
/// Times: an enqueue's is `p_nows` (the caller's clock) or, when NaN, the database's `now()`; its
/// expiry is `p_expires` when not NaN (computed by the caller as `QueuePolicy.makeItem` does),
/// else that time plus `p_ttls` (NaN: none).
extension PostgresQueueStore {
    static let enqueueItemsFunction: PostgresQuery = """
        CREATE FUNCTION alertd.enqueue_items(
            p_tickets text[], p_sessions text[], p_contents text[], p_priorities bigint[], p_lanes text[],
            p_dedupe_keys text[], p_ttls float8[], p_expires float8[], p_at_head boolean[], p_nows float8[],
            p_max_live integer)
        RETURNS TABLE (
            o_ticket text, o_session text, o_content text, o_priority integer, o_lane text, o_dedupe_key text,
            o_state text, o_sequence bigint, o_enqueued_at float8, o_expires_at float8, o_deliveries integer,
            o_lease_until float8, o_at_head boolean, o_now float8, o_next_sequences bigint[], o_held_back text[])
        LANGUAGE plpgsql VOLATILE AS $$
        DECLARE
            v_now float8 := extract(epoch FROM now())::float8;
            v_next bigint[] := '{}';
            v_live alertd.items[];
            v_held_back text[];
        BEGIN
            \(unescaped: lockSessionsDrawSequences)
            EXECUTE $query$
                SELECT coalesce(array_agg(x.item ORDER BY (x.item).sequence), '{}') FROM (
                    SELECT i AS item FROM alertd.items AS i
                    WHERE i.session = ANY($1) AND i.state IN ('queued', 'presenting')
                    FOR UPDATE OF i) AS x
                $query$ INTO v_live USING p_sessions;
            WITH batch AS (
                SELECT n.session, n.dedupe_key, n.lane, n.ttl, coalesce(nullif(n.at, 'NaN'), v_now) AS at
                FROM unnest(p_sessions, p_dedupe_keys, p_lanes, p_ttls, p_nows) AS n(session, dedupe_key, lane, ttl, at))
            SELECT coalesce(array_agg(DISTINCT h.session), '{}') INTO v_held_back FROM (
                SELECT n.session FROM unnest(v_live) AS i JOIN batch AS n ON n.session = i.session
                WHERE i.dedupe_key = n.dedupe_key
                    OR (n.lane = 'hud' AND i.lane = 'hud' AND i.state = 'queued')
                    OR (i.state = 'presenting' AND i.lease_until <= n.at)
                    OR (i.state = 'queued' AND i.expires_at <= n.at)
                UNION ALL
                SELECT n.session FROM batch AS n GROUP BY n.session, n.dedupe_key HAVING count(*) > 1
                UNION ALL
                SELECT n.session FROM batch AS n WHERE n.lane = 'hud' GROUP BY n.session HAVING count(*) > 1
                UNION ALL
                SELECT n.session FROM batch AS n GROUP BY n.session
                HAVING count(*) > 1 AND bool_or(n.ttl <> 'NaN')
                    OR count(*) + (SELECT count(*) FROM unnest(v_live) AS i WHERE i.session = n.session) > p_max_live
            ) AS h;
            INSERT INTO alertd.items (ticket, session, content, priority, lane, dedupe_key, state, sequence,
                enqueued_at, expires_at, deliveries, lease_until, at_head)
            SELECT n.ticket, n.session, n.content::jsonb, n.priority, n.lane, n.dedupe_key, 'queued', n.sequence, n.at,
                coalesce(nullif(n.expires, 'NaN'), n.at + nullif(n.ttl, 'NaN')), 0, NULL, n.at_head
            FROM (
                SELECT u.*, coalesce(nullif(u.now, 'NaN'), v_now) AS at
                FROM unnest(p_tickets, p_sessions, p_contents, p_priorities, p_lanes, p_dedupe_keys, v_next, p_ttls,
                    p_expires, p_at_head, p_nows)
                    AS u(ticket, session, content, priority, lane, dedupe_key, sequence, ttl, expires, at_head, now)
            ) AS n
            WHERE n.session <> ALL(v_held_back)
            ORDER BY n.sequence;
            RETURN QUERY
                SELECT i.ticket, i.session, i.content::text, i.priority, i.lane, i.dedupe_key, i.state, i.sequence,
                    i.enqueued_at, i.expires_at, i.deliveries, i.lease_until, i.at_head, v_now, v_next, v_held_back
                FROM unnest(v_live) AS i ORDER BY i.sequence;
            IF NOT FOUND THEN
                RETURN QUERY SELECT NULL::text, NULL::text, NULL::text, NULL::integer, NULL::text, NULL::text,
                    NULL::text, NULL::bigint, NULL::float8, NULL::float8, NULL::integer, NULL::float8, NULL::boolean,
                    v_now, v_next, v_held_back;
            END IF;
        END
        $$
        """
}
