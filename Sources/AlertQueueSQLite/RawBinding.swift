import AlertQueue
import GRDB
import GRDBSQLite

/// Runs GRDB's cached statements through SQLite's own functions: binds their values (copied by
/// SQLite, `SQLITE_TRANSIENT`), steps them, and hands each row over for reading by position.
enum RawBinding {
    /// SQLite's `SQLITE_TRANSIENT`, a macro Swift does not import.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Text, never NULL: an empty string is bound as "" (a NULL pointer would bind NULL).
    static func text(_ value: String, to statement: OpaquePointer, at index: CInt) {
        var value = value
        value.withUTF8 { bytes in
            if let start = bytes.baseAddress, !bytes.isEmpty {
                _ = start.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text(statement, index, $0, CInt(bytes.count), transient)
                }
            } else {
                _ = sqlite3_bind_text(statement, index, "", 0, transient)
            }
        }
    }

    static func double(_ value: Double?, to statement: OpaquePointer, at index: CInt) {
        if let value { sqlite3_bind_double(statement, index, value) } else { sqlite3_bind_null(statement, index) }
    }

    /// Runs `sql`, a statement that returns no rows, from `db`'s statement cache with the values
    /// `bind` binds; its failure as GRDB reports one. The statement is reset and its bindings
    /// cleared before it goes back to the cache, unless `bindsAll` says `bind` sets every one
    /// each time (clearing them cost 800 instructions a statement).
    static func execute(_ sql: String, in db: Database, bindsAll: Bool = false, bind: (OpaquePointer) -> Void) throws {
        try query(sql, in: db, bindsAll: bindsAll, bind: bind) { _ in
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a statement run for no rows returned one", sql: sql)
        }
    }

    /// Runs `sql` as `execute` does, and calls `row` with the statement at each row it returns,
    /// for reading its columns (`fromStatement(_:atUncheckedIndex:)`).
    static func query(
        _ sql: String, in db: Database, bindsAll: Bool = false, bind: (OpaquePointer) -> Void, row: (OpaquePointer) throws -> Void
    ) throws {
        let statement = try db.cachedStatement(sql: sql).sqliteStatement
        defer {
            sqlite3_reset(statement)
            if !bindsAll { sqlite3_clear_bindings(statement) }
        }
        bind(statement)
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql)
            }
            try row(statement)
        }
    }
}
