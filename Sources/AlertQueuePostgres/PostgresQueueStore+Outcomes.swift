import AlertQueue
import Foundation
import PostgresNIO

extension PostgresQueueStore {
    /// The daily outcome counters and the roll-up's place in the event feed (one row, locked by
    /// the instance rolling up). No session id is kept: erasing a session leaves them.
    static let outcomesSchema: [PostgresQuery] = [
        """
        CREATE TABLE alertd.outcomes (
            alert text NOT NULL,
            day integer NOT NULL,
            outcome text NOT NULL,
            action text NOT NULL DEFAULT '',
            role text NOT NULL DEFAULT '',
            bucket integer NOT NULL DEFAULT 0,
            count bigint NOT NULL,
            PRIMARY KEY (alert, day, outcome, action, role, bucket)
        )
        """,
        "CREATE INDEX outcomes_day ON alertd.outcomes (day)",
        """
        CREATE TABLE alertd.outcome_cursor (
            id integer PRIMARY KEY CHECK (id = 1), event_xid xid8 NOT NULL, event_id bigint NOT NULL)
        """,
        "INSERT INTO alertd.outcome_cursor (id, event_xid, event_id) VALUES (1, '0', 0)",
    ]

    /// Locks the cursor row (another instance's roll-up waits, then reads the cursor this one
    /// leaves), reads the feed after it, adds the counts in one statement and moves the cursor.
    public func rollUpOutcomes(limit: Int) async throws -> OutcomeRollUp {
        try await perform { connection in
            try await connection.transaction(logger: self.logger) { connection in
                let rows = try await connection.query(
                    "SELECT event_xid::text, event_id FROM alertd.outcome_cursor WHERE id = 1 FOR UPDATE", logger: self.logger
                ).collect()
                let (xid, id) = try rows.first?.decode((String, Int64).self) ?? ("0", Int64(0))
                let cursor = EventCursor(transaction: UInt64(xid) ?? 0, id: id)
                let page = try await self.feed(after: cursor, limit: limit, on: connection)
                let tally = OutcomeTally(page.events)
                if !tally.isEmpty {
                    let counts = Array(tally.counts)
                    func column<Element>(_ value: ((key: OutcomeKey, value: Int)) -> Element) -> BinaryArray<Element> {
                        BinaryArray(counts.map(value))
                    }
                    try await connection.query(
                        """
                        INSERT INTO alertd.outcomes (alert, day, outcome, action, role, bucket, count)
                        SELECT * FROM unnest(\(column { $0.key.alert })::text[], \(column { Int64($0.key.day.number) })::int8[]::int4[],
                            \(column { $0.key.outcome.rawValue })::text[], \(column { $0.key.action })::text[],
                            \(column { $0.key.role })::text[], \(column { Int64($0.key.bucket) })::int8[]::int4[],
                            \(column { Int64($0.value) })::int8[])
                        ON CONFLICT (alert, day, outcome, action, role, bucket) DO UPDATE SET count = alertd.outcomes.count + excluded.count
                        """, logger: self.logger)
                }
                if page.next != cursor {
                    try await connection.query(
                        """
                        UPDATE alertd.outcome_cursor SET event_xid = \(String(page.next.transaction))::xid8, event_id = \(page.next.id)
                        WHERE id = 1
                        """, logger: self.logger)
                }
                return OutcomeRollUp(tally: tally, events: page.events.count, cursor: page.next)
            }
        }
    }

    public func outcomes(alert: String, days: ClosedRange<OutcomeDay>) async throws -> [OutcomeCounter] {
        try await perform { connection in
            let rows = try await connection.query(
                """
                SELECT day, outcome, action, role, bucket, count FROM alertd.outcomes
                WHERE alert = \(alert) AND day BETWEEN \(days.lowerBound.number) AND \(days.upperBound.number)
                """, logger: self.logger
            ).collect()
            return try rows.compactMap { row in
                let (day, outcome, action, role, bucket, count) = try row.decode((Int32, String, String, String, Int32, Int64).self)
                guard let outcome = AlertOutcome(rawValue: outcome) else { return nil }
                let key = OutcomeKey(
                    day: OutcomeDay(number: Int(day)), alert: alert, outcome: outcome, action: action, role: role, bucket: Int(bucket))
                return OutcomeCounter(key: key, count: Int(count))
            }
        }
    }

    public func purgeOutcomes(before day: OutcomeDay) async throws -> Int {
        try await perform { connection in
            let rows = try await connection.query(
                "WITH gone AS (DELETE FROM alertd.outcomes WHERE day < \(day.number) RETURNING 1) SELECT count(*) FROM gone",
                logger: self.logger
            ).collect()
            return Int(try rows.first?.decode(Int64.self) ?? 0)
        }
    }
}
