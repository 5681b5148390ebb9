import AlertQueue
import AlertSpec
import Foundation
import GRDB
import GRDBSQLite
import Locking

/// The paced deliveries SQLite keeps: `pacing_shown`, a row per delivery of a paced item in each
/// scope it counts in, `s:<session>` and `u:<user>` when the session has a user. Each key's rows
/// are numbered in order (`n`, from 1; a row's time is never before the one numbered before
/// it), so that a step reads what its rules ask (`PacingHistory.Needs`) in a few seeks however
/// many rows there are: a window holds the key's last number less the first number in it, plus
/// one. Statements run through `RawBinding`: a step runs several.
enum PacingShown {
    /// The deliveries numbered per key, in a table clustered by key and time (`WITHOUT ROWID`,
    /// no other index): a delivery writes one B-tree entry, at the end of its key's rows, so a
    /// step dirties one page per key it keeps a delivery under.
    static let numbered = """
        CREATE TABLE pacing_numbered (
            scope TEXT NOT NULL, alert TEXT NOT NULL, at DOUBLE NOT NULL, n INTEGER NOT NULL,
            PRIMARY KEY (scope, alert, at, n)) WITHOUT ROWID;
        INSERT INTO pacing_numbered (scope, alert, at, n)
            SELECT scope, alert, at, row_number() OVER (PARTITION BY scope, alert ORDER BY at, rowid) FROM pacing_shown;
        DROP TABLE pacing_shown;
        ALTER TABLE pacing_numbered RENAME TO pacing_shown;
        """

    /// The keys a session's deliveries count under: a session without a user counts alone in
    /// the user's scope too.
    struct Keys: Equatable {
        var session: String
        var user: String

        subscript(scope: Pacing.Scope) -> String { scope == .session ? session : user }
    }

    static func keys(session: String, in db: Database) throws -> Keys {
        var user: String?
        try RawBinding.query(userSQL, in: db, bindsAll: true) { RawBinding.text(session, to: $0, at: 1) } row: { row in
            user = String.fromStatement(row, atUncheckedIndex: 0)
        }
        return Keys(session: "s:\(session)", user: user.map { "u:\($0)" } ?? "s:\(session)")
    }

    private static let userSQL = "SELECT user_id FROM sessions_known WHERE session = ?"

    /// What the rules of `items`' queued paced items, and `profile`'s, ask of the deliveries at `now`.
    static func history(
        for items: [QueueItem], profile: SessionProfile = .none, session: String, keys: Keys? = nil, now: Date, in db: Database
    ) throws -> PacingHistory {
        try history(asked: .init(items: items, profile: profile, now: now), session: session, keys: keys, in: db)
    }

    /// What `rules` (alert and rule) and `profile`'s session-wide rules ask of the deliveries at `now`.
    static func history(
        of rules: [(alert: String, pacing: Pacing)], profile: SessionProfile = .none, session: String, keys given: Keys? = nil,
        now: Date, in db: Database
    ) throws -> PacingHistory {
        try history(asked: .init(rules: rules, profile: profile, now: now), session: session, keys: given, in: db)
    }

    /// What `demand` asks, read for each key in a statement, two when a window holds as many
    /// as a limit.
    private static func history(asked demand: PacingHistory.Demand, session: String, keys given: Keys?, in db: Database) throws -> PacingHistory {
        var history = PacingHistory()
        guard !demand.isEmpty else { return history }
        let keys = try given ?? self.keys(session: session, in: db)
        // A session without a user keeps one set of rows for both scopes: read it once.
        var reads: [(scope: String, alert: String, needs: PacingHistory.Needs, keys: [PacingHistory.Key])] = []
        for (key, needs) in demand.keys {
            let scope = keys[key.scope]
            if let index = reads.firstIndex(where: { $0.scope == scope && $0.alert == key.alert }) {
                reads[index].needs.formUnion(needs)
                reads[index].keys.append(key)
            } else {
                reads.append((scope, key.alert, needs, [key]))
            }
        }
        for wanted in reads {
            let read = try self.read(scope: wanted.scope, alert: wanted.alert, needs: wanted.needs, in: db)
            for key in wanted.keys { history.add(alert: key.alert, scope: key.scope, read: read) }
        }
        return history
    }

    /// One key's deliveries as `needs` asks: its last number and time, and the first number of
    /// each window, in one statement; the times of ranks past the first only when a window
    /// holds that many.
    private static func read(scope: String, alert: String, needs: PacingHistory.Needs, in db: Database) throws -> PacingHistory.Read {
        let windows = needs.windows.sorted { ($0.start, $0.inclusive ? 1 : 0) < ($1.start, $1.inclusive ? 1 : 0) }
        var last: (n: Int64, at: Double)?
        var firsts = [Int64?](repeating: nil, count: windows.count)
        try RawBinding.query(readSQL(inclusive: windows.map(\.inclusive)), in: db, bindsAll: true) { statement in
            RawBinding.text(scope, to: statement, at: 1)
            RawBinding.text(alert, to: statement, at: 2)
            for (index, window) in windows.enumerated() { sqlite3_bind_double(statement, CInt(index + 3), window.start.timeIntervalSince1970) }
        } row: { row in
            last = (sqlite3_column_int64(row, 0), sqlite3_column_double(row, 1))
            for index in windows.indices where sqlite3_column_type(row, CInt(index + 2)) != SQLITE_NULL {
                firsts[index] = sqlite3_column_int64(row, CInt(index + 2))
            }
        }
        var read = PacingHistory.Read()
        for (window, first) in zip(windows, firsts) { read.set(first.map { Int((last?.n ?? 0) - $0 + 1) } ?? 0, in: window) }
        guard let last else { return read }
        read.ever = true
        read.set(Date(timeIntervalSince1970: last.at), ofRank: 1)
        let most = read.most
        for rank in needs.ranks where rank > 1 && rank <= most && Int64(rank) <= last.n {
            try RawBinding.query(rankSQL, in: db, bindsAll: true) { statement in
                RawBinding.text(scope, to: statement, at: 1)
                RawBinding.text(alert, to: statement, at: 2)
                sqlite3_bind_int64(statement, 3, Int64(rank - 1))
            } row: { row in
                read.set(Date(timeIntervalSince1970: sqlite3_column_double(row, 0)), ofRank: rank)
            }
        }
        return read
    }

    /// A key's (`?1`, `?2`) last number and time, and the first number of each window (`?3`…),
    /// from its start on when `inclusive`, else after it; no row when the key has none. Each an
    /// index seek, and no table built for a subquery. Made once per shape.
    static func readSQL(inclusive: [Bool]) -> String {
        if let known = readSQLs.withLock({ $0[inclusive] }) { return known }
        var sql = "SELECT n, at"
        for (index, inclusive) in inclusive.enumerated() {
            sql += ", (SELECT n FROM pacing_shown WHERE scope = ?1 AND alert = ?2 AND at \(inclusive ? ">=" : ">") ?\(index + 3) ORDER BY at, n LIMIT 1)"
        }
        sql += " FROM pacing_shown WHERE scope = ?1 AND alert = ?2 ORDER BY at DESC, n DESC LIMIT 1"
        readSQLs.withLock { if $0.count < 256 { $0[inclusive] = sql } }
        return sql
    }

    private static let readSQLs = Locked<[[Bool]: String]>([:])

    /// The time of a key's delivery of rank `?3` + 1: asked only once a window holds a limit's
    /// count, it steps back over as many entries as the limit counts.
    static let rankSQL = "SELECT at FROM pacing_shown WHERE scope = ?1 AND alert = ?2 ORDER BY at DESC, n DESC LIMIT 1 OFFSET ?3"

    /// Writes the deliveries a step made (`PacingHistory.recorded`) under each of the session's
    /// keys, each numbered after its key's last, and never timed before it.
    static func keep(_ recorded: [(alert: String, at: Date)], session: String, keys given: Keys? = nil, in db: Database) throws {
        guard !recorded.isEmpty else { return }
        let keys = try given ?? self.keys(session: session, in: db)
        for shown in recorded {
            for key in Set([keys.session, keys.user]).sorted() {
                try RawBinding.execute(keepSQL, in: db, bindsAll: true) { statement in
                    RawBinding.text(key, to: statement, at: 1)
                    RawBinding.text(shown.alert, to: statement, at: 2)
                    sqlite3_bind_double(statement, 3, shown.at.timeIntervalSince1970)
                }
            }
        }
    }

    static let keepSQL = """
        INSERT INTO pacing_shown (scope, alert, at, n) VALUES (?1, ?2,
            max(?3, coalesce((SELECT at FROM pacing_shown WHERE scope = ?1 AND alert = ?2 ORDER BY at DESC, n DESC LIMIT 1), ?3)),
            coalesce((SELECT n FROM pacing_shown WHERE scope = ?1 AND alert = ?2 ORDER BY at DESC, n DESC LIMIT 1), 0) + 1)
        """
}
