import PostgresNIO

/// The pages of a campaign's audience that one index gives in order (migration
/// `audiencePages`): a topic's sessions after a session (`session_topics`' key), an explicit
/// list's from a position (`campaign_sessions`' key). Sorting and bitmap scans are off for
/// their one query: with statistics taken before the topic or the list filled (a topic that
/// grows fast, sessions registered in bulk), the planner read every session after the cursor
/// and sorted them for each page of 500, 3 ms a page at 15,000 sessions and growing with the
/// audience; read in the key's order, a page is its own entries.
extension PostgresQueueStore {
    static let audiencePagesFunctions: [PostgresQuery] = [
        """
        CREATE FUNCTION alertd.topic_page(p_topic text, p_after text, p_limit integer) RETURNS SETOF text
        LANGUAGE sql STABLE SET enable_sort = off SET enable_bitmapscan = off AS $$
            SELECT t.session FROM alertd.session_topics AS t WHERE t.topic = p_topic AND t.session > p_after
            ORDER BY t.session LIMIT p_limit
        $$
        """,
        """
        CREATE FUNCTION alertd.list_page(p_campaign text, p_from integer, p_limit integer) RETURNS SETOF text
        LANGUAGE sql STABLE SET enable_sort = off SET enable_bitmapscan = off AS $$
            SELECT c.session FROM alertd.campaign_sessions AS c WHERE c.campaign = p_campaign AND c.position >= p_from
            ORDER BY c.position LIMIT p_limit
        $$
        """,
    ]
}
