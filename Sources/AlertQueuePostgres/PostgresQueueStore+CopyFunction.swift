import PostgresNIO

/// `alertd.enqueue_copies(...)` (migration `enqueueCopiesFunction`): `alertd.enqueue_counted` for
/// a fan-out's copies, which writes each copy's group and campaign with the row. The general way
/// inserted the rows, then updated both columns: every row written twice, with its indexes,
/// which was a third of a fan-out batch's time.
///
/// Same arguments as `enqueue_counted`, and `p_groups`, `p_campaigns` ('' for none); the same
/// sessions held back (a live dedupe key, a HUD where a HUD is queued, a lease or TTL that may
/// have ended, no room in the queue, a key or a HUD twice for a session, several enqueues with a
/// TTL). It counts only each session's live items: a fan-out reports no positions, so the queued
/// items ahead of each copy are not counted. A second copy of a campaign on a session fails the
/// statement (`items_campaign`): the caller asks for sessions without one, under the campaign's
/// lock. It writes no events (the caller does, as the policy records them). It returns one row:
/// `now()`, the sequences, the sessions held back, and each copy's session's live items.
extension PostgresQueueStore {
    static let enqueueCopiesFunction: PostgresQuery = """
        CREATE FUNCTION alertd.enqueue_copies(
            p_tickets text[], p_sessions text[], p_contents text[], p_priorities bigint[], p_lanes text[],
            p_dedupe_keys text[], p_ttls float8[], p_expires float8[], p_at_heads boolean[], p_nows float8[],
            p_groups text[], p_campaigns text[], p_max_live integer)
        RETURNS TABLE (o_now float8, o_next_sequences bigint[], o_held_back text[], o_live bigint[])
        LANGUAGE plpgsql VOLATILE SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
        DECLARE
            v_now float8 := extract(epoch FROM now())::float8;
            v_next bigint[] := '{}';
            v_held_back text[];
            v_live bigint[];
            v_check text[];
            v_ended text[];
        BEGIN
            \(unescaped: lockSessionsDrawSequences)
            -- From live_counts alone, through its key: each copy's session's live items, the
            -- sessions where a HUD copy meets a queued HUD, and those where something may have ended.
            SELECT array_agg(coalesce(l.n, 0) ORDER BY r.ord),
                coalesce(array_agg(r.session) FILTER (WHERE r.lane = 'hud' AND l.huds), '{}'),
                coalesce(array_agg(r.session) FILTER (WHERE l.may_end), '{}')
            INTO v_live, v_held_back, v_check
            FROM unnest(p_sessions, p_lanes) WITH ORDINALITY AS r(session, lane, ord)
            LEFT JOIN LATERAL (
                SELECT sum(c.n) AS n, bool_or(c.state = 'queued' AND c.lane = 'hud') AS huds,
                    bool_or(c.state = 'presenting' OR c.timed) AS may_end
                FROM alertd.live_counts AS c WHERE c.session = r.session) AS l ON true;
            \(unescaped: endedHeldBack)
            \(unescaped: batchHeldBack)
            -- A live duplicate is found by the insert itself: its session is held back, and what
            -- the batch inserted there removed.
            WITH inserted AS (
                INSERT INTO alertd.items (ticket, session, content, priority, lane, dedupe_key, state, sequence,
                    enqueued_at, expires_at, deliveries, lease_until, at_head, group_id, campaign_id)
                SELECT n.ticket, n.session, n.content::jsonb, n.priority, n.lane, n.dedupe_key, 'queued', n.sequence, n.at,
                    coalesce(nullif(n.expires, 'NaN'), n.at + nullif(n.ttl, 'NaN')), 0, NULL, n.at_head,
                    nullif(n.group_id, ''), nullif(n.campaign_id, '')
                FROM (
                    SELECT u.*, coalesce(nullif(u.now, 'NaN'), v_now) AS at
                    FROM unnest(p_tickets, p_sessions, p_contents, p_priorities, p_lanes, p_dedupe_keys, v_next, p_ttls,
                        p_expires, p_at_heads, p_nows, p_groups, p_campaigns)
                        AS u(ticket, session, content, priority, lane, dedupe_key, sequence, ttl, expires, at_head, now,
                            group_id, campaign_id)
                ) AS n
                WHERE n.session <> ALL(v_held_back)
                ORDER BY n.sequence
                ON CONFLICT (session, dedupe_key) WHERE state IN ('queued', 'presenting') DO NOTHING
                RETURNING ticket)
            \(unescaped: undoMetDuplicates)
            RETURN QUERY SELECT v_now, v_next, v_held_back, v_live;
        END
        $$
        """
}
