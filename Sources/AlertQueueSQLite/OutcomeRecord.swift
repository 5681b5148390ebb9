import AlertQueue
import GRDB
import GRDBSQLite

/// The daily outcome counters (`outcomes`) and where their roll-up stopped in the event feed
/// (`outcome_cursor`, one row). No session id is kept: erasing a session leaves them.
enum OutcomeRecord {
    static let schema = """
        CREATE TABLE outcomes (
            alert TEXT NOT NULL,
            day INTEGER NOT NULL,
            outcome TEXT NOT NULL,
            action TEXT NOT NULL DEFAULT '',
            role TEXT NOT NULL DEFAULT '',
            bucket INTEGER NOT NULL DEFAULT 0,
            count INTEGER NOT NULL,
            PRIMARY KEY (alert, day, outcome, action, role, bucket)) WITHOUT ROWID;
        CREATE INDEX outcomes_day ON outcomes(day);
        CREATE TABLE outcome_cursor (id INTEGER PRIMARY KEY CHECK (id = 1), event_id INTEGER NOT NULL);
        INSERT INTO outcome_cursor (id, event_id) VALUES (1, 0);
        """

    /// Where the roll-up stopped in the feed.
    static func cursor(in db: Database) throws -> EventCursor {
        EventCursor(id: try Int64.fetchOne(db.cachedStatement(sql: "SELECT event_id FROM outcome_cursor WHERE id = 1")) ?? 0)
    }

    /// Counts up to `limit` events after `cursor`, changing nothing: what `add` then writes.
    static func count(after cursor: EventCursor, limit: Int, in db: Database) throws -> OutcomeRollUp {
        // The feed's rows, but only what a count needs: no event built, no detail parsed here.
        var tally = OutcomeTally()
        var (last, read) = (cursor, 0)
        try RawBinding.query(eventsSQL, in: db) { statement in
            sqlite3_bind_int64(statement, 1, cursor.id)
            sqlite3_bind_int64(statement, 2, Int64(limit))
        } row: { row in
            last = EventCursor(id: Int64.fromStatement(row, atUncheckedIndex: 0) ?? 0)
            read += 1
            guard let kind = ItemEvent.Kind(rawValue: String.fromStatement(row, atUncheckedIndex: 1) ?? "") else { return }
            tally.add(
                kind, at: OutcomeDay(secondsSince1970: Double.fromStatement(row, atUncheckedIndex: 2) ?? 0),
                alert: String.fromStatement(row, atUncheckedIndex: 3),
                action: String.fromStatement(row, atUncheckedIndex: 4), role: String.fromStatement(row, atUncheckedIndex: 5),
                onScreen: Double.fromStatement(row, atUncheckedIndex: 6))
        }
        return OutcomeRollUp(tally: tally, events: read, cursor: last)
    }

    /// Whether the events after `cursor` through id `last` are `count` with ids summing to `idSum`:
    /// a check that those kept in memory are the file's (`RecentOutcomes`).
    static func matches(count: Int, idSum: Int64, after cursor: EventCursor, through last: Int64, in db: Database) throws -> Bool {
        var matches = false
        try RawBinding.query(matchSQL, in: db) { statement in
            sqlite3_bind_int64(statement, 1, cursor.id)
            sqlite3_bind_int64(statement, 2, last)
        } row: { row in
            matches = Int.fromStatement(row, atUncheckedIndex: 0) == count && Int64.fromStatement(row, atUncheckedIndex: 1) == idSum
        }
        return matches
    }

    private static let matchSQL = "SELECT count(*), coalesce(sum(id), 0) FROM events WHERE id > ? AND id <= ?"

    /// Adds a count made from `from` to the counters and moves the cursor past it, in `db`'s
    /// transaction; false, changing nothing, when the cursor is no longer at `from` (another
    /// roll-up counted those events first).
    static func add(_ counted: OutcomeRollUp, from: EventCursor, in db: Database) throws -> Bool {
        guard try cursor(in: db) == from else { return false }
        for (key, count) in counted.tally.counts {
            try RawBinding.execute(addSQL, in: db) { statement in
                RawBinding.text(key.alert, to: statement, at: 1)
                sqlite3_bind_int64(statement, 2, Int64(key.day.number))
                RawBinding.text(key.outcome.rawValue, to: statement, at: 3)
                RawBinding.text(key.action, to: statement, at: 4)
                RawBinding.text(key.role, to: statement, at: 5)
                sqlite3_bind_int64(statement, 6, Int64(key.bucket))
                sqlite3_bind_int64(statement, 7, Int64(count))
            }
        }
        try db.cachedStatement(sql: "UPDATE outcome_cursor SET event_id = ? WHERE id = 1").execute(arguments: [counted.cursor.id])
        return true
    }

    /// `EventRecord.feed`'s query, narrowed to what a count reads: of an ack's detail, the three
    /// values counted (SQLite parses it once for the three).
    private static let eventsSQL = """
        SELECT e.id, e.type, e.at, json_extract(i.content, '$.alert'),
            CASE WHEN e.type = 'acknowledged' THEN json_extract(e.detail, '$.action') END,
            CASE WHEN e.type = 'acknowledged' THEN json_extract(e.detail, '$.role') END,
            CASE WHEN e.type = 'acknowledged' THEN json_extract(e.detail, '$.onScreen') END
        FROM events e LEFT JOIN items i ON i.ticket = e.ticket
        WHERE e.id > ? ORDER BY e.id LIMIT ?
        """

    private static let addSQL = """
        INSERT INTO outcomes (alert, day, outcome, action, role, bucket, count) VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (alert, day, outcome, action, role, bucket) DO UPDATE SET count = count + excluded.count
        """

    static func counters(alert: String, days: ClosedRange<OutcomeDay>, in db: Database) throws -> [OutcomeCounter] {
        let rows = try Row.fetchAll(
            db, sql: "SELECT day, outcome, action, role, bucket, count FROM outcomes WHERE alert = ? AND day BETWEEN ? AND ?",
            arguments: [alert, days.lowerBound.number, days.upperBound.number])
        return rows.compactMap { row in
            // An outcome a newer version counts is left out.
            guard let outcome = AlertOutcome(rawValue: row["outcome"]) else { return nil }
            let key = OutcomeKey(
                day: OutcomeDay(number: row["day"]), alert: alert, outcome: outcome, action: row["action"], role: row["role"],
                bucket: row["bucket"])
            return OutcomeCounter(key: key, count: row["count"])
        }
    }
}

extension SQLiteQueueStore {
    /// The events are counted off the writer every write waits for: from `recentOutcomes` when
    /// it holds exactly what the file holds after the cursor, else read on a reader connection
    /// (each event's item read too, on the writer a tenth of a cycle's time). The write adds the
    /// counts unless another roll-up moved the cursor meanwhile; then it counts again from there.
    /// A background write: counters derived from committed events, counted again from the cursor
    /// should a crash of the machine take the write back (a flush each, 1,000 events apart, was
    /// one more flush for every two batches of a recall).
    public func rollUpOutcomes(limit: Int) async throws -> OutcomeRollUp {
        while true {
            let (from, counted) = try read { db in
                let from = try OutcomeRecord.cursor(in: db)
                let kept = recentOutcomes.after(from, limit: limit)
                if let last = kept.last,
                    try OutcomeRecord.matches(count: kept.count, idSum: kept.reduce(0) { $0 &+ $1.id }, after: from, through: last.id, in: db)
                {
                    var tally = OutcomeTally()
                    for event in kept {
                        tally.add(event.kind, at: event.day, alert: event.alert, action: event.action, role: event.role, onScreen: event.onScreen)
                    }
                    return (from, OutcomeRollUp(tally: tally, events: kept.count, cursor: EventCursor(id: last.id)))
                }
                return (from, try OutcomeRecord.count(after: from, limit: limit, in: db))
            }
            recentOutcomes.counted(through: from)
            guard counted.events > 0 else { return counted }
            if try await write(background: true, { db in try OutcomeRecord.add(counted, from: from, in: db) }) {
                recentOutcomes.counted(through: counted.cursor)
                return counted
            }
        }
    }

    public func outcomes(alert: String, days: ClosedRange<OutcomeDay>) async throws -> [OutcomeCounter] {
        try read { db in try OutcomeRecord.counters(alert: alert, days: days, in: db) }
    }

    public func purgeOutcomes(before day: OutcomeDay) async throws -> Int {
        try await write { db in
            try db.execute(sql: "DELETE FROM outcomes WHERE day < ?", arguments: [day.number])
            return db.changesCount
        }
    }
}
