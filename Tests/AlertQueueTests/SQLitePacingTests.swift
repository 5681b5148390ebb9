import AlertSpec
import Foundation
import GRDB
import Testing

import AlertQueue
@testable import AlertQueueSQLite

/// How SQLite keeps paced deliveries (`PacingRecord`): numbered per key, so a step reads what its
/// rules count in a few seeks, however long the history.
@Suite("SQLite pacing history")
struct SQLitePacingTests {
    /// A migrated in-memory database holding `times` as deliveries of `app/a` to session `s1`.
    func database(keeping times: [Date]) throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try SQLiteQueueStore.migrator.migrate(queue)
        try queue.write { db in
            for time in times { try PacingShown.keep([("app/a", time)], session: session, in: db) }
        }
        return queue
    }

    @Test("Over a long history, the deliveries read for each rule's needs judge as every delivery does")
    func longHistoryJudgedAsWhole() throws {
        // Given: 3,000 deliveries, one every 50 s or so, the last just before now
        var random = SplitMix64(seed: 0x5EED_0044)
        var times: [Date] = []
        var time = at(-150_000)
        for _ in 0..<3_000 {
            time = time.addingTimeInterval(Double(Int.random(in: 1...99, using: &random)))
            times.append(time)
        }
        let queue = try database(keeping: times)
        let rules: [Pacing] = [
            Pacing(limits: [.init(count: 2_000, period: .days(1))]),
            Pacing(limits: [.init(count: 60, period: .hours(1)), .init(count: 3_000, period: .days(30), scope: .user)]),
            Pacing(limits: [.init(count: 10_000, period: .days(366))], minGap: .init(duration: .minutes(10))),
            Pacing(once: .init(scope: .user)),
        ]
        for rule in rules {
            for now in [time, time.addingTimeInterval(30), time.addingTimeInterval(3_000), time.addingTimeInterval(90_000)] {
                // When
                let read = try queue.read { db in
                    try PacingShown.history(of: [("app/a", rule)], session: session, now: now, in: db)
                }
                // Then
                var whole = PacingHistory()
                for scope in Pacing.Scope.allCases { whole.add(alert: "app/a", scope: scope, shownAt: times) }
                #expect(rule.verdict(alert: "app/a", history: read, now: now) == rule.verdict(alert: "app/a", history: whole, now: now),
                        "\(rule) at \(now.timeIntervalSince(time)) s after the last")
            }
        }
    }

    @Test("A step's reads and writes of deliveries seek by index, never scan them nor build a table")
    func readsSeek() throws {
        let queue = try database(keeping: [at(-10), at(-5)])
        try queue.read { db in
            for sql in [PacingShown.readSQL(inclusive: [false, true]), PacingShown.rankSQL, PacingShown.keepSQL] {
                let arguments: StatementArguments = sql.contains("?4") ? ["s:s1", "app/a", 0, 0] : ["s:s1", "app/a", 0]
                let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN \(sql)", arguments: arguments).map { $0["detail"] as String }
                #expect(!plan.contains { $0.hasPrefix("SCAN pacing_shown") }, "\(sql): \(plan)")
                #expect(plan.filter { $0.hasPrefix("SEARCH pacing_shown USING") }.count >= 1, "\(sql): \(plan)")
                #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(sql): \(plan)")
                // Nor builds a table on each run, as a subquery in FROM would
                let program = try Row.fetchAll(db, sql: "EXPLAIN \(sql)", arguments: arguments).map { $0["opcode"] as String }
                #expect(!program.contains("OpenEphemeral"), "\(sql)")
            }
        }
    }

    @Test("A delivery kept with a clock behind the last one is kept at the last one's time, numbered after it")
    func clockBehindKeepsOrder() throws {
        let queue = try database(keeping: [at(0), at(10), at(5)])
        let rows = try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT n, at FROM pacing_shown WHERE scope = 's:s1' ORDER BY n").map { [$0["n"] as Double, $0["at"] as Double] }
        }
        let base = t0.timeIntervalSince1970
        #expect(rows == [[1, base], [2, base + 10], [3, base + 10]])
    }

    @Test("A database whose deliveries were kept unnumbered numbers them in order of time when it opens")
    func numberingMigration() async throws {
        // Given: a file migrated before `pacingNumbered`, with deliveries of two keys out of order
        let (path, remove) = try temporaryDatabasePath()
        defer { remove() }
        try SQLiteQueueStore(path: path).close()
        let old = try DatabaseQueue(path: path)
        try await old.write { db in
            try db.execute(sql: "DROP TABLE pacing_shown")
            try db.execute(sql: "CREATE TABLE pacing_shown (scope TEXT NOT NULL, alert TEXT NOT NULL, at DOUBLE NOT NULL)")
            try db.execute(sql: "CREATE INDEX pacing_shown_key ON pacing_shown(scope, alert, at)")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'pacingNumbered'")
            for (scope, at) in [("s:s1", 30.0), ("s:s1", 10), ("u:ana", 5), ("s:s1", 20), ("u:ana", 1)] {
                try db.execute(sql: "INSERT INTO pacing_shown (scope, alert, at) VALUES (?, 'app/a', ?)", arguments: [scope, at])
            }
        }
        try old.close()
        // When
        try SQLiteQueueStore(path: path).close()
        // Then
        let rows = try await DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT scope, n, at FROM pacing_shown ORDER BY scope, n").map { "\($0["scope"] as String) \($0["n"] as Int) \($0["at"] as Double)" }
        }
        #expect(rows == ["s:s1 1 10.0", "s:s1 2 20.0", "s:s1 3 30.0", "u:ana 1 1.0", "u:ana 2 5.0"])
    }
}
