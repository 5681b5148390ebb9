import PostgresNIO

/// The functions a step's first round trip calls once steps read windows (migration
/// `windowFunctions`). A statement that reads `alertd.items` is planned at each call (`EXECUTE`),
/// as in `lockSessionFunctionV2`: a plan kept from a small table could read every live item.
/// The others keep their plans. A read that a call does not need (a ticket, HUDs, counts, the
/// lease and TTL checks of a batch with nothing presenting or timed) is not run, so not planned
/// either: planning costs more than most of these reads.
extension PostgresQueueStore {
    /// The columns every row of `lock_windows` carries after the item's: the database's `now()`,
    /// the fresh sequences, and the counts.
    private static let windowStamps = "v_now, v_next, v_live, v_ahead, v_holder_ahead"

    /// The item columns of `alertd.items AS i`, then the stamps as `$1`…`$5`, for `RETURN QUERY EXECUTE`.
    private static let windowColumns = """
        i.ticket, i.session, i.content::text, i.priority, i.lane, i.dedupe_key, i.state, i.sequence, i.enqueued_at,
        i.expires_at, i.deliveries, i.lease_until, i.at_head, $1, $2, $3, $4, $5
        """

    /// `alertd.lock_windows(sessions, sequences, now, tickets, dedupe_keys, huds, lanes,
    /// priorities, at_heads)`: a write's first round trip, for one request or a batch's (arrays of
    /// one element per request). Locks the requests' sessions as `lock_sessions` does (rows
    /// created or stamped, in sorted order), takes `sequences` fresh sequences, then, in
    /// statements of their own (snapshots that see what the lock waited for), counts
    /// (`windowCounts`, `holderCounts`, when a request has a lane) and returns the window,
    /// locked `FOR UPDATE`, in `ItemRow.columns` order (an item may come twice, in no order):
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
        LANGUAGE plpgsql VOLATILE AS $$
        DECLARE
            v_now float8 := extract(epoch FROM now())::float8;
            v_next bigint[] := '{}';
            v_due float8;
            v_live bigint[] := array_fill(0::bigint, ARRAY[cardinality(p_sessions)]);
            v_ahead bigint[] := array_fill(0::bigint, ARRAY[cardinality(p_sessions)]);
            v_holder_ahead bigint[] := array_fill(0::bigint, ARRAY[cardinality(p_sessions)]);
            v_holder record;
            v_rows bigint;
            v_found bigint := 0;
        BEGIN
            INSERT INTO alertd.sessions AS s (session)
            SELECT DISTINCT u.session FROM unnest(p_sessions) AS u(session) ORDER BY u.session
            ON CONFLICT (session) DO UPDATE SET changed_by = pg_current_xact_id();
            FOR v_index IN 1..p_sequences LOOP
                v_next := v_next || nextval('alertd.item_sequence');
            END LOOP;
            v_due := coalesce(nullif(p_now, 'NaN'), v_now) + 0.001;
            IF NOT ('' = ALL(p_lanes)) THEN
                EXECUTE $query$ \(unescaped: windowCounts) $query$
                    INTO v_live, v_ahead USING p_sessions, p_lanes, p_priorities, p_at_heads;
                \(unescaped: holderCounts)
            END IF;
            RETURN QUERY EXECUTE $query$
                SELECT * FROM (SELECT \(unescaped: windowColumns) FROM alertd.items AS i
                    WHERE i.session = ANY($6) AND i.state = 'presenting' FOR UPDATE) AS p
                UNION ALL
                SELECT * FROM (SELECT \(unescaped: windowColumns) FROM alertd.items AS i
                    WHERE i.session = ANY($6) AND i.state = 'queued' AND i.expires_at <= $7 FOR UPDATE) AS e
                $query$ USING \(unescaped: windowStamps), p_sessions, v_due;
            GET DIAGNOSTICS v_rows = ROW_COUNT;
            v_found := v_found + v_rows;
            IF NOT ('' = ALL(p_tickets)) THEN
                RETURN QUERY EXECUTE $query$
                    SELECT \(unescaped: windowColumns) FROM alertd.items AS i
                    JOIN unnest($6, $7) AS r(session, ticket) ON i.ticket = r.ticket AND i.session = r.session
                    FOR UPDATE OF i
                    $query$ USING \(unescaped: windowStamps), p_sessions, p_tickets;
                GET DIAGNOSTICS v_rows = ROW_COUNT;
                v_found := v_found + v_rows;
            END IF;
            IF NOT ('' = ALL(p_dedupe_keys)) THEN
                RETURN QUERY EXECUTE $query$
                    SELECT \(unescaped: windowColumns) FROM alertd.items AS i
                    JOIN unnest($6, $7) AS r(session, dedupe_key) ON i.session = r.session AND i.dedupe_key = r.dedupe_key
                    WHERE i.state IN ('queued', 'presenting')
                    FOR UPDATE OF i
                    $query$ USING \(unescaped: windowStamps), p_sessions, p_dedupe_keys;
                GET DIAGNOSTICS v_rows = ROW_COUNT;
                v_found := v_found + v_rows;
            END IF;
            IF true = ANY(p_huds) THEN
                RETURN QUERY EXECUTE $query$
                    SELECT * FROM (SELECT \(unescaped: windowColumns) FROM alertd.items AS i
                        WHERE i.state = 'queued' AND i.at_head AND i.session = ANY($6) AND i.lane = 'hud' FOR UPDATE) AS c
                    UNION ALL
                    SELECT * FROM (SELECT \(unescaped: windowColumns) FROM alertd.items AS i
                        WHERE i.state = 'queued' AND NOT i.at_head AND i.session = ANY($6) AND i.lane = 'hud' FOR UPDATE) AS o
                    $query$ USING \(unescaped: windowStamps),
                        (SELECT array_agg(r.session) FROM unnest(p_sessions, p_huds) AS r(session, huds) WHERE r.huds);
                GET DIAGNOSTICS v_rows = ROW_COUNT;
                v_found := v_found + v_rows;
            END IF;
            IF v_found = 0 THEN
                RETURN QUERY SELECT NULL::text, NULL::text, NULL::text, NULL::integer, NULL::text, NULL::text,
                    NULL::text, NULL::bigint, NULL::float8, NULL::float8, NULL::integer, NULL::float8, NULL::boolean,
                    \(unescaped: windowStamps);
            END IF;
        END
        $$
        """

    /// `alertd.enqueue_counted(...)`: `alertd.enqueue_items` (same arguments, same enqueues held
    /// back) without reading the sessions' live items. One read (`enqueueCounts`) gives each
    /// enqueue the live items of its session and the queued items ahead of it, counted before its
    /// insert, and the sessions where something presents or a queued item has a TTL: only those
    /// are read further, for a
    /// lease or TTL ended by the enqueue's time plus a millisecond (the policy compares `Date`s).
    /// A HUD where a HUD is queued, and the limit, are told by the counts; a live duplicate by
    /// the insert, which skips it (`ON CONFLICT` on `items_live_dedupe`), then removes the rows it
    /// inserted in that session. Its plans are made once per connection with sequential scans
    /// off: the counts read `live_counts` through its key (its only index) whatever the table's
    /// size when planned, and planning them at each call cost as much as the rest of a batch. The
    /// read of `alertd.items` for ended leases and TTLs is planned at each call, where a kept plan
    /// could take `items_census` and read every live item. It returns one row:
    /// `now()`, the sequences, the sessions held back, and the two counts per enqueue, which give
    /// the policy its answers over an empty window.
    static let enqueueCountedFunction: PostgresQuery = """
        CREATE FUNCTION alertd.enqueue_counted(
            p_tickets text[], p_sessions text[], p_contents text[], p_priorities bigint[], p_lanes text[],
            p_dedupe_keys text[], p_ttls float8[], p_expires float8[], p_at_heads boolean[], p_nows float8[],
            p_max_live integer)
        RETURNS TABLE (o_now float8, o_next_sequences bigint[], o_held_back text[], o_live bigint[], o_ahead bigint[])
        LANGUAGE plpgsql VOLATILE SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
        DECLARE
            v_now float8 := extract(epoch FROM now())::float8;
            v_next bigint[] := '{}';
            v_held_back text[];
            v_live bigint[];
            v_ahead bigint[];
            v_check text[];
            v_ended text[];
        BEGIN
            \(unescaped: lockSessionsDrawSequences)
            \(unescaped: enqueueCounts) INTO v_live, v_ahead, v_held_back, v_check;
            \(unescaped: endedHeldBack)
            \(unescaped: batchHeldBack)
            -- A live duplicate is found by the insert itself (the unique index decides, with no
            -- plan to choose): its session is held back, and what the batch inserted there removed.
            WITH inserted AS (
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
                ORDER BY n.sequence
                ON CONFLICT (session, dedupe_key) WHERE state IN ('queued', 'presenting') DO NOTHING
                RETURNING ticket)
            \(unescaped: undoMetDuplicates)
            RETURN QUERY SELECT v_now, v_next, v_held_back, v_live, v_ahead;
        END
        $$
        """

    /// For each request (`$1` sessions, `$2` lanes, `$3` priorities, `$4` chain flags): the live
    /// items of its session and the queued items of its lane that a new item of its priority and
    /// chain flag queues behind (none for a chain, the newest of all, or for the lane ''). Two
    /// arrays, one element per request, in order, from `live_counts` alone.
    static let windowCounts = """
        SELECT array_agg(coalesce(l.n, 0) ORDER BY r.ord), array_agg(coalesce(a.n, 0) ORDER BY r.ord)
        FROM unnest($1::text[], $2::text[], $3::bigint[], $4::boolean[]) WITH ORDINALITY
            AS r(session, lane, priority, at_head, ord)
        LEFT JOIN LATERAL (SELECT sum(c.n) AS n FROM alertd.live_counts AS c WHERE c.session = r.session) AS l ON true
        LEFT JOIN LATERAL (
            SELECT sum(c.n) AS n FROM alertd.live_counts AS c
            WHERE c.session = r.session AND c.lane = r.lane AND c.state = 'queued' AND NOT r.at_head
                AND (c.at_head OR c.priority >= r.priority)) AS a ON true
        """

    /// `windowCounts` for a batch of enqueues, and two arrays of sessions more: those held back
    /// because a HUD enqueue meets a queued HUD; and those where an item presents or a queued
    /// item has a TTL, which may have ended. It reads `live_counts` alone, through its key.
    static let enqueueCounts = """
        SELECT array_agg(coalesce(l.n, 0) ORDER BY r.ord), array_agg(coalesce(a.n, 0) ORDER BY r.ord),
            coalesce(array_agg(r.session) FILTER (WHERE r.lane = 'hud' AND l.huds), '{}'),
            coalesce(array_agg(r.session) FILTER (WHERE l.may_end), '{}')
        FROM unnest(p_sessions, p_lanes, p_priorities, p_at_heads, p_dedupe_keys) WITH ORDINALITY
            AS r(session, lane, priority, at_head, dedupe_key, ord)
        LEFT JOIN LATERAL (
            SELECT sum(c.n) AS n, bool_or(c.state = 'queued' AND c.lane = 'hud') AS huds,
                bool_or(c.state = 'presenting' OR c.timed) AS may_end
            FROM alertd.live_counts AS c WHERE c.session = r.session) AS l ON true
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
        FOR v_holder IN EXECUTE $query$
                    SELECT r.ord, o.session, o.lane, o.priority, o.sequence, o.at_head
                    FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS r(session, dedupe_key, ord)
                    JOIN alertd.items AS o ON o.session = r.session AND o.dedupe_key = r.dedupe_key
                        AND o.state IN ('queued', 'presenting') AND o.state = 'queued'
                    $query$ USING p_sessions, p_dedupe_keys
                LOOP
                    IF v_holder.at_head THEN
                        EXECUTE $query$
                            SELECT count(*) FROM alertd.items AS q
                            WHERE q.state = 'queued' AND q.at_head AND q.session = $1 AND q.lane = $2 AND q.sequence > $3
                            $query$ INTO v_rows USING v_holder.session, v_holder.lane, v_holder.sequence;
                    ELSE
                        EXECUTE $query$
                            SELECT coalesce((
                                SELECT sum(c.n) FROM alertd.live_counts AS c
                                WHERE c.session = $1 AND c.lane = $2 AND c.state = 'queued' AND (c.at_head OR c.priority > $3)), 0)
                                + (SELECT count(*) FROM alertd.items AS q
                                WHERE q.state = 'queued' AND NOT q.at_head AND q.session = $1 AND q.lane = $2
                                    AND q.priority = $3 AND q.sequence < $4)
                            $query$ INTO v_rows USING v_holder.session, v_holder.lane, v_holder.priority, v_holder.sequence;
                    END IF;
                    v_holder_ahead[v_holder.ord] := v_rows;
                END LOOP;
        """
}
