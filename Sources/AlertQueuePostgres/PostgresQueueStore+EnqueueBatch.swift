import AlertQueue
import AlertSpec
import Foundation
import Locking
import PostgresNIO
import Synchronization

/// A batch of enqueues (`EnqueueBatcher`) in one transaction, then the changed sessions handed to
/// `ChangeNotifier` for their NOTIFY, and the answers. Two ways:
/// - **At once**, tried first: one statement, `alertd.enqueue_counted`, which locks the sessions,
///   finds through indexes whether the policy would do more than insert each enqueue (a live
///   duplicate, a HUD to replace, an ended lease or TTL, no room in the queue), inserts the
///   enqueues of the other sessions (the common case) and holds those back. One round trip and no
///   `BEGIN`/`COMMIT` statements: about 10 % less of the machine per enqueue than the general way
///   (`make bench-postgres`). It reads no item: the policy, applied here over the counts it
///   returns, gives the answers (each one's position).
/// - **The general way**, for the sessions held back: `BEGIN`, `alertd.lock_windows` (every
///   session of the batch locked, the window each enqueue can touch loaded, one sequence per
///   enqueue), the policy applied in Swift to each enqueue in turn — one after another on the
///   same items when they share a session, exactly as if they had come one by one — then one
///   multi-row insert (and an update per item the policy changed) and `COMMIT`.
extension PostgresQueueStore {
    /// Runs `batch` and answers every member once: its result or refusal (queue full) after the
    /// commit; the store's error when the transaction failed. The members `enqueue_counted` held
    /// back run the general way, in a transaction of their own.
    func runEnqueueBatch(_ batch: [EnqueueBatcher.Pending], seeingLiveItems: Bool = true) async {
        var batch = batch
        if seeingLiveItems {
            // A scheduled or paced item goes the general way: `enqueue_counted` writes no
            // `not_before` and no `pacing`.
            let general = batch.filter { $0.item.notBefore != nil || !$0.item.pacing.isNone }
            batch = await runAtOnce(batch.filter { $0.item.notBefore == nil && $0.item.pacing.isNone }) + general
            if batch.isEmpty { return }
        }
        let writes = batch.map { ($0.item, $0.now) }
        do {
            let outcomes = try await perform { connection in
                try await self.enqueueBatch(writes, seeingLiveItems: seeingLiveItems, on: connection)
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

    /// `enqueueAtOnce` for `batch`: answers the members it inserted (or every member, with the
    /// store's error, when it failed) and returns those it held back.
    private func runAtOnce(_ batch: [EnqueueBatcher.Pending]) async -> [EnqueueBatcher.Pending] {
        if batch.isEmpty { return [] }
        let writes = batch.map { ($0.item, $0.now) }
        do {
            let outcomes = try await perform { connection in try await self.enqueueAtOnce(writes, on: connection) }
            var heldBack: [EnqueueBatcher.Pending] = []
            for (member, outcome) in zip(batch, outcomes) {
                if let outcome { member.answer.resume(with: outcome) } else { heldBack.append(member) }
            }
            return heldBack
        } catch {
            for member in batch { member.answer.resume(throwing: error) }
            return []
        }
    }

    /// The batch's transaction: each member's outcome, in order. Its changed sessions go to
    /// `ChangeNotifier` once it committed, so a listener woken by their NOTIFY sees the batch.
    ///
    /// Two waits for four statements: `BEGIN` goes out ahead of `lock_windows`, and the writes
    /// ahead of `COMMIT` (postgres-nio sends a connection's queries in order, each once the one
    /// before is answered, without coming back here in between). The NOTIFY is not sent from
    /// here: on this connection it cost every batch one more round trip and transaction, and
    /// the batch's slot (`EnqueueBatcher`) stayed taken until it was answered.
    /// An insert that meets a live dedupe key the load did not show fails the transaction (its
    /// `COMMIT` then ends it as a rollback), and the batch runs again one by one.
    private func enqueueBatch(
        _ writes: [(item: NewItem, now: Date)], seeingLiveItems: Bool, on connection: PostgresConnection
    ) async throws -> [Result<EnqueueResult, any Error>] {
        let ahead = StatementsAhead(connection: connection, logger: logger)
        ahead.send("BEGIN")
        var decided: (outcomes: [Result<EnqueueResult, any Error>], all: [SessionItems])
        do {
            let requests = writes.map { seeingLiveItems ? WindowRequest.enqueue($0.item) : WindowRequest(session: $0.item.session) }
            let windows = try await lockWindows(
                requests, sequences: writes.count, now: writes.map(\.now).max(), on: connection)
            try ahead.check()
            decided = try decide(writes, databaseNow: windows.databaseNow, sequences: windows.sequences) { session, positioned in
                seeingLiveItems
                    ? windows.sessionItems(session, positioned: positioned) : SessionItems(session: session, items: [])
            }
            for items in decided.all {
                for item in items.updated { ahead.send(try ItemRow.update(item, in: items)) }
            }
            let inserted = decided.all.flatMap(\.inserted)
            if !inserted.isEmpty { ahead.send(try ItemRow.insert(inserted, contents: contents)) }
            if let events = EventRow.insert(decided.all.flatMap(\.events)) { ahead.send(events) }
            // A refreshed item's place is counted as written (the writes above are answered first).
            for index in decided.outcomes.indices {
                guard case .success(var result) = decided.outcomes[index], result.refreshed else { continue }
                do {
                    result.position = try await place(ofQueued: result.item, on: connection)
                } catch {
                    try ahead.check()  // a write before it failed the transaction: that is the cause
                    throw error
                }
                decided.outcomes[index] = .success(result)
            }
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            if let error = error as? PSQLError, error.isUniqueViolation { throw BatchRunsAlone() }
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

    /// The batch in one statement, `alertd.enqueue_counted` (`enqueue_counted_logged` with the
    /// timeline on, which also writes the `enqueued` events): each enqueue's outcome, or nil for
    /// those of the sessions the function held back (it wrote nothing for them, and they run the
    /// general way). The policy, applied here over the counts the function returned, gives the
    /// inserted enqueues' answers; it must agree that each was simply inserted, and a
    /// disagreement fails the batch rather than answer for rows the policy would not have written.
    private func enqueueAtOnce(
        _ writes: [(item: NewItem, now: Date)], on connection: PostgresConnection
    ) async throws -> [Result<EnqueueResult, any Error>?] {
        let items = writes.map(\.item)
        let tickets = writes.map { QueueTicket.make(at: $0.now) }
        let contents = try items.map { item in try self.contents.json(item.content) }
        // With the caller's clock, the times are the caller's, and the expiry is computed here
        // exactly as `QueuePolicy.makeItem` computes it; with the database's, there.
        let callers = options.clock == .caller
        let nows = writes.map { callers ? $0.now.timeIntervalSince1970 : .nan }
        let expires = writes.map { write in
            callers ? write.item.ttl.map { write.now.addingTimeInterval($0).timeIntervalSince1970 } ?? .nan : .nan
        }
        func column<Element>(_ value: (NewItem) -> Element) -> BinaryArray<Element> { BinaryArray(items.map(value)) }
        let logged = policy.settings.recordsEvents
        var query: PostgresQuery = """
            SELECT * FROM alertd.\(unescaped: logged ? "enqueue_counted_logged" : "enqueue_counted")(\
            \(BinaryArray(tickets))::text[], \(column(\.session))::text[], \
            \(BinaryArray(contents))::text[], \(column { Int64($0.priority) })::bigint[], \(column(\.lane.rawValue))::text[], \
            \(column(\.dedupeKey))::text[], \(column { $0.ttl ?? .nan })::float8[], \(BinaryArray(expires))::float8[], \
            \(column(\.atHead))::boolean[], \(BinaryArray(nows))::float8[], \(policy.settings.maxQueueLength)::integer
            """
        if logged {
            // The logged function takes who queued each, for the `enqueued` events it writes.
            query.binds.append(column(\.origin.rawValue))
            query.sql += ", $\(query.binds.count)::text[]"
        }
        query.sql += ")"
        let rows = try await connection.query(query, logger: logger).collect()
        guard let row = rows.first else { throw PostgresStoreError.unreadableRow("enqueue_counted returned no row") }
        let columns = row.makeRandomAccess()
        let databaseNow = try columns[0].decode(Double.self), sequences = try columns[1].decode([Int64].self)
        let heldBack = Set(try columns[2].decode([String].self))
        let (live, ahead) = (try columns[3].decode([Int64].self), try columns[4].decode([Int64].self))
        guard sequences.count == writes.count, live.count == writes.count, ahead.count == writes.count else {
            throw PostgresStoreError.unreadableRow("enqueue_counted returned \(sequences.count) sequences for \(writes.count) enqueues")
        }
        let inserted = writes.indices.filter { !heldBack.contains(writes[$0].item.session) }
        var outcomes = [Result<EnqueueResult, any Error>?](repeating: nil, count: writes.count)
        guard !inserted.isEmpty else { return outcomes }
        let sessions = Array(Set(inserted.map { items[$0].session }))
        // Nothing read: the policy decides over the counts alone, which is all a simple insert needs.
        let decided = try decide(
            inserted.map { writes[$0] }, databaseNow: databaseNow, sequences: inserted.map { sequences[$0] },
            tickets: inserted.map { tickets[$0] }
        ) { session, positioned in
            let counted = positioned.map { (item: $0.item, ahead: Int(ahead[inserted[$0.request]])) }
            let unloaded = SessionItems.Unloaded(window: [], live: Int(live[inserted[positioned[0].request]]), positioned: counted)
            return SessionItems(session: session, items: [], unloaded: unloaded)
        }
        try requireAgreement(decided, inserted: inserted, tickets: tickets)
        notifier.gather(sessions)
        for (outcome, index) in zip(decided.outcomes, inserted) { outcomes[index] = outcome }
        return outcomes
    }
}

/// A batch of enqueues found what it cannot answer for every member (an insert met a live dedupe
/// key its load did not show): it is rolled back and each enqueue runs on its own.
struct BatchRunsAlone: Error {}

extension PostgresQueueStore {
    /// `items` enqueued as one batch that does not see the live items, as a writer racing it
    /// would not: only the unique index can find a duplicate. For tests of that path.
    func enqueueBatchUnseen(_ items: [NewItem], now: Date) async throws -> [EnqueueResult] {
        try await enqueueAsOneBatch(items, now: now, seeingLiveItems: false)
    }

    /// `items` enqueued as one batch, whatever else is under way. For tests.
    func enqueueAsOneBatch(_ items: [NewItem], now: Date, seeingLiveItems: Bool = true) async throws -> [EnqueueResult] {
        let gathered = Locked<[EnqueueBatcher.Pending]>([])
        return try await withThrowingTaskGroup(of: (Int, EnqueueResult).self) { group in
            for (index, item) in items.enumerated() {
                group.addTask {
                    let result = try await withCheckedThrowingContinuation { continuation in
                        let all = gathered.withLock { pending -> [EnqueueBatcher.Pending]? in
                            pending.append(EnqueueBatcher.Pending(item: item, now: now, answer: continuation))
                            return pending.count == items.count ? pending : nil
                        }
                        if let all { Task { await self.runEnqueueBatch(all, seeingLiveItems: seeingLiveItems) } }
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
