import AlertSpec
import Foundation
import GRDB

/// A row of `items`: one queue item as SQLite keeps it. Dates are seconds since 1970 (REAL),
/// the content is JSON text, lane and state are their raw names. Rows are read and written by
/// hand (not through `Codable`) and with cached statements: this is every request's hot path.
struct ItemRecord: Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "items"

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

    enum Columns {
        static let ticket = Column("ticket")
        static let session = Column("session")
        static let content = Column("content")
        static let priority = Column("priority")
        static let lane = Column("lane")
        static let dedupeKey = Column("dedupe_key")
        static let state = Column("state")
        static let sequence = Column("sequence")
        static let enqueuedAt = Column("enqueued_at")
        static let expiresAt = Column("expires_at")
        static let deliveries = Column("deliveries")
        static let leaseUntil = Column("lease_until")
        static let atHead = Column("at_head")
    }

    init(
        ticket: String, session: String, content: String, priority: Int, lane: String, dedupeKey: String,
        state: String, sequence: Int64, enqueuedAt: Double, expiresAt: Double?, deliveries: Int,
        leaseUntil: Double?, atHead: Bool
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
    }

    /// The columns in the order `init(row:)` reads them by position (a lookup by name builds a
    /// name index for every row GRDB decodes).
    static let selection = """
        ticket, session, content, priority, lane, dedupe_key, state, sequence, enqueued_at, expires_at, \
        deliveries, lease_until, at_head
        """

    /// Reads a row selected with `selection`, by position.
    init(row: Row) throws {
        ticket = row[0]
        session = row[1]
        content = row[2]
        priority = row[3]
        lane = row[4]
        dedupeKey = row[5]
        state = row[6]
        sequence = row[7]
        enqueuedAt = row[8]
        expiresAt = row[9]
        deliveries = row[10]
        leaseUntil = row[11]
        atHead = row[12]
    }

    func encode(to container: inout PersistenceContainer) {
        container[Columns.ticket] = ticket
        container[Columns.session] = session
        container[Columns.content] = content
        container[Columns.priority] = priority
        container[Columns.lane] = lane
        container[Columns.dedupeKey] = dedupeKey
        container[Columns.state] = state
        container[Columns.sequence] = sequence
        container[Columns.enqueuedAt] = enqueuedAt
        container[Columns.expiresAt] = expiresAt
        container[Columns.deliveries] = deliveries
        container[Columns.leaseUntil] = leaseUntil
        container[Columns.atHead] = atHead
    }
}

extension ItemRecord {
    init(_ item: QueueItem, contents: ContentCache) throws {
        self.init(
            ticket: item.ticket, session: item.session, content: try contents.json(item.content),
            priority: item.priority, lane: item.lane.rawValue, dedupeKey: item.dedupeKey, state: item.state.rawValue,
            sequence: item.sequence, enqueuedAt: item.enqueuedAt.timeIntervalSince1970,
            expiresAt: item.expiresAt?.timeIntervalSince1970, deliveries: item.deliveries,
            leaseUntil: item.leaseUntil?.timeIntervalSince1970, atHead: item.atHead)
    }

    func item(contents: ContentCache) throws -> QueueItem {
        guard let lane = Lane(rawValue: lane), let state = ItemState(rawValue: state) else {
            throw UnreadableContent(reason: "item \(ticket) has lane \(lane) and state \(state), which this version does not know")
        }
        return QueueItem(
            ticket: ticket, session: session, content: try contents.content(json: content), priority: priority,
            lane: lane, dedupeKey: dedupeKey, state: state, sequence: sequence,
            enqueuedAt: Date(timeIntervalSince1970: enqueuedAt), expiresAt: expiresAt.map(Date.init(timeIntervalSince1970:)),
            deliveries: deliveries, leaseUntil: leaseUntil.map(Date.init(timeIntervalSince1970:)), atHead: atHead)
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

        /// The query's arguments for `session`.
        func arguments(session: String) -> StatementArguments {
            switch self {
            case .live: [session]
            case .listed: [session, session]
            }
        }

        private static let liveSQL = "\(liveSelect) ORDER BY sequence"
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
    static func fetch(
        _ db: Database, session: String, scope: Scope, contents: ContentCache
    ) throws -> [QueueItem] {
        let statement = try db.cachedStatement(sql: scope.sql)
        return try ItemRecord.fetchAll(statement, arguments: scope.arguments(session: session)).map {
            try $0.item(contents: contents)
        }
    }

    /// Whether the session has a queued or presenting item (`items_live_dedupe` answers it).
    static func hasLive(_ db: Database, session: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: hasLiveSQL), arguments: [session]) ?? false
    }

    static let hasLiveSQL = "SELECT EXISTS (SELECT 1 FROM items WHERE session = ? AND \(liveCondition))"

    /// One item of the session.
    static func fetch(
        _ db: Database, session: String, ticket: String, contents: ContentCache
    ) throws -> QueueItem? {
        let statement = try db.cachedStatement(sql: "SELECT \(selection) FROM items WHERE ticket = ? AND session = ?")
        return try ItemRecord.fetchOne(statement, arguments: [ticket, session])?.item(contents: contents)
    }

    /// The largest sequence given so far (0 for an empty store).
    static func lastSequence(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(sequence) FROM items")) ?? 0
    }

    /// Inserts the row (a cached statement: GRDB's generic insert builds its SQL every time).
    func insertRow(_ db: Database) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO items (ticket, session, content, priority, lane, dedupe_key, state, sequence,
                                   enqueued_at, expires_at, deliveries, lease_until, at_head)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        try statement.execute(arguments: [
            ticket, session, content, priority, lane, dedupeKey, state, sequence,
            enqueuedAt, expiresAt, deliveries, leaseUntil, atHead,
        ])
    }

    /// Writes what a step may change in an item it loaded: its state, deliveries and lease.
    static func updateProgress(of item: QueueItem, in db: Database) throws {
        let statement = try db.cachedStatement(
            sql: "UPDATE items SET state = ?, deliveries = ?, lease_until = ? WHERE ticket = ?")
        try statement.execute(arguments: [
            item.state.rawValue, item.deliveries, item.leaseUntil?.timeIntervalSince1970, item.ticket,
        ])
    }
}
