import PostgresNIO

/// Pacing (migration `pacing`): each item's rule in `items.pacing` (its `Pacing` as JSON, NULL
/// for none), the sessions that may have queued paced items (`sessions.paced`), the paced
/// deliveries in `alertd.pacing_shown`, `insert_items` writing the rule, and
/// `alertd.deliver_unpaced`, the one-statement `next` that leaves paced sessions to Swift.
extension PostgresQueueStore {
    static let pacingSchema: [PostgresQuery] = [
        "ALTER TABLE alertd.items ADD COLUMN pacing text",
        // Set by the insert of a paced item, cleared by the paced step that finds none queued:
        // the claim reads it from the row it locks anyway. (An index of paced items instead cost
        // every plan over `alertd.items` 6 to 7 pages, and its check 13 more, `PostgresPlanTests`.)
        "ALTER TABLE alertd.sessions ADD COLUMN paced boolean NOT NULL DEFAULT false",
        """
        CREATE FUNCTION alertd.mark_paced() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO alertd.sessions AS s (session, paced) VALUES (NEW.session, true)
            ON CONFLICT (session) DO UPDATE SET paced = true WHERE NOT s.paced;
            RETURN NULL;
        END
        $$
        """,
        """
        CREATE TRIGGER items_mark_paced AFTER INSERT ON alertd.items FOR EACH ROW
        WHEN (NEW.pacing IS NOT NULL) EXECUTE FUNCTION alertd.mark_paced()
        """,
        // One row per delivery of a paced item and scope: `s:<session>`, and `u:<user>` when the
        // session has a user. Kept beyond `Pacing.maxPeriod`: "once" counts them however old.
        """
        CREATE TABLE alertd.pacing_shown (
            scope text NOT NULL,
            alert text NOT NULL,
            -- Seconds since 1970: the step's time.
            at double precision NOT NULL
        )
        """,
        "CREATE INDEX pacing_shown_key ON alertd.pacing_shown (scope, alert, at)",
        insertPacedItemsFunction,
        deliverUnpacedFunction,
    ]

    /// `alertd.insert_items` with one more array, `p_pacing` ('' for none). An overload, so the
    /// version before calls its own. (`ItemRow.insert`.)
    static let insertPacedItemsFunction: PostgresQuery = """
        CREATE FUNCTION alertd.insert_items(
            p_tickets text[], p_sessions text[], p_contents text[], p_priorities bigint[], p_lanes text[],
            p_dedupe_keys text[], p_states text[], p_sequences bigint[], p_enqueued_at float8[],
            p_expires_at float8[], p_deliveries bigint[], p_lease_until float8[], p_at_head boolean[],
            p_not_before float8[], p_pacing text[])
        RETURNS void LANGUAGE plpgsql VOLATILE AS $$
        BEGIN
            INSERT INTO alertd.items (ticket, session, content, priority, lane, dedupe_key, state, sequence,
                enqueued_at, expires_at, deliveries, lease_until, at_head, not_before, pacing)
            SELECT ticket, session, content::jsonb, priority, lane, dedupe_key, state, sequence, enqueued_at,
                NULLIF(expires_at, 'NaN'), deliveries, NULLIF(lease_until, 'NaN'), at_head,
                NULLIF(not_before, 'NaN'), NULLIF(pacing, '')
            FROM unnest(p_tickets, p_sessions, p_contents, p_priorities, p_lanes, p_dedupe_keys, p_states,
                p_sequences, p_enqueued_at, p_expires_at, p_deliveries, p_lease_until, p_at_head, p_not_before, p_pacing)
                AS new(ticket, session, content, priority, lane, dedupe_key, state, sequence, enqueued_at,
                    expires_at, deliveries, lease_until, at_head, not_before, pacing)
            ORDER BY sequence;
        END
        $$
        """

    /// `alertd.deliver_unpaced(...)`: `next_delivery`'s arguments, `p_withdraws` and `p_paced`
    /// (the server paces every session), its columns and `o_paced`. Takes a withdraw owed to
    /// the session first when `p_withdraws` (as `next_delivery` does); else locks the session's
    /// row and, when it is marked `paced` (or `p_paced`, or a profile applies to it),
    /// claims nothing and answers one row with `o_paced` true, for the caller to take the step
    /// in Swift (`pacedNext`); else claims as `claim_next_logged` (or `claim_next`, unlogged).
    /// The mark is read from the row locked, so no paced enqueue slips in before the claim.
    static let deliverUnpacedFunction: PostgresQuery = """
        CREATE FUNCTION alertd.deliver_unpaced(
            p_session text, p_now float8, p_lease_until float8, p_lease_duration float8, p_max_deliveries integer,
            p_logged boolean, p_withdraws boolean, p_paced boolean)
        RETURNS TABLE (
            o_ticket text, o_session text, o_content text, o_priority integer, o_lane text, o_dedupe_key text,
            o_state text, o_sequence bigint, o_enqueued_at float8, o_expires_at float8, o_deliveries integer,
            o_lease_until float8, o_at_head boolean, o_withdraw text, o_paced boolean)
        LANGUAGE plpgsql VOLATILE AS $$
        DECLARE
            v_withdraw text;
            v_paced boolean;
        BEGIN
            IF p_withdraws THEN
                DELETE FROM alertd.withdrawals AS w
                WHERE w.session = p_session AND w.ticket = (
                    SELECT x.ticket FROM alertd.withdrawals AS x WHERE x.session = p_session
                    ORDER BY x.at, x.ticket LIMIT 1 FOR UPDATE SKIP LOCKED)
                RETURNING w.ticket INTO v_withdraw;
            END IF;
            IF v_withdraw IS NULL THEN
                SELECT s.paced INTO v_paced FROM alertd.sessions AS s WHERE s.session = p_session FOR UPDATE;
                -- A session with a profile of its own or of its user's is paced too.
                v_paced := p_paced OR coalesce(v_paced, false) OR EXISTS (
                    SELECT 1 FROM alertd.profiles AS f WHERE f.owner = 's:' || p_session OR f.owner = (
                        SELECT 'u:' || k.user_id FROM alertd.sessions_known AS k WHERE k.session = p_session));
            END IF;
            IF v_withdraw IS NOT NULL OR v_paced THEN
                RETURN QUERY SELECT NULL::text, NULL::text, NULL::text, NULL::integer, NULL::text, NULL::text, NULL::text,
                    NULL::bigint, NULL::float8, NULL::float8, NULL::integer, NULL::float8, NULL::boolean, v_withdraw,
                    v_withdraw IS NULL;
                RETURN;
            END IF;
            IF p_logged THEN
                RETURN QUERY SELECT c.*, NULL::text, false
                FROM alertd.claim_next_logged(p_session, p_now, p_lease_until, p_lease_duration, p_max_deliveries) AS c;
            ELSE
                RETURN QUERY SELECT c.*, NULL::text, false
                FROM alertd.claim_next(p_session, p_now, p_lease_until, p_lease_duration, p_max_deliveries) AS c;
            END IF;
        END
        $$
        """
}
