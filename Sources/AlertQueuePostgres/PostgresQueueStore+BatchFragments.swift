import PostgresNIO

// PL/pgSQL shared by the functions that enqueue a batch at once (`enqueue_counted`,
// `enqueue_copies`, `enqueue_items`), interpolated into their bodies.

extension PostgresQueueStore {
    /// PL/pgSQL that follows a batch's insert (a CTE `inserted` of the tickets it inserted): the
    /// sessions where an insert met a live dedupe key are held back, and what the batch inserted
    /// there removed, for the general way to redo.
    static let undoMetDuplicates = """
        SELECT coalesce(array_agg(DISTINCT u.session), '{}') INTO v_ended
        FROM unnest(p_tickets, p_sessions) AS u(ticket, session)
        WHERE u.session <> ALL(v_held_back) AND u.ticket NOT IN (SELECT ticket FROM inserted);
        IF cardinality(v_ended) > 0 THEN
            DELETE FROM alertd.items WHERE ticket = ANY(p_tickets) AND session = ANY(v_ended);
            v_held_back := v_held_back || v_ended;
        END IF;
        """

    /// PL/pgSQL that opens a batch of enqueues: each session's row in `alertd.sessions` locked
    /// (inserted when new), in session order so batches never wait on each other in a circle,
    /// and a sequence drawn per ticket into `v_next`.
    static let lockSessionsDrawSequences = """
        INSERT INTO alertd.sessions AS s (session)
        SELECT DISTINCT u.session FROM unnest(p_sessions) AS u(session) ORDER BY u.session
        ON CONFLICT (session) DO UPDATE SET changed_by = pg_current_xact_id();
        FOR v_index IN 1..cardinality(p_tickets) LOOP
            v_next := v_next || nextval('alertd.item_sequence');
        END LOOP;
        """

    /// PL/pgSQL for a batch of enqueues (`enqueue_counted`, `enqueue_copies`): of the sessions
    /// in `v_check`, those whose presenting item's lease or queued item's TTL has ended, added to
    /// `v_held_back` (planned at each call: a kept plan could read every live item).
    static let endedHeldBack = """
        IF cardinality(v_check) > 0 THEN
            EXECUTE $query$
                SELECT coalesce(array_agg(n.session), '{}') FROM unnest($1, $2) AS n(session, at)
                WHERE n.session = ANY($3) AND (
                    EXISTS (SELECT 1 FROM alertd.items AS p
                        WHERE p.session = n.session AND p.state = 'presenting' AND p.lease_until <= n.at + 0.001)
                    OR EXISTS (SELECT 1 FROM alertd.items AS e
                        WHERE e.session = n.session AND e.state = 'queued' AND e.expires_at <= n.at + 0.001))
                $query$ INTO v_ended
                USING p_sessions, (SELECT array_agg(coalesce(nullif(t, 'NaN'), v_now)) FROM unnest(p_nows) AS t), v_check;
            v_held_back := v_held_back || v_ended;
        END IF;
        """

    /// PL/pgSQL that adds to `v_held_back` the sessions of a batch the counts cannot answer for:
    /// two enqueues of one dedupe key, two HUDs, a TTL beside another enqueue of the session, or
    /// more than `p_max_live` live items; then leaves each session in it once.
    static let batchHeldBack = """
        WITH batch AS (
            SELECT n.session, n.dedupe_key, n.lane, n.ttl, n.live
            FROM unnest(p_sessions, p_dedupe_keys, p_lanes, p_ttls, v_live) AS n(session, dedupe_key, lane, ttl, live))
        SELECT v_held_back || coalesce(array_agg(h.session), '{}') INTO v_held_back FROM (
            SELECT n.session FROM batch AS n GROUP BY n.session, n.dedupe_key HAVING count(*) > 1
            UNION ALL
            SELECT n.session FROM batch AS n WHERE n.lane = 'hud' GROUP BY n.session HAVING count(*) > 1
            UNION ALL
            SELECT n.session FROM batch AS n GROUP BY n.session
            HAVING count(*) > 1 AND bool_or(n.ttl <> 'NaN') OR count(*) + max(n.live) > p_max_live
        ) AS h;
        SELECT coalesce(array_agg(DISTINCT h), '{}') INTO v_held_back FROM unnest(v_held_back) AS h;
        """
}
