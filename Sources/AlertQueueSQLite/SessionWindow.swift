import AlertQueue
import AlertSpec
import Foundation
import GRDB
import GRDBSQLite

/// The items of a session one step can touch, read through indexes, so that a step costs the
/// same on a session of 10,000 items as on an empty one (see `SessionItems.Unloaded`). Every
/// step reads the presenting items and the queued ones whose TTL ended (`prepare` changes
/// them); the rest is read as the step needs it. An item read twice is kept once.
struct SessionWindow {
    let session: String
    let now: Date
    let db: Database
    let contents: ContentCache
    private(set) var items: [QueueItem] = []
    private var tickets: Set<String> = []

    init(session: String, now: Date, in db: Database, contents: ContentCache) throws {
        self.session = session
        self.now = now
        self.db = db
        self.contents = contents
        try read(WindowSQL.due) { sqlite3_bind_double($0, 2, now.timeIntervalSince1970 + WindowSQL.margin) }
    }

    /// The first queued item of each lane, for a delivery.
    mutating func readBest() throws {
        let bound = now.timeIntervalSince1970 + WindowSQL.margin
        // A scheduled item due within the margin is left for the next look: the policy, not the
        // SQL, says it is due, and a poll woken for it looks again.
        let due = now.timeIntervalSince1970
        try read(WindowSQL.best) { statement in
            sqlite3_bind_double(statement, 2, bound)
            sqlite3_bind_double(statement, 3, due)
        }
    }

    /// Every live item of the session, as a step without a window reads them.
    mutating func readLive() throws {
        for item in try ItemRecord.fetch(db, session: session, scope: .live, contents: contents) where !tickets.contains(item.ticket) {
            add(item)
        }
    }

    /// The live item with `dedupeKey`, if any.
    mutating func readHolder(of dedupeKey: String) throws {
        try read(WindowSQL.holder) { RawBinding.text(dedupeKey, to: $0, at: 2) }
    }

    /// The queued HUDs, which a new HUD cancels.
    mutating func readQueuedHUDs() throws {
        try read(WindowSQL.queuedHUDs) { _ in }
    }

    /// The item `ticket` of the session, in whatever state.
    mutating func readTicket(_ ticket: String) throws {
        if tickets.contains(ticket) { return }
        if let item = try ItemRecord.fetch(db, session: session, ticket: ticket, contents: contents) { add(item) }
    }

    /// The items read, oldest first, as a step's items. `unloaded` is counted only for a step
    /// that limits the queue or reports a position (an enqueue); the others need none of it.
    func sessionItems(unloaded: SessionItems.Unloaded = .none) -> SessionItems {
        SessionItems(session: session, items: items.sorted { $0.sequence < $1.sequence }, unloaded: unloaded)
    }

    private mutating func read(_ sql: String, bind: (OpaquePointer) -> Void) throws {
        let (session, contents) = (session, contents)
        var found: [QueueItem] = []
        try RawBinding.query(sql, in: db) { statement in
            RawBinding.text(session, to: statement, at: 1)
            bind(statement)
        } row: { row in
            found.append(try ItemRecord.item(row: row, contents: contents))
        }
        for item in found { add(item) }
    }

    private mutating func add(_ item: QueueItem) {
        if tickets.insert(item.ticket).inserted { items.append(item) }
    }
}

extension SessionWindow {
    /// What the window leaves out, for an enqueue: how many live items, and for each of
    /// `positioned` (the item to queue, not yet inserted, and the live item with its dedupe key)
    /// how many queued items of its lane ahead of it. `live_counts` answers all but the place of
    /// an item already queued among those of its own priority, which its index counts.
    func unloaded(positioned: [QueueItem]) throws -> SessionItems.Unloaded {
        let live = try count(LiveCounts.liveSQL) { _ in }
        // Every live item read (a short session): none is ahead outside the window.
        if live == items.filter(\.state.isLive).count { return .none }
        let counted = try positioned.filter { $0.state == .queued }.map { item in
            (item: item, ahead: try queuedAhead(of: item, stored: tickets.contains(item.ticket)))
        }
        return SessionItems.Unloaded(window: items, live: live, positioned: counted)
    }

    /// The session's queued items of `item`'s lane delivered before it, loaded or not.
    private func queuedAhead(of item: QueueItem, stored: Bool) throws -> Int {
        let priority = Int64(item.priority)
        if item.atHead {
            guard stored else { return 0 }
            return try count(WindowSQL.chainsAhead, lane: item.lane) { sqlite3_bind_int64($0, 3, item.sequence) }
        }
        guard stored else {
            return try count(LiveCounts.aheadOfNewSQL, lane: item.lane) { sqlite3_bind_int64($0, 3, priority) }
        }
        let higher = try count(LiveCounts.aheadOfPrioritySQL, lane: item.lane) { sqlite3_bind_int64($0, 3, priority) }
        let older = try count(WindowSQL.samePriorityAhead, lane: item.lane) { statement in
            sqlite3_bind_int64(statement, 3, priority)
            sqlite3_bind_int64(statement, 4, item.sequence)
        }
        return higher + older
    }

    /// The 1-based place of `item`, queued and written, among the session's queued items of its
    /// lane, all counted in the database as it is now.
    func place(ofQueued item: QueueItem) throws -> Int {
        let priority = Int64(item.priority)
        if item.atHead {
            return 1 + (try count(WindowSQL.chainsAhead, lane: item.lane) { sqlite3_bind_int64($0, 3, item.sequence) })
        }
        let higher = try count(LiveCounts.aheadOfPrioritySQL, lane: item.lane) { sqlite3_bind_int64($0, 3, priority) }
        let older = try count(WindowSQL.samePriorityAhead, lane: item.lane) { statement in
            sqlite3_bind_int64(statement, 3, priority)
            sqlite3_bind_int64(statement, 4, item.sequence)
        }
        return 1 + higher + older
    }

    private func count(_ sql: String, lane: Lane? = nil, bind: (OpaquePointer) -> Void) throws -> Int {
        var value: Int64 = 0
        try RawBinding.query(sql, in: db) { statement in
            RawBinding.text(session, to: statement, at: 1)
            if let lane { RawBinding.text(lane.rawValue, to: statement, at: 2) }
            bind(statement)
        } row: { row in
            value = sqlite3_column_int64(row, 0)
        }
        return Int(value)
    }
}
