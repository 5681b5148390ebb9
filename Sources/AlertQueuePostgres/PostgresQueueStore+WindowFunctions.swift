import PostgresNIO

/// The functions a step's first round trip calls once steps read windows (migration
/// `windowFunctions`). Both are planned at each call (`plan_cache_mode = force_custom_plan`):
/// a plan kept from a small table could read every live item (see `lockSessionFunctionV2`).
extension PostgresQueueStore {
    /// The columns every row of `lock_windows` carries after the item's: the database's `now()`,
    /// the fresh sequences, and the counts of `windowCounts`.
    private static let windowStamps = "v_now, v_next, v_live, v_ahead, v_holder_ahead"

    /// `alertd.lock_windows(sessions, sequences, now, tickets, dedupe_keys, huds, lanes,
    /// priorities, at_heads)`: a write's first round trip, for one request or a batch's (arrays of
    /// one element per request). Locks the requests' sessions as `lock_sessions` does (rows
    /// created or stamped, in sorted order), takes `sequences` fresh sequences, then, in
    /// statements of their own (snapshots that see what the lock waited for), counts
    /// (`windowCounts`, `holderCounts`) and returns the window, locked `FOR UPDATE`, in `ItemRow.columns` order:
    /// each session's presenting items and queued items whose TTL ends by `now` (NaN: `now()`)
    /// plus a millisecond (the policy compares `Date`s, which may round otherwise), and for each
    /// request the live item with its dedupe key, its ticket, and the session's queued HUDs when
    /// `huds`. '' asks for no ticket, and a lane of '' for no place. With no item, one row of
    /// NULL item columns carries the stamps.
    static let lockWindowsFunction: PostgresQuery = """
        CREATE FUNCTION alertd.lock_windows(
            p_sessions text[], p_sequences integer, p_now float8, p_tickets text[], p_dedupe_keys text[],
            p_huds boolean[], p_lanes text[], p_priorities bigint[], p_at_heads boolean[])
        RETURNS TABLE (
            o_ticket text, o_session text, o_content text, o_priority integer, o_lane text, o_dedupe_key text,
            o_state text, o_sequence bigint, o_enqueued_at float8, o_expires_at float8, o_deliveries integer,
            o_lease_until float8, o_at_head boolean, o_now float8, o_next_sequences bigint[], o_live bigint[],
            o_ahead bigint[], o_holder_ahead bigint[])
        LANGUAGE plpgsql VOLATILE SET plan_cache_mode = force_custom_plan AS $$
        DECLARE
            v_now float8 := extract(epoch FROM now())::float8;
            v_next bigint[] := '{}';
            v_due float8;
            v_live bigint[];
            v_ahead bigint[];
            v_holder_ahead bigint[];
            v_holder record;
        BEGIN
            INSERT INTO alertd.sessions AS s (session)
            SELECT DISTINCT u.session FROM unnest(p_sessions) AS u(session) ORDER BY u.session
            ON CONFLICT (session) DO UPDATE SET changed_by = pg_current_xact_id();
            FOR v_index IN 1..p_sequences LOOP
                v_next := v_next || nextval('alertd.item_sequence');
            END LOOP;
            v_due := coalesce(nullif(p_now, 'NaN'), v_now) + 0.001;
            \(unescaped: windowCounts) INTO v_live, v_ahead;
            \(unescaped: holderCounts)
            RETURN QUERY
                SELECT i.ticket, i.session, i.content::text, i.priority, i.lane, i.dedupe_key, i.state, i.sequence,
                    i.enqueued_at, i.expires_at, i.deliveries, i.lease_until, i.at_head, \(unescaped: windowStamps)
                FROM alertd.items AS i
                WHERE i.ticket IN (
                    SELECT w.ticket FROM (SELECT DISTINCT u.session FROM unnest(p_sessions) AS u(session)) AS s
                    CROSS JOIN LATERAL (
                        SELECT p.ticket FROM alertd.items AS p WHERE p.session = s.session AND p.state = 'presenting'
                        UNION ALL
                        SELECT e.ticket FROM alertd.items AS e
                        WHERE e.session = s.session AND e.state = 'queued' AND e.expires_at <= v_due) AS w
                    UNION ALL
                    SELECT w.ticket FROM unnest(p_sessions, p_tickets, p_dedupe_keys, p_huds) AS r(session, ticket, dedupe_key, huds)
                    CROSS JOIN LATERAL (
                        SELECT d.ticket FROM alertd.items AS d
                        WHERE d.session = r.session AND d.dedupe_key = r.dedupe_key AND d.state IN ('queued', 'presenting')
                        UNION ALL
                        SELECT t.ticket FROM alertd.items AS t WHERE t.ticket = r.ticket AND t.session = r.session
                        UNION ALL
                        SELECT c.ticket FROM alertd.items AS c
                        WHERE c.state = 'queued' AND c.at_head AND c.session = r.session AND c.lane = 'hud' AND r.huds
                        UNION ALL
                        SELECT o.ticket FROM alertd.items AS o
                        WHERE o.state = 'queued' AND NOT o.at_head AND o.session = r.session AND o.lane = 'hud' AND r.huds
                    ) AS w)
                ORDER BY i.sequence
                FOR UPDATE OF i;
            IF NOT FOUND THEN
                RETURN QUERY SELECT NULL::text, NULL::text, NULL::text, NULL::integer, NULL::text, NULL::text,
                    NULL::text, NULL::bigint, NULL::float8, NULL::float8, NULL::integer, NULL::float8, NULL::boolean,
                    \(unescaped: windowStamps);
            END IF;
        END
        $$
        """

    /// `alertd.enqueue_counted(...)`: `alertd.enqueue_items` (same arguments, same enqueues held
    /// back) without reading the sessions' live items. It finds each case through an index —
    /// the live item with the key, a queued HUD, a presenting item whose lease ended or a queued
    /// one whose TTL ended by the enqueue's time plus a millisecond (the policy compares `Date`s)
    /// — and the queue limit in `live_counts`. It returns one row: `now()`, the sequences, the
    /// sessions held back, and for each enqueue the live items of its session and the queued
    /// items ahead of it, counted before its insert (`windowCounts`), which give the policy its
    /// answers over an empty window.
    static let enqueueCountedFunction: PostgresQuery = """
        CREATE FUNCTION alertd.enqueue_counted(
            p_tickets text[], p_sessions text[], p_contents text[], p_priorities bigint[], p_lanes text[],
            p_dedupe_keys text[], p_ttls float8[], p_expires float8[], p_at_heads boolean[], p_nows float8[],
            p_max_live integer)
        RETURNS TABLE (o_now float8, o_next_sequences bigint[], o_held_back text[], o_live bigint[], o_ahead bigint[])
        LANGUAGE plpgsql VOLATILE SET plan_cache_mode = force_custom_plan AS $$
        DECLARE
            v_now float8 := extract(epoch FROM now())::float8;
            v_next bigint[] := '{}';
            v_held_back text[];
            v_live bigint[];
            v_ahead bigint[];
        BEGIN
            INSERT INTO alertd.sessions AS s (session)
            SELECT DISTINCT u.session FROM unnest(p_sessions) AS u(session) ORDER BY u.session
            ON CONFLICT (session) DO UPDATE SET changed_by = pg_current_xact_id();
            FOR v_index IN 1..cardinality(p_tickets) LOOP
                v_next := v_next || nextval('alertd.item_sequence');
            END LOOP;
            \(unescaped: windowCounts) INTO v_live, v_ahead;
            WITH batch AS (
                SELECT n.session, n.dedupe_key, n.lane, n.ttl, n.live, coalesce(nullif(n.at, 'NaN'), v_now) AS at
                FROM unnest(p_sessions, p_dedupe_keys, p_lanes, p_ttls, p_nows, v_live)
                    AS n(session, dedupe_key, lane, ttl, at, live))
            SELECT coalesce(array_agg(DISTINCT h.session), '{}') INTO v_held_back FROM (
                SELECT n.session FROM batch AS n WHERE EXISTS (
                    SELECT 1 FROM alertd.items AS d
                    WHERE d.session = n.session AND d.dedupe_key = n.dedupe_key AND d.state IN ('queued', 'presenting'))
                UNION ALL
                SELECT n.session FROM batch AS n WHERE n.lane = 'hud' AND (
                    EXISTS (SELECT 1 FROM alertd.items AS c
                        WHERE c.state = 'queued' AND c.at_head AND c.session = n.session AND c.lane = 'hud')
                    OR EXISTS (SELECT 1 FROM alertd.items AS o
                        WHERE o.state = 'queued' AND NOT o.at_head AND o.session = n.session AND o.lane = 'hud'))
                UNION ALL
                SELECT n.session FROM batch AS n WHERE EXISTS (
                    SELECT 1 FROM alertd.items AS p
                    WHERE p.session = n.session AND p.state = 'presenting' AND p.lease_until <= n.at + 0.001)
                UNION ALL
                SELECT n.session FROM batch AS n WHERE EXISTS (
                    SELECT 1 FROM alertd.items AS e
                    WHERE e.session = n.session AND e.state = 'queued' AND e.expires_at <= n.at + 0.001)
                UNION ALL
                SELECT n.session FROM batch AS n GROUP BY n.session, n.dedupe_key HAVING count(*) > 1
                UNION ALL
                SELECT n.session FROM batch AS n WHERE n.lane = 'hud' GROUP BY n.session HAVING count(*) > 1
                UNION ALL
                SELECT n.session FROM batch AS n GROUP BY n.session
                HAVING count(*) > 1 AND bool_or(n.ttl <> 'NaN') OR count(*) + max(n.live) > p_max_live
            ) AS h;
            INSERT INTO alertd.items (ticket, session, content, priority, lane, dedupe_key, state, sequence,
                enqueued_at, expires_at, deliveries, lease_until, at_head)
            SELECT n.ticket, n.session, n.content::jsonb, n.priority, n.lane, n.dedupe_key, 'queued', n.sequence, n.at,
                coalesce(nullif(n.expires, 'NaN'), n.at + nullif(n.ttl, 'NaN')), 0, NULL, n.at_head
            FROM (
                SELECT u.*, coalesce(nullif(u.now, 'NaN'), v_now) AS at
                FROM unnest(p_tickets, p_sessions, p_contents, p_priorities, p_lanes, p_dedupe_keys, v_next, p_ttls,
                    p_expires, p_at_heads, p_nows)
                    AS u(ticket, session, content, priority, lane, dedupe_key, sequence, ttl, expires, at_head, now)
            ) AS n
            WHERE n.session <> ALL(v_held_back)
            ORDER BY n.sequence;
            RETURN QUERY SELECT v_now, v_next, v_held_back, v_live, v_ahead;
        END
        $$
        """

    /// The live items counted of each request's session and the queued items of a request's
    /// lane that a new item of its priority and chain flag queues behind (none for a chain, the
    /// newest of all, or for the lane ''): two arrays, one element per request, in order, read
    /// from `live_counts` alone. A statement of the functions below, which name its arrays.
    static let windowCounts = """
        SELECT array_agg(coalesce(l.n, 0) ORDER BY r.ord), array_agg(coalesce(a.n, 0) ORDER BY r.ord)
        FROM unnest(p_sessions, p_lanes, p_priorities, p_at_heads) WITH ORDINALITY AS r(session, lane, priority, at_head, ord)
        LEFT JOIN LATERAL (SELECT sum(c.n) AS n FROM alertd.live_counts AS c WHERE c.session = r.session) AS l ON true
        LEFT JOIN LATERAL (
            SELECT sum(c.n) AS n FROM alertd.live_counts AS c
            WHERE c.session = r.session AND c.lane = r.lane AND c.state = 'queued' AND NOT r.at_head
                AND (c.at_head OR c.priority >= r.priority)) AS a ON true
        """

    /// PL/pgSQL that sets `v_holder_ahead[i]` to the queued items ahead of the queued item
    /// holding request i's dedupe key (zero without one): the higher priorities from
    /// `live_counts`, the place among chains or among one priority from an index range. Counted
    /// one holder at a time, with its values known when planning, so that the count is planned
    /// as a range of `items_queued_chains` or `items_queued_order`, not of the sequence index.
    static let holderCounts = """
        v_holder_ahead := array_fill(0::bigint, ARRAY[cardinality(p_sessions)]);
            FOR v_holder IN
                SELECT r.ord, o.session, o.lane, o.priority, o.sequence, o.at_head
                FROM unnest(p_sessions, p_dedupe_keys) WITH ORDINALITY AS r(session, dedupe_key, ord)
                JOIN alertd.items AS o ON o.session = r.session AND o.dedupe_key = r.dedupe_key
                    AND o.state IN ('queued', 'presenting') AND o.state = 'queued'
            LOOP
                IF v_holder.at_head THEN
                    v_holder_ahead[v_holder.ord] := (
                        SELECT count(*) FROM alertd.items AS q
                        WHERE q.state = 'queued' AND q.at_head AND q.session = v_holder.session
                            AND q.lane = v_holder.lane AND q.sequence > v_holder.sequence);
                ELSE
                    v_holder_ahead[v_holder.ord] := coalesce((
                        SELECT sum(c.n) FROM alertd.live_counts AS c
                        WHERE c.session = v_holder.session AND c.lane = v_holder.lane AND c.state = 'queued'
                            AND (c.at_head OR c.priority > v_holder.priority)), 0) + (
                        SELECT count(*) FROM alertd.items AS q
                        WHERE q.state = 'queued' AND NOT q.at_head AND q.session = v_holder.session
                            AND q.lane = v_holder.lane AND q.priority = v_holder.priority
                            AND q.sequence < v_holder.sequence);
                END IF;
            END LOOP;
        """
}
