import AlertQueue
import Dispatch
import GRDB
import Locking

/// Runs the store's writes: at once on the calling thread when no other write is under way and
/// the write may run there, else grouped with the other waiting writes into one transaction
/// (group commit).
///
/// - **Alone** (the usual case at light load), a write enters GRDB's writer with
///   `dispatch_sync`, which runs it on the calling thread: no hand-off to another thread and
///   back, so an HTTP handler that never suspends answers on its worker thread.
/// - **Under load**, a write that finds another one running joins the batch waiting for the
///   writer: the batch runs on the writer's thread in one IMMEDIATE transaction, and every
///   caller is answered only after the shared commit — one commit for many requests. A write
///   that fails undoes only itself (see `runBatches`).
/// - **A write that runs inline only when writes are rare** (`.whenQuiet`, the enqueue) joins
///   the batch while writes arrive faster than `quietWrites` in `quietWindow`, even when the writer is idle for a
///   moment. An inline write holds the HTTP worker thread that runs it, and with it every
///   other connection of that thread, for the whole transaction: under a flood that costs more
///   than the two thread hops it saves (see `SQLiteQueueStore.enqueue`).
///
/// Neither way wraps a write in more than that: a write that fails is undone whole, by its
/// transaction or its savepoint.
///
/// Either way "acknowledged means committed": a write returns after its transaction commits.
final class WriteBatcher: Sendable {
    /// A write waiting for its batch.
    private struct Write: Sendable {
        /// Runs the write in the batch's transaction and returns how to answer it once that
        /// transaction has committed: with the write's own outcome. In its own savepoint when
        /// `isolated`; otherwise, should it fail after changing rows, it throws
        /// `MustIsolate` (only the whole transaction can undo it).
        let run: @Sendable (Database, _ isolated: Bool) throws -> @Sendable () -> Void
        /// Answers the write when the batch's transaction failed, to begin or to commit: nothing
        /// of it is stored.
        let failed: @Sendable (any Error) -> Void
    }

    /// When a write may run on the calling thread, if the writer is idle.
    enum Inline {
        /// Whenever the writer is idle.
        case whenIdle
        /// When the writer is idle and writes are rare: at most `quietWrites` arrived in the
        /// last `quietWindow` or so, this one included.
        case whenQuiet
    }

    /// Rare writes, by default: at most 4 in 5 ms (800 a second). That rare, a write seldom
    /// meets another one to share a commit with, so waiting for the writer's thread would buy
    /// nothing but two thread hops; faster, batches form.
    static let quietWrites = 4
    static let quietWindow: UInt64 = 5_000_000

    private struct State {
        /// A write (inline) or a batch is running now.
        var busy = false
        /// Writes that arrived since `windowStart`, and in the window before it (zero when that
        /// window ended more than a window ago): a sliding count, in two halves.
        var windowStart: UInt64 = 0
        var inWindow = 0
        var inPreviousWindow = 0
        /// Writes waiting for the next batch.
        var pending: [Write] = []
        /// The WAL has grown long: checkpoint on the writer before its next transaction.
        var catchUpWanted = false

        /// Counts a write arriving at `now` (nanoseconds) and tells whether at most `quiet`
        /// writes arrived in the last `window` or so, this one included.
        mutating func arrival(at now: UInt64, quiet: Int, window: UInt64) -> Bool {
            let elapsed = now &- windowStart
            if elapsed >= window {
                inPreviousWindow = elapsed < 2 * window ? inWindow : 0
                windowStart = now
                inWindow = 0
            }
            inWindow += 1
            return inWindow + inPreviousWindow <= quiet
        }
    }

    private let writer: any DatabaseWriter
    private let state = Locked(State())
    /// Writes within a window (nanoseconds) up to which a `.whenQuiet` write may run inline
    /// (tests change them so as not to depend on time).
    private let quietWrites: Int
    private let quietWindow: UInt64

    init(writer: any DatabaseWriter, quietWrites: Int = WriteBatcher.quietWrites, quietWindow: UInt64 = WriteBatcher.quietWindow) {
        self.writer = writer
        self.quietWrites = quietWrites
        self.quietWindow = quietWindow
    }

    /// Asks for a checkpoint on the writer's connection between two transactions (see
    /// `Checkpointer`): nothing can append to the WAL meanwhile, so it copies it whole.
    func requestCatchUp() {
        state.withLock { $0.catchUpWanted = true }
    }

    /// On the writer, outside a transaction: the checkpoint asked for, if any.
    private func catchUpIfWanted(_ db: Database) {
        let wanted = state.withLock { state -> Bool in
            defer { state.catchUpWanted = false }
            return state.catchUpWanted
        }
        if wanted { _ = try? db.checkpoint(.passive) }
    }

    /// Writes waiting for the next batch (a write now would be one more).
    var backlog: Int { state.withLock { $0.pending.count } }

    /// A write of a batch failed after it changed rows, outside a savepoint.
    private struct MustIsolate: Error {}

    /// Runs `body` in a transaction and returns its result once committed: on the calling thread
    /// when the writer is idle (and, `.whenQuiet`, writes are rare), else in the next batch on
    /// the writer's thread. `body` may run twice (see `runBatches`): it changes nothing but the
    /// database's rows, through INSERT, UPDATE and DELETE (SQLite counts their changes), and
    /// state that follows the transaction (as `SequenceMemo` does).
    func write<T: Sendable>(
        inline: Inline = .whenIdle, _ body: @escaping @Sendable (Database) throws -> T
    ) async throws -> T {
        let now = DispatchTime.now().uptimeNanoseconds
        let alone = state.withLock { state -> Bool in
            let quiet = state.arrival(at: now, quiet: quietWrites, window: quietWindow)
            guard !state.busy, inline == .whenIdle || quiet else { return false }
            state.busy = true
            return true
        }
        if alone {
            defer { finishInline() }
            return try writeNow(body)
        }
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let write = Write(
                run: { db, isolated in
                    let outcome: Result<T, any Error>
                    if isolated {
                        do {
                            outcome = .success(try db.inWriteSavepoint { try body(db) })
                        } catch {
                            outcome = .failure(error)
                        }
                    } else {
                        // A statement that fails leaves nothing of itself (SQLite undoes it), so a
                        // write that fails before any of its statements changed a row leaves
                        // nothing at all.
                        let changes = db.totalChangesCount
                        do {
                            outcome = .success(try body(db))
                        } catch {
                            guard db.totalChangesCount == changes else { throw MustIsolate() }
                            outcome = .failure(error)
                        }
                    }
                    return { continuation.resume(with: outcome) }
                },
                failed: { continuation.resume(throwing: $0) })
            let startsBatch = state.withLock { state -> Bool in
                state.pending.append(write)
                guard !state.busy else { return false }
                state.busy = true
                return true
            }
            if startsBatch { runBatches() }
        }
    }

    /// One write in its own transaction, on the calling thread.
    private func writeNow<T>(_ body: (Database) throws -> T) throws -> T {
        try writer.writeWithoutTransaction { db in
            catchUpIfWanted(db)
            return try db.inImmediateTransaction { try body(db) }
        }
    }

    /// After an inline write: hands the writes that queued up meanwhile to a batch.
    private func finishInline() {
        let hasPending = state.withLock { state -> Bool in
            if state.pending.isEmpty { state.busy = false }
            return !state.pending.isEmpty
        }
        if hasPending { runBatches() }
    }

    /// On the writer's queue: runs every waiting write in one transaction, again while more
    /// arrived meanwhile, then frees the writer.
    ///
    /// A batch runs its writes one after the other, with no savepoint between them, as nearly
    /// every write either succeeds or fails before it changes anything. Should one fail after
    /// changing rows, the whole transaction is rolled back and the batch runs again with each
    /// write in a savepoint of its own, so that its failure undoes only itself.
    ///
    /// Savepoints for every write cost the writer's thread, which every write waits for, about
    /// a tenth of its time: inside a savepoint SQLite copies each page a write changes, 4 KiB,
    /// into its statement journal first, and runs two more statements per write.
    private func runBatches() {
        writer.asyncWriteWithoutTransaction { [self] db in
            while true {
                let batch = state.withLock { state -> [Write] in
                    if state.pending.isEmpty { state.busy = false }
                    defer { state.pending.removeAll(keepingCapacity: true) }
                    return state.pending
                }
                guard !batch.isEmpty else { return }
                catchUpIfWanted(db)
                var answers: [@Sendable () -> Void] = []
                answers.reserveCapacity(batch.count)
                do {
                    do {
                        try commit(batch, isolated: false, answers: &answers, db)
                    } catch is MustIsolate {
                        try commit(batch, isolated: true, answers: &answers, db)
                    }
                    for answer in answers { answer() }
                } catch {
                    // The transaction did not begin (a closed store, a locked file past the busy
                    // timeout) or did not commit: every write of the batch is answered with it,
                    // the ones that never ran too.
                    for write in batch { write.failed(error) }
                }
            }
        }
    }

    /// Runs `batch` in one IMMEDIATE transaction and commits it, or rolls it back when a write
    /// throws `MustIsolate` (only when not `isolated`), or when it cannot begin or commit.
    private func commit(_ batch: [Write], isolated: Bool, answers: inout [@Sendable () -> Void], _ db: Database) throws {
        answers.removeAll(keepingCapacity: true)
        try db.inImmediateTransaction {
            for write in batch {
                // A write that failed may have had SQLite end the transaction (a full disk, an
                // I/O error): the next one would then run outside it, committing as it goes.
                try db.requireTransaction()
                answers.append(try write.run(db, isolated))
            }
        }
    }
}

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
    fileprivate func inImmediateTransaction<T>(_ body: () throws -> T) throws -> T {
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
    fileprivate func requireTransaction() throws {
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
    fileprivate func inWriteSavepoint<T>(_ body: () throws -> T) throws -> T {
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
