import GRDB

// The transactions and savepoints of `WriteBatcher`, with cached statements.

extension Database {
    /// Runs `body` in an IMMEDIATE transaction and commits it; rolls it back when `body` or the
    /// commit throws, and rethrows.
    ///
    /// GRDB's `inTransaction` does the same, but it has SQLite parse `BEGIN` and `COMMIT` again on
    /// every call: about 24,000 of the 100,000 instructions of a one-row write transaction, which
    /// an enqueue that wakes a long-poll pays twice before the poll is answered (callgrind over
    /// wake-up rounds, `make bench-instructions`). These are cached. What `inTransaction` also checks, that
    /// SQLite did not end the transaction on its own, is checked here before the commit, and by
    /// the batch before each of its writes (`requireTransaction`).
    func inImmediateTransaction<T>(_ body: () throws -> T) throws -> T {
        try cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
        do {
            let value = try body()
            try requireTransaction()
            try cachedStatement(sql: "COMMIT TRANSACTION").execute()
            return value
        } catch {
            // Not after a commit that succeeded, nor after SQLite rolled back by itself.
            if isInsideTransaction { try? cachedStatement(sql: "ROLLBACK TRANSACTION").execute() }
            throw error
        }
    }

    /// Throws `SQLITE_ABORT` when the transaction under way has ended: SQLite rolls back by itself
    /// after some errors (a full disk, an I/O error), and a statement run afterwards would commit
    /// on its own.
    func requireTransaction() throws {
        guard isInsideTransaction else {
            throw DatabaseError(resultCode: .SQLITE_ABORT, message: "Transaction was aborted")
        }
    }

    /// Runs `body` in a savepoint of the transaction under way: released when `body` returns,
    /// rolled back and released when it throws, which rethrows `body`'s error.
    ///
    /// GRDB's `inSavepoint` does the same, but it has SQLite parse its two statements again on
    /// every call: a sixth of the writer's time per enqueue in a batch (perf, scripts/bench-queue.sh).
    /// These are cached. A transaction that SQLite ended on its own (a full disk, an I/O error)
    /// fails the batch at its next write (`requireTransaction`).
    func inWriteSavepoint<T>(_ body: () throws -> T) throws -> T {
        try cachedStatement(sql: "SAVEPOINT alertd_write").execute()
        let value: T
        do {
            value = try body()
        } catch {
            try? cachedStatement(sql: "ROLLBACK TRANSACTION TO SAVEPOINT alertd_write").execute()
            try? cachedStatement(sql: "RELEASE SAVEPOINT alertd_write").execute()
            throw error
        }
        try cachedStatement(sql: "RELEASE SAVEPOINT alertd_write").execute()
        return value
    }
}
