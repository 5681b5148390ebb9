import AlertQueue
import Foundation
import Locking
import PostgresNIO
import Synchronization

/// A batch of enqueues (`EnqueueBatcher`) in one transaction: `BEGIN`, `alertd.lock_sessions`
/// (every session of the batch locked, their live items loaded, one sequence per enqueue), the
/// policy applied in Swift to each enqueue in turn — one after another on the same items when
/// they share a session, exactly as if they had come one by one — then one multi-row insert (and
/// an update per item the policy changed), `COMMIT`, the changed sessions handed to
/// `ChangeNotifier` for their NOTIFY, and the answers.
extension PostgresQueueStore {
    /// Runs `batch` and answers every member once: its result or refusal (queue full) after the
    /// commit; the store's error when the transaction failed.
    func runEnqueueBatch(_ batch: [EnqueueBatcher.Pending], seeingLiveItems: Bool = true) async {
        do {
            let outcomes = try await perform { connection in
                try await self.enqueueBatch(batch.map { ($0.item, $0.now) }, seeingLiveItems: seeingLiveItems, on: connection)
            }
            for (member, outcome) in zip(batch, outcomes) { member.answer.resume(with: outcome) }
        } catch is BatchRunsAlone {
            await withTaskGroup(of: Void.self) { group in
                for member in batch {
                    group.addTask {
                        do {
                            let result = try await self.write(session: member.item.session) { connection in
                                try await self.enqueue(member.item, now: member.now, on: connection)
                            }
                            member.answer.resume(returning: result)
                        } catch {
                            member.answer.resume(throwing: error)
                        }
                    }
                }
            }
        } catch {
            for member in batch { member.answer.resume(throwing: error) }
        }
    }

    /// The batch's transaction: each member's outcome, in order. Its changed sessions go to
    /// `ChangeNotifier` once it committed, so a listener woken by their NOTIFY sees the batch.
    ///
    /// Two waits for four statements: `BEGIN` goes out ahead of `lock_sessions`, and the writes
    /// ahead of `COMMIT` (postgres-nio sends a connection's queries in order, each once the one
    /// before is answered, without coming back here in between). The NOTIFY is not sent from
    /// here: on this connection it cost every batch one more round trip and transaction, and
    /// the batch's slot (`EnqueueBatcher`) stayed taken until it was answered.
    /// An insert that meets a live dedupe key the load did not show fails the transaction (its
    /// `COMMIT` then ends it as a rollback), and the batch runs again one by one.
    private func enqueueBatch(
        _ writes: [(item: NewItem, now: Date)], seeingLiveItems: Bool, on connection: PostgresConnection
    ) async throws -> [Result<EnqueueResult, any Error>] {
        let sessions = Array(Set(writes.map(\.item.session)))
        let ahead = StatementsAhead(connection: connection, logger: logger)
        ahead.send("BEGIN")
        let decided: (outcomes: [Result<EnqueueResult, any Error>], all: [SessionItems])
        do {
            let rows = try await connection.query(
                "SELECT * FROM alertd.lock_sessions(\(BinaryArray(sessions))::text[], \(writes.count)::integer)", logger: logger
            ).collect()
            try ahead.check()
            decided = try decide(writes, sessions: sessions, locked: rows, seeingLiveItems: seeingLiveItems)
            for item in decided.all.flatMap(\.updated) { ahead.send(ItemRow.updateProgress(of: item)) }
            let inserted = decided.all.flatMap(\.inserted)
            if !inserted.isEmpty { ahead.send(try ItemRow.insert(inserted, contents: contents)) }
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
        try await connection.query("COMMIT", logger: logger)
        do {
            // A write that failed made the COMMIT a rollback.
            try ahead.check()
        } catch let error as PSQLError where error.isUniqueViolation {
            throw BatchRunsAlone()
        }
        notifier.gather(decided.all.filter(\.hasChanges).map(\.session))
        return decided.outcomes
    }

    /// The policy applied to each enqueue in turn, on the items `lock_sessions` returned (none
    /// unless `seeingLiveItems`).
    private func decide(
        _ writes: [(item: NewItem, now: Date)], sessions: [String], locked rows: [PostgresRow], seeingLiveItems: Bool
    ) throws -> (outcomes: [Result<EnqueueResult, any Error>], all: [SessionItems]) {
        guard let first = rows.first else { throw PostgresStoreError.unreadableRow("lock_sessions returned no row") }
        let columns = first.makeRandomAccess()
        let databaseNow = try columns[13].decode(Double.self)
        let sequences = try columns[14].decode([Int64].self)
        guard sequences.count == writes.count else { throw PostgresStoreError.unreadableRow("too few sequences") }
        var loaded: [String: [QueueItem]] = [:]
        for row in rows where seeingLiveItems && row.makeRandomAccess()[0].bytes != nil {
            let item = try ItemRow.item(from: row, contents: contents)
            loaded[item.session, default: []].append(item)
        }
        var bySession = Dictionary(
            uniqueKeysWithValues: sessions.map { ($0, SessionItems(session: $0, items: loaded[$0] ?? [])) })
        var outcomes: [Result<EnqueueResult, any Error>] = []
        outcomes.reserveCapacity(writes.count)
        for (index, write) in writes.enumerated() {
            let now = clock(caller: write.now, database: databaseNow)
            let candidate = policy.makeItem(write.item, ticket: QueueTicket.make(at: now), sequence: sequences[index], now: now)
            // A refused enqueue leaves the items as they were before it (its transaction, alone,
            // would have been rolled back).
            var items = bySession[write.item.session]!
            do {
                outcomes.append(.success(try policy.enqueue(candidate, into: &items, now: now)))
                bySession[write.item.session] = items
            } catch {
                outcomes.append(.failure(error))
            }
        }
        return (outcomes, Array(bySession.values))
    }
}

/// A batch of enqueues found what it cannot answer for every member (an insert met a live dedupe
/// key its load did not show): it is rolled back and each enqueue runs on its own.
struct BatchRunsAlone: Error {}

extension PostgresQueueStore {
    /// `items` enqueued as one batch that does not see the live items, as a writer racing it
    /// would not: only the unique index can find a duplicate. For tests of that path.
    func enqueueBatchUnseen(_ items: [NewItem], now: Date) async throws -> [EnqueueResult] {
        let gathered = Locked<[EnqueueBatcher.Pending]>([])
        return try await withThrowingTaskGroup(of: (Int, EnqueueResult).self) { group in
            for (index, item) in items.enumerated() {
                group.addTask {
                    let result = try await withCheckedThrowingContinuation { continuation in
                        let all = gathered.withLock { pending -> [EnqueueBatcher.Pending]? in
                            pending.append(EnqueueBatcher.Pending(item: item, now: now, answer: continuation))
                            return pending.count == items.count ? pending : nil
                        }
                        if let all { Task { await self.runEnqueueBatch(all, seeingLiveItems: false) } }
                    }
                    return (index, result)
                }
            }
            var results = [EnqueueResult?](repeating: nil, count: items.count)
            for try await (index, result) in group { results[index] = result }
            return results.map { $0! }
        }
    }
}

/// Statements sent on a connection without waiting for their answers, and the first error
/// they met. The connection answers its statements in order, so once a statement awaited
/// after them has answered, so have they, and `check()` knows.
///
/// (Their answers are observed with callbacks, not by awaiting `EventLoopFuture.get()`, whose
/// resumption from the event loop ThreadSanitizer reports as a race.)
private final class StatementsAhead: Sendable {
    private let connection: PostgresConnection
    private let logger: Logger
    private let failure = Locked<(any Error)?>(nil)

    init(connection: PostgresConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    func send(_ query: PostgresQuery) {
        connection.pipelined(query, logger: logger).whenFailure { [failure] error in
            failure.withLock { first in
                if first == nil { first = error }
            }
        }
    }

    /// Throws the first error of the statements sent so far (call after awaiting a later one).
    func check() throws {
        if let error = failure.withLock({ $0 }) { throw error }
    }
}
