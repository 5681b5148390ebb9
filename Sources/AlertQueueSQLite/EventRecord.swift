import AlertQueue
import Foundation
import GRDB
import GRDBSQLite

/// The `events` table: one row per `ItemEvent`, written in the transaction of the step that
/// made it (at its end: `StagedEvents`). `id` increases in commit order (one writer) and is
/// never given twice, even once old rows are purged or erased, so it is the feed's cursor: the
/// store gives it (`SequenceMemo`, from the largest id kept or `event_floor`, the largest ever
/// deleted). `AUTOINCREMENT` did the same at the price of a `sqlite_sequence` row read and
/// written by every insert: one more page in every commit.
enum EventRecord {
    static let schema = """
        CREATE TABLE events (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            session TEXT NOT NULL,
            ticket TEXT NOT NULL,
            type TEXT NOT NULL,
            at DOUBLE NOT NULL,
            detail TEXT NOT NULL DEFAULT '{}');
        CREATE INDEX events_item ON events(session, ticket, id);
        """

    /// A session's finished items newest first read through this index; its WHERE names two
    /// states, not the four finished ones (see `censusWithoutEphemeralTable`).
    static let historyIndex = """
        CREATE INDEX items_session_finished ON items(session, sequence) WHERE state NOT IN ('queued', 'presenting')
        """

    /// The table again without `AUTOINCREMENT`, its rows kept, and the floor its counter had.
    static let explicitIDs = """
        CREATE TABLE event_floor (id INTEGER PRIMARY KEY CHECK (id = 1), floor INTEGER NOT NULL);
        INSERT INTO event_floor (id, floor) VALUES (1, coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0));
        CREATE TABLE events_kept (
            id INTEGER PRIMARY KEY,
            session TEXT NOT NULL,
            ticket TEXT NOT NULL,
            type TEXT NOT NULL,
            at DOUBLE NOT NULL,
            detail TEXT NOT NULL DEFAULT '{}');
        INSERT INTO events_kept (id, session, ticket, type, at, detail) SELECT id, session, ticket, type, at, detail FROM events;
        DROP TABLE events;
        ALTER TABLE events_kept RENAME TO events;
        CREATE INDEX events_item ON events(session, ticket, id);
        """

    /// Each item lists its events' ids (`items.events`, ",12,57,103"), written with the item row
    /// a step writes anyway, in place of an index of the events by item, which every event
    /// inserted into: a b-tree more, and a page more in every commit (about 9,500 instructions
    /// per request of a cycle, callgrind). The list is filled from that index, then it goes.
    static let idsInItems = """
        ALTER TABLE items ADD COLUMN events TEXT NOT NULL DEFAULT '';
        UPDATE items SET events = coalesce(
            (SELECT group_concat(',' || id, '') FROM (SELECT id FROM events e WHERE e.session = items.session AND e.ticket = items.ticket ORDER BY id)),
            '');
        DROP INDEX events_item;
        """

    /// The ids an item's `events` list holds, as a JSON array, for `json_each`.
    static func idArray(_ column: String) -> String { "json_each('[' || substr(\(column), 2) || ']')" }

    /// The largest id given: kept, or deleted (`event_floor`).
    @Sendable static func lastID(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: lastIDSQL)) ?? 0
    }

    private static let lastIDSQL = "SELECT max(coalesce((SELECT max(id) FROM events), 0), (SELECT floor FROM event_floor))"

    /// Remembers the largest id before events are deleted, so that it is never given again.
    static func raiseFloor(in db: Database) throws {
        try db.execute(sql: "UPDATE event_floor SET floor = max(floor, coalesce((SELECT max(id) FROM events), 0))")
    }

    /// The events of one item, oldest first.
    static func timeline(session: String, ticket: String, in db: Database) throws -> [StoredEvent] {
        var events: [StoredEvent] = []
        try RawBinding.query(timelineSQL, in: db) { statement in
            RawBinding.text(session, to: statement, at: 1)
            RawBinding.text(ticket, to: statement, at: 2)
        } row: { row in
            let type = String.fromStatement(row, atUncheckedIndex: 1) ?? ""
            // A type a newer version wrote is left out rather than failing the whole timeline.
            guard let kind = ItemEvent.Kind(rawValue: type) else { return }
            let event = ItemEvent(
                kind: kind, session: session, ticket: ticket,
                at: Date(timeIntervalSince1970: Double.fromStatement(row, atUncheckedIndex: 2) ?? 0),
                detail: ItemEvent.detail(fromJSON: String.fromStatement(row, atUncheckedIndex: 3) ?? "{}"))
            events.append(StoredEvent(id: Int64.fromStatement(row, atUncheckedIndex: 0) ?? 0, event: event))
        }
        return events
    }

    private static let timelineSQL = """
        SELECT e.id, e.type, e.at, e.detail FROM items i, \(idArray("i.events")) j, events e
        WHERE i.ticket = ?2 AND i.session = ?1 AND e.id = j.value ORDER BY e.id
        """

    /// The session's finished items enqueued before `before`, newest first, at most `limit`.
    static func history(session: String, before: HistoryCursor?, limit: Int, in db: Database) throws -> HistoryPage {
        var items: [QueueItem] = []
        try RawBinding.query(historySQL, in: db) { statement in
            RawBinding.text(session, to: statement, at: 1)
            sqlite3_bind_int64(statement, 2, before?.sequence ?? Int64.max)
            sqlite3_bind_int64(statement, 3, Int64(limit + 1))
        } row: { row in
            items.append(try ItemRecord.item(row: row, contents: ContentCache(limit: 0)))
        }
        let more = items.count > limit
        if more { items.removeLast() }
        return HistoryPage(items: items, next: more ? items.last.map { HistoryCursor(sequence: $0.sequence) } : nil)
    }

    private static let historySQL = """
        SELECT \(ItemRecord.selection) FROM items
        WHERE session = ? AND state NOT IN ('queued', 'presenting') AND sequence < ?
        ORDER BY sequence DESC LIMIT ?
        """
}

extension EventRecord {
    /// Every session's events after `cursor`, in id order (commit order: one writer), with the
    /// alert of each event's item (`items` by its primary key; NULL for an ad-hoc spec).
    static func feed(after cursor: EventCursor?, limit: Int, in db: Database) throws -> EventPage {
        var events: [FeedEvent] = []
        try RawBinding.query(feedSQL, in: db) { statement in
            sqlite3_bind_int64(statement, 1, cursor?.id ?? 0)
            sqlite3_bind_int64(statement, 2, Int64(limit))
        } row: { row in
            guard let kind = ItemEvent.Kind(rawValue: String.fromStatement(row, atUncheckedIndex: 3) ?? "") else { return }
            let event = ItemEvent(
                kind: kind, session: String.fromStatement(row, atUncheckedIndex: 1) ?? "",
                ticket: String.fromStatement(row, atUncheckedIndex: 2) ?? "",
                at: Date(timeIntervalSince1970: Double.fromStatement(row, atUncheckedIndex: 4) ?? 0),
                detail: ItemEvent.detail(fromJSON: String.fromStatement(row, atUncheckedIndex: 5) ?? "{}"))
            events.append(
                FeedEvent(
                    cursor: EventCursor(id: Int64.fromStatement(row, atUncheckedIndex: 0) ?? 0), event: event,
                    alert: String.fromStatement(row, atUncheckedIndex: 6)))
        }
        return EventPage(events: events, next: events.last?.cursor ?? cursor ?? .start)
    }

    private static let feedSQL = """
        SELECT e.id, e.session, e.ticket, e.type, e.at, e.detail, json_extract(i.content, '$.alert')
        FROM events e LEFT JOIN items i ON i.ticket = e.ticket
        WHERE e.id > ? ORDER BY e.id LIMIT ?
        """
}
