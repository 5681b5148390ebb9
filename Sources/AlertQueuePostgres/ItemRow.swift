import AlertQueue
import AlertSpec
import Foundation
import PostgresNIO

/// How a queue item maps to a row of `alertd.items`. Times are seconds since 1970 in
/// `double precision` (as in the SQLite store), so a `Date` comes back exactly as it was written
/// and the two stores compare times alike; `content` is `jsonb` in the same
/// `{"alert", "params"}` / `{"spec"}` form as the SQLite store's.
enum ItemRow {
    /// The columns every read selects, in the order `item(from:)` reads them; qualified with
    /// `table` when given.
    static func columns(of table: String? = nil) -> String {
        let prefix = table.map { "\($0)." } ?? ""
        return [
            "ticket", "session", "content::text", "priority", "lane", "dedupe_key", "state", "sequence", "enqueued_at",
            "expires_at", "deliveries", "lease_until", "at_head",
        ].map { prefix + $0 }.joined(separator: ", ")
    }

    static let columns = columns()

    /// The item of `row`; its content from `contents`, by ticket, when kept there.
    static func item(from row: PostgresRow, contents: ContentCache) throws -> QueueItem {
        let (ticket, session, content, priority, lane, dedupeKey, state, sequence, enqueuedAt, expiresAt, deliveries,
            leaseUntil, atHead) = try row.decode(
                (String, String, String, Int, String, String, String, Int64, Double, Double?, Int, Double?, Bool).self)
        guard let lane = Lane(rawValue: lane), let state = ItemState(rawValue: state) else {
            throw PostgresStoreError.unreadableRow("item \(ticket) has lane \(lane) and state \(state)")
        }
        return QueueItem(
            ticket: ticket, session: session, content: try contents.content(json: content, key: ticket), priority: priority,
            lane: lane, dedupeKey: dedupeKey, state: state, sequence: sequence,
            enqueuedAt: Date(timeIntervalSince1970: enqueuedAt), expiresAt: expiresAt.map(Date.init(timeIntervalSince1970:)),
            deliveries: deliveries, leaseUntil: leaseUntil.map(Date.init(timeIntervalSince1970:)), atHead: atHead)
    }

    static func items(from rows: PostgresRowSequence, contents: ContentCache) async throws -> [QueueItem] {
        try await rows.collect().map { try item(from: $0, contents: contents) }
    }

    static func insert(_ item: QueueItem, contents: ContentCache) throws -> PostgresQuery {
        let content = try contents.json(item.content, key: item.ticket)
        return """
            INSERT INTO alertd.items (ticket, session, content, priority, lane, dedupe_key, state, sequence, \
            enqueued_at, expires_at, deliveries, lease_until, at_head)
            VALUES (\(item.ticket), \(item.session), \(content)::jsonb, \(item.priority), \(item.lane.rawValue), \
            \(item.dedupeKey), \(item.state.rawValue), \(item.sequence), \(item.enqueuedAt.timeIntervalSince1970), \
            \(item.expiresAt?.timeIntervalSince1970)::float8, \(item.deliveries), \
            \(item.leaseUntil?.timeIntervalSince1970)::float8, \(item.atHead))
            """
    }

    /// Inserts `items` in one statement; one whose dedupe key a live item of its session holds
    /// fails it (`items_live_dedupe`). Absent times travel as NaN (never a time) so that each
    /// column is one array of `float8`.
    static func insert(_ items: [QueueItem], contents cache: ContentCache) throws -> PostgresQuery {
        let contents = try items.map { try cache.json($0.content, key: $0.ticket) }
        return """
            INSERT INTO alertd.items (ticket, session, content, priority, lane, dedupe_key, state, sequence, \
            enqueued_at, expires_at, deliveries, lease_until, at_head)
            SELECT ticket, session, content::jsonb, priority, lane, dedupe_key, state, sequence, enqueued_at, \
            NULLIF(expires_at, 'NaN'), deliveries, NULLIF(lease_until, 'NaN'), at_head
            FROM unnest(\(items.map(\.ticket))::text[], \(items.map(\.session))::text[], \(contents)::text[], \
            \(items.map { Int64($0.priority) })::bigint[], \(items.map(\.lane.rawValue))::text[], \
            \(items.map(\.dedupeKey))::text[], \(items.map(\.state.rawValue))::text[], \(items.map(\.sequence))::bigint[], \
            \(items.map(\.enqueuedAt.timeIntervalSince1970))::float8[], \
            \(items.map { $0.expiresAt?.timeIntervalSince1970 ?? .nan })::float8[], \
            \(items.map { Int64($0.deliveries) })::bigint[], \
            \(items.map { $0.leaseUntil?.timeIntervalSince1970 ?? .nan })::float8[], \(items.map(\.atHead))::boolean[])
                AS new(ticket, session, content, priority, lane, dedupe_key, state, sequence, enqueued_at, expires_at, \
                deliveries, lease_until, at_head)
            ORDER BY sequence
            """
    }

    /// Writes what a step may change in an item it loaded: its state, deliveries and lease.
    static func updateProgress(of item: QueueItem) -> PostgresQuery {
        """
        UPDATE alertd.items SET state = \(item.state.rawValue), deliveries = \(item.deliveries), \
        lease_until = \(item.leaseUntil?.timeIntervalSince1970)::float8
        WHERE ticket = \(item.ticket)
        """
    }
}

