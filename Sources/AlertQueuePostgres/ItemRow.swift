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
    /// `table` when given. The functions that read windows return these (not `input`, which
    /// only the reads of an item and of a listing need: `columnsWithInput`).
    static func columns(of table: String? = nil) -> String {
        let prefix = table.map { "\($0)." } ?? ""
        return [
            "ticket", "session", "content::text", "priority", "lane", "dedupe_key", "state", "sequence", "enqueued_at",
            "expires_at", "deliveries", "lease_until", "at_head",
        ].map { prefix + $0 }.joined(separator: ", ")
    }

    static let columns = columns()

    /// `columns`, then `input`, `not_before`, `group_id`, `campaign_id` and `pacing`: for
    /// `item(from:withInput: true)`, the reads of an item, a listing, a history page and a
    /// snapshot. (The window functions return none of them: no step but a refresh changes the
    /// schedule, and a refresh writes it from the enqueue; none changes the group or the rule.)
    static let columnsWithInput = columns + ", input, not_before, group_id, campaign_id, pacing"

    /// `columns`, then `not_before`, `group_id`, `campaign_id` and `pacing`: for
    /// `item(from:withSchedule: true)`.
    static let columnsWithSchedule = columns + ", not_before, group_id, campaign_id, pacing"

    /// The item of `row`; its content from `contents`, by its text, when kept there (by text, not
    /// by ticket: another instance may refresh the item's content).
    ///
    /// Read cell by cell (`CellReader`), not with `row.decode` of the thirteen columns' tuple:
    /// postgres-nio's generic decoding looked up type metadata for every cell, 22,500
    /// instructions a row under callgrind, and each enqueue of a batch reads its session's live
    /// items.
    static func item(
        from row: PostgresRow, contents: ContentCache, withInput: Bool = false, withSchedule: Bool = false
    ) throws -> QueueItem {
        var cells = CellReader(row)
        let ticket = try cells.string(), session = try cells.string(), content = try cells.string()
        let priority = try cells.integer(), lane = try cells.string(), dedupeKey = try cells.string()
        let state = try cells.string(), sequence = try cells.integer(), enqueuedAt = try cells.double()
        let expiresAt = try cells.optionalDouble(), deliveries = try cells.integer()
        let leaseUntil = try cells.optionalDouble(), atHead = try cells.bool()
        let input = withInput ? try cells.optionalString() : nil
        let notBefore = withInput || withSchedule ? try cells.optionalDouble() : nil
        let group = withInput || withSchedule ? try cells.optionalString() : nil
        let campaign = withInput || withSchedule ? try cells.optionalString() : nil
        let pacing = withInput || withSchedule ? try cells.optionalString() : nil
        guard let lane = Lane(rawValue: lane), let state = ItemState(rawValue: state) else {
            throw PostgresStoreError.unreadableRow("item \(ticket) has lane \(lane) and state \(state)")
        }
        return QueueItem(
            ticket: ticket, session: session, content: try contents.content(json: content), priority: priority,
            lane: lane, dedupeKey: dedupeKey, state: state, sequence: Int64(sequence),
            enqueuedAt: Date(timeIntervalSince1970: enqueuedAt), expiresAt: expiresAt.map(Date.init(timeIntervalSince1970:)),
            deliveries: deliveries, leaseUntil: leaseUntil.map(Date.init(timeIntervalSince1970:)), atHead: atHead, input: input,
            notBefore: notBefore.map(Date.init(timeIntervalSince1970:)), group: group, campaign: campaign,
            pacing: try pacing.map(Self.pacing(json:)) ?? .none)
    }

    /// An item's rule as `items.pacing` keeps it: its JSON (`Pacing`'s Codable form), nil for none.
    static func json(_ pacing: Pacing) throws -> String? {
        pacing.isNone ? nil : String(decoding: try JSONEncoder().encode(pacing), as: UTF8.self)
    }

    /// The rule `json(_:)` wrote.
    static func pacing(json: String) throws -> Pacing {
        try JSONDecoder().decode(Pacing.self, from: Data(json.utf8))
    }

    static func items(from rows: PostgresRowSequence, contents: ContentCache, withInput: Bool = false) async throws -> [QueueItem] {
        try await rows.collect().map { try item(from: $0, contents: contents, withInput: withInput) }
    }

    static func insert(_ item: QueueItem, contents: ContentCache) throws -> PostgresQuery {
        let content = try contents.json(item.content), pacing = try json(item.pacing)
        return """
            INSERT INTO alertd.items (ticket, session, content, priority, lane, dedupe_key, state, sequence, \
            enqueued_at, expires_at, deliveries, lease_until, at_head, not_before, group_id, campaign_id, pacing)
            VALUES (\(item.ticket), \(item.session), \(content)::jsonb, \(item.priority), \(item.lane.rawValue), \
            \(item.dedupeKey), \(item.state.rawValue), \(item.sequence), \(item.enqueuedAt.timeIntervalSince1970), \
            \(item.expiresAt?.timeIntervalSince1970)::float8, \(item.deliveries), \
            \(item.leaseUntil?.timeIntervalSince1970)::float8, \(item.atHead), \(item.notBefore?.timeIntervalSince1970)::float8, \
            \(item.group), \(item.campaign), \(pacing))
            """
    }

    /// Inserts `items` in one statement (`alertd.insert_items`, with `not_before` and `pacing`); one whose dedupe key a live item
    /// of its session holds fails it (`items_live_dedupe`). Absent times travel as NaN (never a
    /// time) so that each column is one array of `float8`.
    static func insert(_ items: [QueueItem], contents cache: ContentCache) throws -> PostgresQuery {
        let contents = try items.map { try cache.json($0.content) }
        let pacing = try items.map { try json($0.pacing) ?? "" }
        func column<Element>(_ value: (QueueItem) -> Element) -> BinaryArray<Element> { BinaryArray(items.map(value)) }
        return """
            SELECT alertd.insert_items(\(column(\.ticket))::text[], \(column(\.session))::text[], \
            \(BinaryArray(contents))::text[], \(column { Int64($0.priority) })::bigint[], \(column(\.lane.rawValue))::text[], \
            \(column(\.dedupeKey))::text[], \(column(\.state.rawValue))::text[], \(column(\.sequence))::bigint[], \
            \(column(\.enqueuedAt.timeIntervalSince1970))::float8[], \
            \(column { $0.expiresAt?.timeIntervalSince1970 ?? .nan })::float8[], \
            \(column { Int64($0.deliveries) })::bigint[], \
            \(column { $0.leaseUntil?.timeIntervalSince1970 ?? .nan })::float8[], \(column(\.atHead))::boolean[], \
            \(column { $0.notBefore?.timeIntervalSince1970 ?? .nan })::float8[], \(BinaryArray(pacing))::text[])
            """
    }

    /// Writes what a step changed in an item it loaded: `updateRefreshed` for an item in
    /// `items.refreshed`, else `updateProgress`.
    static func update(_ item: QueueItem, in items: SessionItems) throws -> PostgresQuery {
        items.refreshed.contains(item.ticket) ? try updateRefreshed(item) : updateProgress(of: item)
    }

    /// Writes an item a duplicate enqueue refreshed: its progress, and its content, priority,
    /// lane, expiry and schedule (the `live_counts` trigger moves its count).
    static func updateRefreshed(_ item: QueueItem) throws -> PostgresQuery {
        let content = try StoredContent.json(item.content)
        return """
            UPDATE alertd.items SET state = \(item.state.rawValue), deliveries = \(item.deliveries), \
            lease_until = \(item.leaseUntil?.timeIntervalSince1970)::float8, content = \(content)::jsonb, \
            priority = \(item.priority), lane = \(item.lane.rawValue), expires_at = \(item.expiresAt?.timeIntervalSince1970)::float8, \
            not_before = \(item.notBefore?.timeIntervalSince1970)::float8
            WHERE ticket = \(item.ticket)
            """
    }

    /// Writes what a step may change in an item it loaded: its state, deliveries and lease, and
    /// an ack's input when it has one (items are read without it: only an ack gives one, to an
    /// item it makes done, and no step takes one away).
    static func updateProgress(of item: QueueItem) -> PostgresQuery {
        guard let input = item.input else {
            return """
                UPDATE alertd.items SET state = \(item.state.rawValue), deliveries = \(item.deliveries), \
                lease_until = \(item.leaseUntil?.timeIntervalSince1970)::float8
                WHERE ticket = \(item.ticket)
                """
        }
        return """
            UPDATE alertd.items SET state = \(item.state.rawValue), deliveries = \(item.deliveries), \
            lease_until = \(item.leaseUntil?.timeIntervalSince1970)::float8, input = \(input)
            WHERE ticket = \(item.ticket)
            """
    }
}

/// A row's cells in order, read straight from their bytes when they come as this store's
/// columns do (binary `int4`, `int8`, `float8`, `bool`; `text`), else through postgres-nio's
/// own decoding, which gives the same values and names the problem when there is one.
struct CellReader {
    private var cells: PostgresRow.Iterator

    init(_ row: PostgresRow) {
        cells = row.makeIterator()
    }

    private mutating func next() throws -> PostgresCell {
        guard let cell = cells.next() else { throw PostgresStoreError.unreadableRow("a row has fewer columns than an item") }
        return cell
    }

    mutating func string() throws -> String {
        let cell = try next()
        // A text value's bytes are its UTF-8 in either format.
        if cell.dataType == .text, let bytes = cell.bytes { return String(buffer: bytes) }
        return try cell.decode(String.self)
    }

    mutating func integer() throws -> Int {
        let cell = try next()
        if cell.format == .binary, var bytes = cell.bytes {
            if cell.dataType == .int4, bytes.readableBytes == 4, let value = bytes.readInteger(as: Int32.self) { return Int(value) }
            if cell.dataType == .int8, bytes.readableBytes == 8, let value = bytes.readInteger(as: Int64.self) { return Int(value) }
        }
        return try cell.decode(Int.self)
    }

    mutating func double() throws -> Double {
        guard let value = try optionalDouble() else { throw PostgresStoreError.unreadableRow("an item's time is NULL") }
        return value
    }

    mutating func optionalDouble() throws -> Double? {
        let cell = try next()
        guard var bytes = cell.bytes else { return nil }
        if cell.format == .binary, cell.dataType == .float8, bytes.readableBytes == 8, let bits = bytes.readInteger(as: UInt64.self) {
            return Double(bitPattern: bits)
        }
        return try cell.decode(Double.self)
    }

    mutating func optionalString() throws -> String? {
        let cell = try next()
        guard let bytes = cell.bytes else { return nil }
        if cell.dataType == .text { return String(buffer: bytes) }
        return try cell.decode(String.self)
    }

    mutating func bool() throws -> Bool {
        let cell = try next()
        if cell.format == .binary, cell.dataType == .bool, var bytes = cell.bytes, bytes.readableBytes == 1,
            let byte = bytes.readInteger(as: UInt8.self)
        {
            return byte != 0
        }
        return try cell.decode(Bool.self)
    }
}
