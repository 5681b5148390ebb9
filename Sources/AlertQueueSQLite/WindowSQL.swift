import AlertSpec

/// The queries that read a window of a session (`SessionWindow`), each through a partial index:
/// `?1` is the session. Their WHEREs repeat the indexes' word for word, as SQLite needs.
enum WindowSQL {
    /// How far past `now` a TTL counts as ended for the window: the SQL compares seconds since
    /// 1970 where the policy compares `Date`s, which may round differently. An item in between
    /// is read as due and left to the policy to decide; the best-item query reads past them.
    static let margin = 0.001

    /// The presenting items (`items_presenting`), and the queued ones whose TTL ended by `?2`
    /// (`items_queued_expiry`, which holds only items with a TTL: most have none, and each
    /// index entry is one more page an insert may write).
    static let due = """
        SELECT \(ItemRecord.selection) FROM items WHERE session = ?1 AND state = 'presenting'
        UNION ALL
        SELECT \(ItemRecord.selection) FROM items
        WHERE session = ?1 AND state = 'queued' AND expires_at NOTNULL AND expires_at <= ?2
        """

    /// The first queued item of each lane in delivery order among those whose TTL has not ended
    /// by `?2` and that are not scheduled after `?3`: the newest chain (`items_queued_chains`),
    /// and the best other item (`items_queued_order`). The policy picks among them as `precedes`
    /// says. An item scheduled for later is stepped over, one row each, in the index's order;
    /// with none, the condition costs a NULL test of the first row.
    static let best = Lane.allCases.map { lane in
        let live = """
            session = ?1 AND lane = '\(lane.rawValue)' AND (expires_at IS NULL OR expires_at > ?2) \
            AND (not_before IS NULL OR not_before <= ?3)
            """
        return """
            SELECT * FROM (SELECT \(ItemRecord.selection) FROM items
                WHERE state = 'queued' AND at_head = 1 AND \(live) ORDER BY sequence DESC LIMIT 1)
            UNION ALL
            SELECT * FROM (SELECT \(ItemRecord.selection) FROM items
                WHERE state = 'queued' AND at_head = 0 AND \(live) ORDER BY priority DESC, sequence LIMIT 1)
            """
    }.joined(separator: "\nUNION ALL\n")

    /// The live item with the dedupe key `?2` (`items_live_dedupe`).
    static let holder = """
        SELECT \(ItemRecord.selection) FROM items WHERE session = ?1 AND dedupe_key = ?2 AND state IN ('queued', 'presenting')
        """

    /// The queued HUDs, which a new HUD cancels.
    static let queuedHUDs = """
        SELECT \(ItemRecord.selection) FROM items WHERE state = 'queued' AND at_head = 1 AND session = ?1 AND lane = 'hud'
        UNION ALL
        SELECT \(ItemRecord.selection) FROM items WHERE state = 'queued' AND at_head = 0 AND session = ?1 AND lane = 'hud'
        """

    /// The first time after `?2` at which the session's hold ends or a queued item comes due
    /// (`items_queued_scheduled`, which holds only scheduled items); NULL when neither is ahead.
    static let nextTimedChange = """
        SELECT min(t) FROM (
            SELECT until AS t FROM holds WHERE session = ?1 AND until > ?2
            UNION ALL
            SELECT min(not_before) FROM items WHERE state = 'queued' AND not_before NOTNULL AND session = ?1 AND not_before > ?2)
        """

    /// Queued chains of lane `?2` newer than sequence `?3`: those ahead of a queued chain.
    static let chainsAhead = """
        SELECT count(*) FROM items
        WHERE state = 'queued' AND at_head = 1 AND session = ?1 AND lane = ?2 AND sequence > ?3
        """

    /// Queued items of lane `?2`, not chains, of priority `?3` and older than sequence `?4`.
    static let samePriorityAhead = """
        SELECT count(*) FROM items
        WHERE state = 'queued' AND at_head = 0 AND session = ?1 AND lane = ?2 AND priority = ?3 AND sequence < ?4
        """
}
