import GRDB

/// How a SQLite file gives back the room its purged history held.
///
/// - The WAL: checkpoints copy it into the file (`Checkpointer`); each time it starts again
///   from its beginning, it is cut back to `journalSizeLimit` bytes, so a burst of writes (a
///   large purge) does not leave a large WAL file behind.
/// - Free pages: a new file is made with `auto_vacuum = INCREMENTAL`, and each purge batch hands
///   back up to `vacuumPages` free pages (`PRAGMA incremental_vacuum`). A file made before keeps
///   `auto_vacuum = NONE` (switching needs a VACUUM, which rewrites the whole file while it
///   holds the write lock); its free pages are reused for new rows instead.
enum StoreSpace {
    /// 64 MiB.
    static let journalSizeLimit = 64 << 20
    /// 256 pages (1 MiB) a batch: more than a batch of purged items frees, few enough that
    /// moving them keeps the transaction short.
    static let vacuumPages = 256

    /// Turns on incremental auto-vacuum in a database with nothing in it yet. A WAL database's
    /// header is already written, so the setting takes a VACUUM, instant while it is empty.
    static func vacuumIncrementallyIfNew(_ writer: any DatabaseWriter) throws {
        try writer.writeWithoutTransaction { db in
            guard try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") == 0,
                try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") != 2
            else { return }
            try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
            try db.execute(sql: "VACUUM")
        }
    }
}
