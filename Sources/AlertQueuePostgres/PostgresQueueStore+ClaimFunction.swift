import PostgresNIO

extension PostgresQueueStore {
    /// `alertd.claim_next(session, now, lease_until, lease_duration, max_deliveries)`: `next` in
    /// one statement (see `claimNext`). Locks the session's row, ends the leases and TTLs that
    /// passed at `now` (NaN: `now()`), as `QueuePolicy.prepare` does, claims the best queued item
    /// of the free lanes with a lease until `lease_until` (NaN: `now` plus `lease_duration`), and
    /// ends the session's other presenting HUDs when it is a HUD. Returns the item claimed, in
    /// `ItemRow.columns` order, or no row. (Since `claimHUDsAsDone`: `claimNextFunctionV2`.)
    ///
    /// Every read is an index range of the session: the presenting items, the queued ones by
    /// expiry, and for each free lane the first entry of its chain and priority indexes (the best
    /// of those six is the best of all). Its statements are planned at each call, with the
    /// table's size and statistics of the moment (a plan kept from a small table could read
    /// every queued item, or every presenting one of the store through `items_census`); one
    /// statement saves the round trips of the four it replaces.
    static let claimNextFunction: PostgresQuery = """
        CREATE FUNCTION alertd.claim_next(
            p_session text, p_now float8, p_lease_until float8, p_lease_duration float8, p_max_deliveries integer)
        RETURNS TABLE (
            o_ticket text, o_session text, o_content text, o_priority integer, o_lane text, o_dedupe_key text,
            o_state text, o_sequence bigint, o_enqueued_at float8, o_expires_at float8, o_deliveries integer,
            o_lease_until float8, o_at_head boolean)
        LANGUAGE plpgsql VOLATILE SET plan_cache_mode = force_custom_plan AS $$
        DECLARE
            v_now float8 := coalesce(nullif(p_now, 'NaN'), extract(epoch FROM now())::float8);
            v_lease float8;
            v_item alertd.items;
        BEGIN
            v_lease := coalesce(nullif(p_lease_until, 'NaN'), v_now + p_lease_duration);
            PERFORM 1 FROM alertd.sessions AS s WHERE s.session = p_session FOR UPDATE;
            UPDATE alertd.items AS i SET
                state = CASE WHEN i.deliveries >= p_max_deliveries THEN 'dead'
                    WHEN i.expires_at <= v_now THEN 'expired' ELSE 'queued' END,
                lease_until = NULL
            WHERE i.session = p_session AND i.state = 'presenting' AND i.lease_until <= v_now;
            UPDATE alertd.items AS i SET state = 'expired'
            WHERE i.session = p_session AND i.state = 'queued' AND i.expires_at <= v_now;
            WITH candidate AS (
                SELECT b.ticket FROM (VALUES ('modal'), ('toast'), ('hud')) AS l(lane)
                CROSS JOIN LATERAL (
                    (SELECT c.ticket, c.at_head, c.priority, c.sequence FROM alertd.items AS c
                    WHERE c.state = 'queued' AND c.at_head AND c.session = p_session AND c.lane = l.lane
                    ORDER BY c.sequence DESC LIMIT 1)
                    UNION ALL
                    (SELECT o.ticket, o.at_head, o.priority, o.sequence FROM alertd.items AS o
                    WHERE o.state = 'queued' AND NOT o.at_head AND o.session = p_session AND o.lane = l.lane
                    ORDER BY o.priority DESC, o.sequence LIMIT 1)) AS b
                WHERE l.lane = 'hud' OR (
                    NOT EXISTS (SELECT 1 FROM alertd.sessions AS h WHERE h.session = p_session AND h.hold_until > v_now)
                    AND NOT EXISTS (
                        SELECT 1 FROM alertd.items AS p WHERE p.session = p_session AND p.state = 'presenting' AND p.lane = l.lane))
                ORDER BY b.at_head DESC, CASE WHEN b.at_head THEN b.sequence END DESC, b.priority DESC, b.sequence
                LIMIT 1),
            claimed AS (
                UPDATE alertd.items AS i SET state = 'presenting', deliveries = i.deliveries + 1, lease_until = v_lease
                FROM candidate WHERE i.ticket = candidate.ticket AND i.state = 'queued'
                RETURNING i.*)
            SELECT * INTO v_item FROM claimed;
            IF v_item.ticket IS NULL THEN
                RETURN;
            END IF;
            IF v_item.lane = 'hud' THEN
                UPDATE alertd.items AS i SET state = 'done', lease_until = NULL
                WHERE i.session = p_session AND i.state = 'presenting' AND i.lane = 'hud' AND i.ticket <> v_item.ticket;
            END IF;
            RETURN QUERY SELECT v_item.ticket, v_item.session, v_item.content::text, v_item.priority, v_item.lane,
                v_item.dedupe_key, v_item.state, v_item.sequence, v_item.enqueued_at, v_item.expires_at, v_item.deliveries,
                v_item.lease_until, v_item.at_head;
        END
        $$
        """

    /// `claim_next` as `QueuePolicy.next` delivers since HUDs are fire-and-forget: a HUD claimed
    /// is `done` at once (no lease, never claimed again, never dead), so no HUD presents and
    /// there is none to end. Same arguments and columns, so it replaces the function in place: an
    /// instance of the version before, still running during a rolling upgrade, calls this one.
    static let claimNextFunctionV2: PostgresQuery = """
        CREATE OR REPLACE FUNCTION alertd.claim_next(
            p_session text, p_now float8, p_lease_until float8, p_lease_duration float8, p_max_deliveries integer)
        RETURNS TABLE (
            o_ticket text, o_session text, o_content text, o_priority integer, o_lane text, o_dedupe_key text,
            o_state text, o_sequence bigint, o_enqueued_at float8, o_expires_at float8, o_deliveries integer,
            o_lease_until float8, o_at_head boolean)
        LANGUAGE plpgsql VOLATILE SET plan_cache_mode = force_custom_plan AS $$
        DECLARE
            v_now float8 := coalesce(nullif(p_now, 'NaN'), extract(epoch FROM now())::float8);
            v_lease float8;
            v_item alertd.items;
        BEGIN
            v_lease := coalesce(nullif(p_lease_until, 'NaN'), v_now + p_lease_duration);
            PERFORM 1 FROM alertd.sessions AS s WHERE s.session = p_session FOR UPDATE;
            UPDATE alertd.items AS i SET
                state = CASE WHEN i.deliveries >= p_max_deliveries THEN 'dead'
                    WHEN i.expires_at <= v_now THEN 'expired' ELSE 'queued' END,
                lease_until = NULL
            WHERE i.session = p_session AND i.state = 'presenting' AND i.lease_until <= v_now;
            UPDATE alertd.items AS i SET state = 'expired'
            WHERE i.session = p_session AND i.state = 'queued' AND i.expires_at <= v_now;
            WITH candidate AS (
                SELECT b.ticket FROM (VALUES ('modal'), ('toast'), ('hud')) AS l(lane)
                CROSS JOIN LATERAL (
                    (SELECT c.ticket, c.at_head, c.priority, c.sequence FROM alertd.items AS c
                    WHERE c.state = 'queued' AND c.at_head AND c.session = p_session AND c.lane = l.lane
                    ORDER BY c.sequence DESC LIMIT 1)
                    UNION ALL
                    (SELECT o.ticket, o.at_head, o.priority, o.sequence FROM alertd.items AS o
                    WHERE o.state = 'queued' AND NOT o.at_head AND o.session = p_session AND o.lane = l.lane
                    ORDER BY o.priority DESC, o.sequence LIMIT 1)) AS b
                WHERE l.lane = 'hud' OR (
                    NOT EXISTS (SELECT 1 FROM alertd.sessions AS h WHERE h.session = p_session AND h.hold_until > v_now)
                    AND NOT EXISTS (
                        SELECT 1 FROM alertd.items AS p WHERE p.session = p_session AND p.state = 'presenting' AND p.lane = l.lane))
                ORDER BY b.at_head DESC, CASE WHEN b.at_head THEN b.sequence END DESC, b.priority DESC, b.sequence
                LIMIT 1),
            claimed AS (
                UPDATE alertd.items AS i SET state = CASE WHEN i.lane = 'hud' THEN 'done' ELSE 'presenting' END,
                    deliveries = i.deliveries + 1, lease_until = CASE WHEN i.lane = 'hud' THEN NULL ELSE v_lease END
                FROM candidate WHERE i.ticket = candidate.ticket AND i.state = 'queued'
                RETURNING i.*)
            SELECT * INTO v_item FROM claimed;
            IF v_item.ticket IS NULL THEN
                RETURN;
            END IF;
            RETURN QUERY SELECT v_item.ticket, v_item.session, v_item.content::text, v_item.priority, v_item.lane,
                v_item.dedupe_key, v_item.state, v_item.sequence, v_item.enqueued_at, v_item.expires_at, v_item.deliveries,
                v_item.lease_until, v_item.at_head;
        END
        $$
        """
}
