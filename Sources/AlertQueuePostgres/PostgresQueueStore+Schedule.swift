import Foundation
import PostgresNIO

/// Scheduled delivery (migration `scheduleItems`): a queued item is not deliverable before
/// `not_before` (seconds since 1970; NULL for most items, which is all the instances of the
/// version before write).
extension PostgresQueueStore {
    static let scheduleSchema: [PostgresQuery] = [
        "ALTER TABLE alertd.items ADD COLUMN not_before double precision",
        // Only scheduled items: an unscheduled enqueue writes no entry; a waiting poll reads its
        // wake-up here (`nextTimedChange`).
        """
        CREATE INDEX items_queued_scheduled ON alertd.items (session, not_before)
        WHERE state = 'queued' AND not_before IS NOT NULL
        """,
        claimNextFunctionV3,
        insertScheduledItemsFunction,
    ]

    /// `claim_next` that steps over items scheduled after `now`, reading the lanes' indexes in
    /// the same order: with nothing scheduled, the first entry is taken as before. Same arguments
    /// and columns, so it replaces the function in place: an instance of the version before,
    /// still running during a rolling upgrade, calls this one (through `claim_next_logged` too)
    /// and delivers no scheduled item early.
    static let claimNextFunctionV3 = PostgresQuery(unsafeSQL: scheduled(claimNextFunctionV2.sql))

    /// `claim_next`'s text with the schedule's condition after each lane's index read (a chain
    /// `c`, the others `o`): the shipped function, changed in that alone.
    private static func scheduled(_ claim: String) -> String {
        var text = claim
        for alias in ["c", "o"] {
            let read = "AND \(alias).session = p_session AND \(alias).lane = l.lane\n"
            precondition(text.components(separatedBy: read).count == 2, "claim_next reads each lane's \(alias) once")
            text = text.replacingOccurrences(
                of: read, with: "AND \(alias).session = p_session AND \(alias).lane = l.lane"
                    + " AND (\(alias).not_before IS NULL OR \(alias).not_before <= v_now)\n")
        }
        return text
    }

    /// `alertd.insert_items` with one more array, `p_not_before` (NaN: none). An overload, so the
    /// version before calls its own. (`ItemRow.insert`.)
    static let insertScheduledItemsFunction: PostgresQuery = """
        CREATE FUNCTION alertd.insert_items(
            p_tickets text[], p_sessions text[], p_contents text[], p_priorities bigint[], p_lanes text[],
            p_dedupe_keys text[], p_states text[], p_sequences bigint[], p_enqueued_at float8[],
            p_expires_at float8[], p_deliveries bigint[], p_lease_until float8[], p_at_head boolean[],
            p_not_before float8[])
        RETURNS void LANGUAGE plpgsql VOLATILE AS $$
        BEGIN
            INSERT INTO alertd.items (ticket, session, content, priority, lane, dedupe_key, state, sequence,
                enqueued_at, expires_at, deliveries, lease_until, at_head, not_before)
            SELECT ticket, session, content::jsonb, priority, lane, dedupe_key, state, sequence, enqueued_at,
                NULLIF(expires_at, 'NaN'), deliveries, NULLIF(lease_until, 'NaN'), at_head,
                NULLIF(not_before, 'NaN')
            FROM unnest(p_tickets, p_sessions, p_contents, p_priorities, p_lanes, p_dedupe_keys, p_states,
                p_sequences, p_enqueued_at, p_expires_at, p_deliveries, p_lease_until, p_at_head, p_not_before)
                AS new(ticket, session, content, priority, lane, dedupe_key, state, sequence, enqueued_at,
                    expires_at, deliveries, lease_until, at_head, not_before)
            ORDER BY sequence;
        END
        $$
        """
}
