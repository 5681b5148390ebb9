import AlertQueue
import AlertSpec
import Foundation
import GRDB
import GRDBSQLite

/// A row of `items`: one queue item as SQLite keeps it. Dates are seconds since 1970 (REAL),
/// the content is JSON text, lane and state are their raw names. Rows are read and written by
/// hand, with cached statements and by column position (not through GRDB's records or
/// `Codable`): this is every request's hot path.
struct ItemRecord: Sendable, Equatable {
    var ticket: String
    var session: String
    var content: String
    var priority: Int
    var lane: String
    var dedupeKey: String
    var state: String
    var sequence: Int64
    var enqueuedAt: Double
    var expiresAt: Double?
    var deliveries: Int
    var leaseUntil: Double?
    var atHead: Bool
    var notBefore: Double?
    var group: String?
    var campaign: String?
    /// Its pacing rule as JSON (`PacingRecord`), nil for none.
    var pacing: String?

    init(
        ticket: String, session: String, content: String, priority: Int, lane: String, dedupeKey: String,
        state: String, sequence: Int64, enqueuedAt: Double, expiresAt: Double?, deliveries: Int,
        leaseUntil: Double?, atHead: Bool, notBefore: Double? = nil, group: String? = nil, campaign: String? = nil,
        pacing: String? = nil
    ) {
        self.ticket = ticket
        self.session = session
        self.content = content
        self.priority = priority
        self.lane = lane
        self.dedupeKey = dedupeKey
        self.state = state
        self.sequence = sequence
        self.enqueuedAt = enqueuedAt
        self.expiresAt = expiresAt
        self.deliveries = deliveries
        self.leaseUntil = leaseUntil
        self.atHead = atHead
        self.notBefore = notBefore
        self.group = group
        self.campaign = campaign
        self.pacing = pacing
    }

    /// The columns in the order `ItemRecordCursor` reads them by position.
    static let selection = """
        ticket, session, content, priority, lane, dedupe_key, state, sequence, enqueued_at, expires_at, \
        deliveries, lease_until, at_head, input, not_before, group_id, campaign_id, pacing
        """
}

extension ItemRecord {
    init(_ item: QueueItem, contents: ContentCache) throws {
        self.init(
            ticket: item.ticket, session: item.session, content: try contents.json(item.content, key: item.ticket),
            priority: item.priority, lane: item.lane.rawValue, dedupeKey: item.dedupeKey, state: item.state.rawValue,
            sequence: item.sequence, enqueuedAt: item.enqueuedAt.timeIntervalSince1970,
            expiresAt: item.expiresAt?.timeIntervalSince1970, deliveries: item.deliveries,
            leaseUntil: item.leaseUntil?.timeIntervalSince1970, atHead: item.atHead,
            notBefore: item.notBefore?.timeIntervalSince1970, group: item.group, campaign: item.campaign,
            pacing: try PacingRecord.json(item.pacing))
    }

    /// Which of a session's items a step reads.
    enum Scope {
        /// Queued and presenting, as every step.
        case live
        /// Live and dead, as the listing.
        case listed

        /// The query, with the session once per `?`.
        var sql: String {
            switch self {
            case .live: Self.liveSQL
            case .listed: Self.listedSQL
            }
        }

        /// How many times the query takes the session (its `?`s).
        var sessionParameters: CInt {
            switch self {
            case .live: 1
            case .listed: 2
            }
        }

        /// In no particular order: `fetch` sorts the live items.
        private static let liveSQL = liveSelect
        private static let listedSQL = """
            \(liveSelect) UNION ALL SELECT \(selection) FROM items WHERE session = ? AND state = 'dead' ORDER BY sequence
            """
        private static let liveSelect = "SELECT \(selection) FROM items WHERE session = ? AND \(liveCondition)"
    }

    /// The WHERE of the partial index `items_live_dedupe`, word for word: SQLite reads a query
    /// through a partial index only when the query repeats it.
    private static let liveCondition = "state IN ('queued', 'presenting')"

    /// The session's items in `scope`, oldest first. Each part is read through its partial
    /// index: the live items through `items_live_dedupe`, whose WHERE these queries repeat word
    /// for word (SQLite uses a partial index only then), the dead ones through
    /// `items_session_dead`.
    ///
    /// The live items, which every step reads, are sorted here: with `ORDER BY`, SQLite set up a
    /// sorter for their few rows on every query (about 5,000 instructions a step under
    /// `make bench-instructions`).
    static func fetch(
        _ db: Database, session: String, scope: Scope, contents: ContentCache
    ) throws -> [QueueItem] {
        var items: [QueueItem] = []
        try RawBinding.query(scope.sql, in: db) { statement in
            for index in 1...scope.sessionParameters { RawBinding.text(session, to: statement, at: index) }
        } row: { row in
            items.append(try ItemRecord.item(row: row, contents: contents))
        }
        if scope == .live { items.sort { $0.sequence < $1.sequence } }
        return items
    }

    /// Whether the session has a queued or presenting item (`items_live_dedupe` answers it).
    static func hasLive(_ db: Database, session: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: hasLiveSQL), arguments: [session]) ?? false
    }

    static let hasLiveSQL = "SELECT EXISTS (SELECT 1 FROM items WHERE session = ? AND \(liveCondition))"

    /// Live items by lane and state, queued items past their TTL counted as expired (`?`: now).
    /// Its WHERE is the partial index `items_census_live`'s, word for word, so the index alone
    /// answers, at a cost that grows with the live items only, never with the history.
    static let censusSQL = """
        SELECT lane, CASE WHEN state = 'queued' AND expires_at <= ? THEN 'expired' ELSE state END AS counted, count(*)
        FROM items INDEXED BY items_census_live WHERE state IN ('queued', 'presenting')
        GROUP BY lane, counted
        """

    /// One item of the session.
    static func fetch(
        _ db: Database, session: String, ticket: String, contents: ContentCache
    ) throws -> QueueItem? {
        // The ticket is unique: at most one row, read to the end so that the statement is done.
        var found: QueueItem?
        try RawBinding.query(bySessionAndTicketSQL, in: db) { statement in
            RawBinding.text(ticket, to: statement, at: 1)
            RawBinding.text(session, to: statement, at: 2)
        } row: { row in
            found = try ItemRecord.item(row: row, contents: contents)
        }
        return found
    }

    static let bySessionAndTicketSQL = "SELECT \(selection) FROM items WHERE ticket = ? AND session = ?"

    /// The largest sequence given so far (0 for an empty store).
    static func lastSequence(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(sequence) FROM items")) ?? 0
    }

    /// Inserts the row: GRDB's cached statement, its values bound and the statement stepped
    /// through SQLite's own functions.
    ///
    /// `Statement.execute(arguments:)` boxed the 13 values as `DatabaseValue`s in an array and
    /// told GRDB's observation of every statement before and after: 14,000 of the insert's 56,000
    /// instructions per enqueue (`make bench-instructions`). GRDB supports this use of its
    /// statements (its "Raw SQLite Pointers"; see `RawBinding.execute`). A broken constraint throws GRDB's `DatabaseError`, with
    /// SQLite's extended code, as `execute` did (the enqueue recognizes a duplicate by it).
    /// Never inlined, so that `make bench-instructions` still counts it as a part.
    @inline(never)
    func insertRow(_ db: Database, events: String = "") throws {
        try RawBinding.execute(Self.insertSQL, in: db, bindsAll: true) { statement in
            RawBinding.text(ticket, to: statement, at: 1)
            RawBinding.text(session, to: statement, at: 2)
            RawBinding.text(content, to: statement, at: 3)
            sqlite3_bind_int64(statement, 4, Int64(priority))
            RawBinding.text(lane, to: statement, at: 5)
            RawBinding.text(dedupeKey, to: statement, at: 6)
            RawBinding.text(state, to: statement, at: 7)
            sqlite3_bind_int64(statement, 8, sequence)
            sqlite3_bind_double(statement, 9, enqueuedAt)
            RawBinding.double(expiresAt, to: statement, at: 10)
            sqlite3_bind_int64(statement, 11, Int64(deliveries))
            RawBinding.double(leaseUntil, to: statement, at: 12)
            sqlite3_bind_int64(statement, 13, atHead ? 1 : 0)
            RawBinding.double(notBefore, to: statement, at: 14)
            RawBinding.text(events, to: statement, at: 15)
            if let group { RawBinding.text(group, to: statement, at: 16) } else { sqlite3_bind_null(statement, 16) }
            if let campaign { RawBinding.text(campaign, to: statement, at: 17) } else { sqlite3_bind_null(statement, 17) }
            if let pacing { RawBinding.text(pacing, to: statement, at: 18) } else { sqlite3_bind_null(statement, 18) }
        }
    }

    /// `events`: the ids of its events so far (",12,57"; see `EventRecord.idsInItems`).
    static let insertSQL = """
        INSERT INTO items (ticket, session, content, priority, lane, dedupe_key, state, sequence,
                           enqueued_at, expires_at, deliveries, lease_until, at_head, not_before, events, group_id,
                           campaign_id, pacing)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Writes what a step may change in an item it loaded: its state, deliveries and lease, and
    /// an ack's input when it has one (only an ack gives one, to an item it makes done; no step
    /// takes one away). Its values are bound as `insertRow` binds them.
    /// `events` is appended to its list of event ids.
    static func updateProgress(of item: QueueItem, appending events: String, in db: Database) throws {
        try RawBinding.execute(item.input == nil ? updateProgressSQL : updateProgressWithInputSQL, in: db, bindsAll: true) { statement in
            RawBinding.text(item.state.rawValue, to: statement, at: 1)
            sqlite3_bind_int64(statement, 2, Int64(item.deliveries))
            RawBinding.double(item.leaseUntil?.timeIntervalSince1970, to: statement, at: 3)
            RawBinding.text(item.ticket, to: statement, at: 4)
            RawBinding.text(events, to: statement, at: 5)
            if let input = item.input { RawBinding.text(input, to: statement, at: 6) }
        }
    }

    static let updateProgressSQL =
        "UPDATE items SET state = ?1, deliveries = ?2, lease_until = ?3, events = events || ?5 WHERE ticket = ?4"
    static let updateProgressWithInputSQL =
        "UPDATE items SET state = ?1, deliveries = ?2, lease_until = ?3, events = events || ?5, input = ?6 WHERE ticket = ?4"

    /// Appends `events` to the list of an item the step did not write otherwise.
    static func appendEvents(_ events: String, ticket: String, in db: Database) throws {
        try RawBinding.execute("UPDATE items SET events = events || ?1 WHERE ticket = ?2", in: db, bindsAll: true) { statement in
            RawBinding.text(events, to: statement, at: 1)
            RawBinding.text(ticket, to: statement, at: 2)
        }
    }

    /// Writes an item a duplicate enqueue refreshed: its progress, and its content, priority,
    /// lane, expiry and schedule (`live_counts_move` moves its count); `events` is appended to its
    /// list of event ids.
    static func updateRefreshed(_ item: QueueItem, appending events: String, in db: Database) throws {
        let content = try StoredContent.json(item.content)
        try RawBinding.execute(updateRefreshedSQL, in: db) { statement in
            RawBinding.text(item.state.rawValue, to: statement, at: 1)
            sqlite3_bind_int64(statement, 2, Int64(item.deliveries))
            RawBinding.double(item.leaseUntil?.timeIntervalSince1970, to: statement, at: 3)
            RawBinding.text(content, to: statement, at: 4)
            sqlite3_bind_int64(statement, 5, Int64(item.priority))
            RawBinding.text(item.lane.rawValue, to: statement, at: 6)
            RawBinding.double(item.expiresAt?.timeIntervalSince1970, to: statement, at: 7)
            RawBinding.text(item.ticket, to: statement, at: 8)
            RawBinding.double(item.notBefore?.timeIntervalSince1970, to: statement, at: 9)
            RawBinding.text(events, to: statement, at: 10)
        }
    }

    static let updateRefreshedSQL = """
        UPDATE items SET state = ?1, deliveries = ?2, lease_until = ?3, content = ?4, priority = ?5, lane = ?6, expires_at = ?7,
            not_before = ?9, events = events || ?10
        WHERE ticket = ?8
        """
}

extension ItemRecord {
    /// The item of the row `statement` is at, which selects `ItemRecord.selection`, read by
    /// position.
    ///
    /// Rows are read straight from SQLite's statement, not through GRDB's cursors: a record
    /// cursor builds a `Row` for every fetch, and with it a dictionary of the statement's column
    /// names, each copied and lowercased, for lookups by name these reads never make (a fifth
    /// of a session's load, perf, scripts/bench-queue.sh); a statement's arguments were boxed
    /// as `DatabaseValue`s in an array, and GRDB's observation told before and after (4,000 of
    /// the 19,800 instructions a load took per enqueue, `make bench-instructions`).
    ///
    /// The content is found in `contents` by the ticket, and its text read only when it is not
    /// there: every step loads the session's live items, and making a String of each one's
    /// JSON, then hashing it to find the content, was most of reading a row.
    static func item(row: OpaquePointer, contents: ContentCache) throws -> QueueItem {
        let ticket: String = try column(row, 0)
        let laneName: String = try column(row, 4), stateName: String = try column(row, 6)
        guard let lane = Lane(rawValue: laneName), let state = ItemState(rawValue: stateName) else {
            throw UnreadableContent(reason: "item \(ticket) has lane \(laneName) and state \(stateName), which this version does not know")
        }
        return QueueItem(
            ticket: ticket, session: try column(row, 1), content: try contents.content(key: ticket) { try column(row, 2) },
            priority: try column(row, 3), lane: lane, dedupeKey: try column(row, 5), state: state,
            sequence: try column(row, 7), enqueuedAt: Date(timeIntervalSince1970: try column(row, 8)),
            expiresAt: Double.fromStatement(row, atUncheckedIndex: 9).map(Date.init(timeIntervalSince1970:)),
            deliveries: try column(row, 10),
            leaseUntil: Double.fromStatement(row, atUncheckedIndex: 11).map(Date.init(timeIntervalSince1970:)),
            atHead: try column(row, 12), input: String.fromStatement(row, atUncheckedIndex: 13),
            notBefore: Double.fromStatement(row, atUncheckedIndex: 14).map(Date.init(timeIntervalSince1970:)),
            group: String.fromStatement(row, atUncheckedIndex: 15), campaign: String.fromStatement(row, atUncheckedIndex: 16),
            pacing: try PacingRecord.pacing(String.fromStatement(row, atUncheckedIndex: 17)))
    }

    /// The value of a NOT NULL column.
    private static func column<Value: StatementColumnConvertible>(_ row: OpaquePointer, _ index: CInt) throws -> Value {
        guard let value = Value.fromStatement(row, atUncheckedIndex: index) else {
            let name = ItemRecord.selection.split(separator: ",")[Int(index)].trimmingCharacters(in: .whitespacesAndNewlines)
            throw UnreadableContent(reason: "an item's \(name) is NULL")
        }
        return value
    }
}
