import AlertQueue
import Dispatch
import Foundation
import GRDB
import Locking

/// Runs the store's writes on the writer's thread, grouped: the writes that arrive while one
/// transaction runs wait for the next, and commit together in one (group commit). One commit
/// for many requests is what makes a durable commit (an fsync each) affordable under load. A
/// write that fails undoes only itself (see `runBatches`).
///
/// No write runs on its caller's thread: a commit held up by a stalled disk would hold the HTTP
/// worker thread that called it, and every connection of that thread.
///
/// A write that waits longer than `timeout`, by `clock`, is answered with
/// `StoreFailure.timeout`: taken out of the queue when it has not begun (so it is never
/// written), or answered while its transaction still runs (it may yet commit). Meanwhile
/// `stalledSince` tells readiness that a transaction has run too long.
///
/// "Acknowledged means committed": a write returns after its transaction commits and, when
/// there is a `verify`, after it found the database still where the store opened it; with a
/// `sync`, a live write also waits for the WAL's flush after its commit, which runs off the
/// writer's thread while the next transaction does (see `WALSync`).
///
/// A background write (`writeInBackground`, the retention's purge) gives way to the live ones:
/// it runs in a transaction of its own, after the live writes waiting with it (it waits at most
/// one batch of them), and commits without a flush of its own (`synchronous = NORMAL` for its
/// transaction): the next live commit's flush, or the next checkpoint, makes it durable.
final class WriteBatcher: Sendable {
    /// A write waiting for its batch.
    private struct Write: Sendable {
        /// Runs the write in the batch's transaction and returns how to answer it once that
        /// transaction has committed: with the write's own outcome. In its own savepoint when
        /// `isolated`; otherwise, should it fail after changing rows, it throws
        /// `MustIsolate` (only the whole transaction can undo it).
        let run: @Sendable (Database, _ isolated: Bool) throws -> @Sendable () -> Void
        /// Answers the write with an error: nothing of it was stored, or, for a timeout, it may
        /// yet be.
        let failed: @Sendable (any Error) -> Void
        /// When it arrived, by the clock.
        let arrived: Date
        /// Runs alone, after the live writes (`writeInBackground`).
        let background: Bool
    }

    private struct State {
        /// A batch is running now.
        var busy = false
        /// Live writes waiting for the next batch.
        var pending: [Write] = []
        /// Background writes waiting, each for a transaction of its own.
        var background: [Write] = []
        /// A batch of live writes went before the first background write: it runs next.
        var backgroundDue = false
        /// The writer's `synchronous`, when a background write lowered it, to be set back.
        var lowered: Int?
        /// The batch running, and when it began, by the clock.
        var running: [Write] = []
        var runningSince: Date?
        /// The WAL has grown long: checkpoint on the writer before its next transaction.
        var catchUpWanted = false
        /// Committed batches waiting for their flush (see `WALSync`), by number, with when
        /// they committed.
        var flushing: [UInt64: (writes: [Write], since: Date)] = [:]
        var committedBatches: UInt64 = 0
        /// `close` was called: no write runs any more.
        var closed = false
    }

    private let writer: any DatabaseWriter
    private let state = Locked(State())
    private let clock: any AlertClock
    /// The longest a write waits for its answer, in seconds (the clock's unit).
    private let timeout: TimeInterval
    /// Answers the writes that waited too long; set while writes wait or run.
    private let watchdog: any AlertTimer
    /// Asked after every commit, before the writes are answered: an error fails them all.
    private let verify: (@Sendable () -> (any Error)?)?
    /// Told when each transaction ends, before its writes are answered.
    let transactionEnd = TransactionEnd()
    /// Flushes live commits off the writer, when commits do not flush themselves.
    private let sync: WALSync?

    init(
        writer: any DatabaseWriter, clock: any AlertClock = SystemClock(), timeout: Duration = .seconds(5),
        verify: (@Sendable () -> (any Error)?)? = nil, sync: WALSync? = nil
    ) {
        self.writer = writer
        self.sync = sync
        self.clock = clock
        let (seconds, attoseconds) = timeout.components
        self.timeout = TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
        self.verify = verify
        let expire = Locked<(@Sendable () -> Void)?>(nil)
        watchdog = clock.makeTimer { expire.withLock { $0 }?() }
        expire.withLock { $0 = { [weak self] in self?.answerLateWrites() } }
    }

    deinit { watchdog.cancel() }

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

    /// Live writes waiting for the next batch (a write now would be one more).
    var backlog: Int { state.withLock { $0.pending.count } }

    /// Background writes waiting for their turn.
    var backgroundBacklog: Int { state.withLock { $0.background.count } }

    /// When the transaction running now began, or the oldest commit waiting for its flush, if
    /// it has waited longer than the timeout.
    var stalledSince: Date? {
        let now = clock.now()
        return state.withLock { state in
            let oldest = ([state.runningSince].compactMap { $0 } + state.flushing.values.map(\.since)).min()
            guard let since = oldest, now.timeIntervalSince(since) >= timeout else { return nil }
            return since
        }
    }

    /// A write of a batch failed after it changed rows, outside a savepoint.
    private struct MustIsolate: Error {}

    /// Runs `body` in the next batch's transaction on the writer's thread and returns its result
    /// once committed. `body` may run twice (see `runBatches`): it changes nothing but the
    /// database's rows, through INSERT, UPDATE and DELETE (SQLite counts their changes), and
    /// state that follows the transaction (as `SequenceMemo` does).
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await write(background: false, body)
    }

    /// Runs `body` as a background write (see the type's note): alone in its transaction, after
    /// the live writes waiting, and with no flush of its own. For work nobody waits on, which is
    /// done again should a crash of the machine take it back.
    func writeInBackground<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await write(background: true, body)
    }

    private func write<T: Sendable>(background: Bool, _ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let arrived = clock.now()
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let answer = Once(continuation)
            let run: @Sendable (Database, Bool) throws -> @Sendable () -> Void = { [transactionEnd] db, isolated in
                let outcome: Result<T, any Error>
                let mark = transactionEnd.mark()
                if isolated {
                    do {
                        outcome = .success(try db.inWriteSavepoint { try body(db) })
                    } catch {
                        // SQLite ended the transaction itself (a full disk, an I/O error): the
                        // batch fails, with this cause rather than the transaction's end.
                        if !db.isInsideTransaction { throw error }
                        transactionEnd.undo(to: mark)
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
                        if !db.isInsideTransaction { throw error }
                        guard db.totalChangesCount == changes else { throw MustIsolate() }
                        transactionEnd.undo(to: mark)
                        outcome = .failure(error)
                    }
                }
                return { answer.resume(with: outcome) }
            }
            let write = Write(run: run, failed: { answer.resume(with: .failure($0)) }, arrived: arrived, background: background)
            let startsBatch = state.withLock { state -> Bool? in
                guard !state.closed else { return nil }
                if background { state.background.append(write) } else { state.pending.append(write) }
                guard !state.busy else { return false }
                state.busy = true
                return true
            }
            guard let startsBatch else { return write.failed(Self.closedError) }
            if startsBatch {
                watchdog.schedule(at: arrived.addingTimeInterval(timeout), leeway: .milliseconds(50))
                runBatches()
            }
        }
    }

    /// Answers `StoreFailure.timeout` to every write that arrived a timeout ago or earlier:
    /// those still waiting leave the queue unwritten; those in the running transaction are
    /// answered now and their own answer later goes nowhere. Looks again while writes wait.
    private func answerLateWrites() {
        let now = clock.now()
        let cutoff = now.addingTimeInterval(-timeout)
        let (unwritten, uncertain, next) = state.withLock { state -> ([Write], [Write], Date?) in
            let unwritten = (state.pending + state.background).filter { $0.arrived <= cutoff }
            state.pending.removeAll { $0.arrived <= cutoff }
            state.background.removeAll { $0.arrived <= cutoff }
            var uncertain = state.running.filter { $0.arrived <= cutoff }
            state.running.removeAll { $0.arrived <= cutoff }
            for (number, flushing) in state.flushing {
                uncertain += flushing.writes.filter { $0.arrived <= cutoff }
                state.flushing[number]?.writes.removeAll { $0.arrived <= cutoff }
            }
            let oldest = (state.pending + state.background + state.running + state.flushing.values.flatMap(\.writes)).map(\.arrived).min()
            return (unwritten, uncertain, state.busy || !state.flushing.isEmpty ? (oldest ?? now) : nil)
        }
        let limit = "\(timeout) s"
        for write in unwritten {
            write.failed(QueueError.storeFailed(.timeout, "waited \(limit) for the writer; not written"))
        }
        for write in uncertain {
            write.failed(QueueError.storeFailed(.timeout, "its transaction ran past \(limit); it may yet commit"))
        }
        if let next { watchdog.schedule(at: next.addingTimeInterval(timeout), leeway: .milliseconds(50)) }
    }

    /// On the writer's queue: runs every waiting live write in one transaction, again while more
    /// arrived meanwhile, then frees the writer. A background write runs alone, when no live
    /// write waits or after one batch of them.
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
                let now = clock.now()
                let (batch, refused) = state.withLock { state -> ([Write], [Write]) in
                    if state.closed {
                        // Closed after these arrived: the connection may be closed already.
                        defer { (state.pending, state.background, state.busy) = ([], [], false) }
                        return ([], state.pending + state.background)
                    }
                    let batch: [Write]
                    if !state.background.isEmpty, state.pending.isEmpty || state.backgroundDue {
                        batch = [state.background.removeFirst()]
                        state.backgroundDue = false
                    } else {
                        batch = state.pending
                        state.pending.removeAll(keepingCapacity: true)
                        state.backgroundDue = !state.background.isEmpty
                    }
                    state.running = batch
                    state.runningSince = batch.isEmpty ? nil : now
                    if batch.isEmpty { state.busy = false }
                    return (batch, [])
                }
                for write in refused { write.failed(Self.closedError) }
                // (The watchdog stays set: a write may already have set it again.)
                guard let first = batch.first else { return }
                catchUpIfWanted(db)
                var answers: [@Sendable () -> Void] = []
                answers.reserveCapacity(batch.count)
                do {
                    try setFlush(background: first.background, db)
                    defer { if first.background { try? setFlush(background: false, db) } }
                    do {
                        try commit(batch, isolated: false, answers: &answers, db)
                    } catch is MustIsolate {
                        try commit(batch, isolated: true, answers: &answers, db)
                    }
                    if let failure = verify?() { throw failure }
                    if let sync, !first.background {
                        answerAfterFlush(batch, answers: answers, sync: sync, committed: now)
                    } else {
                        for answer in answers { answer() }
                    }
                } catch {
                    // The transaction did not begin (a closed store, a locked file past the busy
                    // timeout), did not commit, or committed where nobody will read it: every
                    // write of the batch is answered with it, the ones that never ran too.
                    for write in batch { write.failed(error) }
                }
            }
        }
    }

    /// Refuses every write from now on, and those waiting for a batch: the writer's connection
    /// is about to close. A batch running now commits and is answered.
    func close() {
        state.withLock { $0.closed = true }
    }

    private static var closedError: QueueError { .unavailable("the SQLite store is closed") }

    /// Answers a committed batch once `sync` has flushed it (or with the flush's failure).
    /// Meanwhile the batch's writes are watched for the timeout as the running ones are.
    private func answerAfterFlush(_ batch: [Write], answers: [@Sendable () -> Void], sync: WALSync, committed: Date) {
        let number = state.withLock { state -> UInt64 in
            state.committedBatches += 1
            state.flushing[state.committedBatches] = (batch, committed)
            return state.committedBatches
        }
        // Holds the state, not the batcher: a store goes (closing its file) with its last
        // reference, and an answer on its way here must not keep it past the process's exit.
        sync.afterFlush { [state] failure in
            if let failure {
                let waiting = state.withLock { $0.flushing.removeValue(forKey: number)?.writes } ?? []
                for write in waiting { write.failed(failure) }
            } else {
                // The writes (whose bodies hold the store) are let go before they are answered:
                // once the last is answered the process may exit, and a store still held here
                // then never closes its file.
                _ = state.withLock { $0.flushing.removeValue(forKey: number) }
                for answer in answers { answer() }
            }
        }
    }

    /// Before a transaction, outside any (SQLite refuses the change inside one): a background
    /// write's commit goes without a flush (`synchronous` lowered to `NORMAL` when above it); a
    /// live batch's has the connection's own setting back, or the batch fails rather than
    /// commit without its flush.
    /// Its statements are cached: a purge runs a batch every few milliseconds.
    private func setFlush(background: Bool, _ db: Database) throws {
        if let lowered = state.withLock({ $0.lowered }) {
            guard !background else { return }
            try db.cachedStatement(sql: "PRAGMA synchronous = \(lowered)").execute()
            state.withLock { $0.lowered = nil }
        } else if background, let level = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA synchronous")), level > 1 {
            try db.cachedStatement(sql: "PRAGMA synchronous = NORMAL").execute()
            state.withLock { $0.lowered = level }
        }
    }

    /// Runs `batch` in one IMMEDIATE transaction and commits it, or rolls it back when a write
    /// throws `MustIsolate` (only when not `isolated`), or when it cannot begin or commit.
    private func commit(_ batch: [Write], isolated: Bool, answers: inout [@Sendable () -> Void], _ db: Database) throws {
        answers.removeAll(keepingCapacity: true)
        var committed = false
        defer { transactionEnd.ended(committed: committed) }
        try db.inImmediateTransaction {
            for write in batch {
                // A write that failed may have had SQLite end the transaction (a full disk, an
                // I/O error): the next one would then run outside it, committing as it goes.
                try db.requireTransaction()
                answers.append(try write.run(db, isolated))
            }
            try transactionEnd.beforeCommit(db)
        }
        committed = true
    }
}

/// A continuation resumed at most once: a write timed out is answered then; its own answer, later, goes nowhere.
private final class Once<T: Sendable>: Sendable {
    private let continuation: Locked<CheckedContinuation<T, any Error>?>

    init(_ continuation: CheckedContinuation<T, any Error>) {
        self.continuation = Locked(continuation)
    }

    func resume(with outcome: Result<T, any Error>) {
        let waiting = continuation.withLock { continuation in
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(with: outcome)
    }
}
