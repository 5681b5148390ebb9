import AlertQueue
import Foundation
import GRDB
import GRDBSQLite

/// Groups of copies and the withdraws they leave owed. `items.group_id` names an item's group
/// (`QueueItem.group`); `withdrawals` holds, per session, the tickets of presenting items that
/// were taken back, until the session's `next` hands each to its device (`Delivery.withdraw`).
/// The table is empty but for those moments, so the look every delivery takes costs next to
/// nothing.
enum WithdrawalRecord {
    static let schema = """
        ALTER TABLE items ADD COLUMN group_id TEXT;
        CREATE INDEX items_group_live ON items(group_id) WHERE group_id NOTNULL AND state IN ('queued', 'presenting');
        CREATE TABLE withdrawals (
            session TEXT NOT NULL,
            ticket TEXT NOT NULL,
            at DOUBLE NOT NULL,
            PRIMARY KEY (session, ticket)) WITHOUT ROWID;
        """

    /// The live copies of `group`, but `ticket`, by session (through `items_group_live`).
    static func liveCopies(of group: String, except ticket: String, in db: Database) throws -> [String: Set<String>] {
        var copies: [String: Set<String>] = [:]
        try RawBinding.query(liveCopiesSQL, in: db) { statement in
            RawBinding.text(group, to: statement, at: 1)
        } row: { row in
            guard let session = String.fromStatement(row, atUncheckedIndex: 0),
                let copy = String.fromStatement(row, atUncheckedIndex: 1), copy != ticket
            else { return }
            copies[session, default: []].insert(copy)
        }
        return copies
    }

    private static let liveCopiesSQL =
        "SELECT session, ticket FROM items WHERE group_id = ? AND group_id NOTNULL AND state IN ('queued', 'presenting')"

    /// Owes the session's device a withdraw of `ticket`.
    static func owe(session: String, ticket: String, at now: Date, in db: Database) throws {
        try RawBinding.execute(oweSQL, in: db, bindsAll: true) { statement in
            RawBinding.text(session, to: statement, at: 1)
            RawBinding.text(ticket, to: statement, at: 2)
            sqlite3_bind_double(statement, 3, now.timeIntervalSince1970)
        }
    }

    private static let oweSQL = "INSERT OR REPLACE INTO withdrawals (session, ticket, at) VALUES (?, ?, ?)"

    /// The oldest withdraw the session is owed, no longer owed once taken; nil when none is.
    static func take(session: String, in db: Database) throws -> String? {
        var taken: String?
        try RawBinding.query(takeSQL, in: db) { statement in
            RawBinding.text(session, to: statement, at: 1)
        } row: { row in
            taken = String.fromStatement(row, atUncheckedIndex: 0)
        }
        return taken
    }

    private static let takeSQL = """
        DELETE FROM withdrawals WHERE session = ?1
            AND ticket = (SELECT ticket FROM withdrawals WHERE session = ?1 ORDER BY at, ticket LIMIT 1)
        RETURNING ticket
        """

    /// Forgets what the session is owed: its erasure.
    /// Whether `session` is owed a withdraw (which its next delivery must be).
    static func isOwed(session: String, in db: Database) throws -> Bool {
        var owed = false
        try RawBinding.query(isOwedSQL, in: db, bindsAll: true) { statement in
            RawBinding.text(session, to: statement, at: 1)
        } row: { row in
            owed = sqlite3_column_int64(row, 0) != 0
        }
        return owed
    }

    private static let isOwedSQL = "SELECT EXISTS (SELECT 1 FROM withdrawals WHERE session = ?)"

    static func forget(session: String, in db: Database) throws {
        try db.execute(sql: "DELETE FROM withdrawals WHERE session = ?", arguments: [session])
    }
}
