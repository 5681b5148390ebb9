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

    /// Counts the events after the cursor into the counters and moves the cursor, in `db`'s
    /// transaction.
    static func rollUp(limit: Int, in db: Database) throws -> OutcomeRollUp {
        let cursor = EventCursor(id: try Int64.fetchOne(db, sql: "SELECT event_id FROM outcome_cursor WHERE id = 1") ?? 0)
        // The feed's rows, but only what a count needs: no event built, an ack's detail alone read.
        var tally = OutcomeTally()
        var (last, read) = (cursor, 0)
        try RawBinding.query(eventsSQL, in: db) { statement in
            sqlite3_bind_int64(statement, 1, cursor.id)
            sqlite3_bind_int64(statement, 2, Int64(limit))
        } row: { row in
            last = EventCursor(id: Int64.fromStatement(row, atUncheckedIndex: 0) ?? 0)
            read += 1
            guard let kind = ItemEvent.Kind(rawValue: String.fromStatement(row, atUncheckedIndex: 1) ?? "") else { return }
            let detail = String.fromStatement(row, atUncheckedIndex: 4).map(ItemEvent.detail(fromJSON:)) ?? [:]
            tally.add(
                kind, at: OutcomeDay(secondsSince1970: Double.fromStatement(row, atUncheckedIndex: 2) ?? 0),
                alert: String.fromStatement(row, atUncheckedIndex: 3), detail: detail)
        }
        for (key, count) in tally.counts {
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
        if last != cursor {
            try db.execute(sql: "UPDATE outcome_cursor SET event_id = ? WHERE id = 1", arguments: [last.id])
        }
        return OutcomeRollUp(tally: tally, events: read, cursor: last)
    }

    /// `EventRecord.feed`'s query, narrowed to what a count reads.
    private static let eventsSQL = """
        SELECT e.id, e.type, e.at, json_extract(i.content, '$.alert'), CASE WHEN e.type = 'acknowledged' THEN e.detail END
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
    public func rollUpOutcomes(limit: Int) async throws -> OutcomeRollUp {
        try await write { db in try OutcomeRecord.rollUp(limit: limit, in: db) }
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
