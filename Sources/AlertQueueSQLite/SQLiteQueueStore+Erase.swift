import AlertQueue
import GRDB

extension SQLiteQueueStore {
    /// One write: the session's events, items (the `live_counts` triggers take each live one
    /// out of its count), hold, withdrawals, any count left, its registry row and topics, its
    /// place in campaigns' lists of sessions, and its pacing profile.
    /// Every table keyed by session is here; `probe` and the migrations hold none. A session is
    /// at most the queue limit of live items plus its history, so one transaction holds the
    /// writer for that many rows.
    public func erase(session: String) async throws -> Erasure {
        let (erasure, tickets) = try await write { db in try self.eraseRows(of: session, in: db) }
        forgetInMemory(session: session, tickets: tickets)
        return erasure
    }

    /// The erase's statements, in the caller's write; the tickets erased.
    func eraseRows(of session: String, in db: Database) throws -> (Erasure, [String]) {
        // The events earlier writes of this transaction staged are deleted too.
        try batcher.transactionEnd.events.write(in: db)
        let tickets = try String.fetchAll(db, sql: "SELECT ticket FROM items WHERE session = ?", arguments: [session])
        try EventRecord.raiseFloor(in: db)
        // Through the items' lists of their events' ids (`EventRecord.idsInItems`).
        try db.execute(
            sql: "DELETE FROM events WHERE id IN (SELECT j.value FROM items i, \(EventRecord.idArray("i.events")) j WHERE i.session = ?)",
            arguments: [session])
        let events = db.changesCount
        try db.execute(sql: "DELETE FROM items WHERE session = ?", arguments: [session])
        let items = db.changesCount
        try db.execute(sql: "DELETE FROM holds WHERE session = ?", arguments: [session])
        try WithdrawalRecord.forget(session: session, in: db)
        try db.execute(sql: "DELETE FROM live_counts WHERE session = ?", arguments: [session])
        try KnownSessionRecord.delete(session: session, in: db)
        try db.execute(sql: "DELETE FROM campaign_sessions WHERE session = ?", arguments: [session])
        // Its own paced deliveries; its user's (`u:`) hold no session id and stay with the user.
        try db.execute(sql: "DELETE FROM pacing_shown WHERE scope = ?", arguments: ["s:\(session)"])
        // Its own pacing profile; its user's stays with the user.
        try ProfileRecord.delete(.session(session), in: db)
        return (Erasure(items: items, events: events), tickets)
    }

    /// Decoded contents are kept by ticket, events for the roll-up by session: the erased ones
    /// are dropped from memory too.
    func forgetInMemory(session: String, tickets: [String]) {
        for ticket in tickets { contents.forget(key: ticket) }
        recentOutcomes.forget(session: session)
    }
}
