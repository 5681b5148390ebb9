import AlertQueue
import Foundation
import PostgresNIO

/// A batch of enqueues (`EnqueueBatcher`) in one transaction: `BEGIN`, `alertd.lock_sessions`
/// (every session of the batch locked, their live items loaded, one sequence per enqueue), the
/// policy applied in Swift to each enqueue in turn — one after another on the same items when
/// they share a session, exactly as if they had come one by one — then one multi-row insert (and
/// an update per item the policy changed), `COMMIT`, the NOTIFYs, and the answers.
extension PostgresQueueStore {
    /// Runs `batch` and answers every member once: its result or refusal (queue full) after the
    /// commit; the store's error when the transaction failed.
    func runEnqueueBatch(_ batch: [EnqueueBatcher.Pending]) async {
        do {
            let (outcomes, changed) = try await perform { connection in
                try await self.enqueueBatch(batch.map { ($0.item, $0.now) }, on: connection)
            }
            await notifier.notify(sessions: changed)
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

    /// The batch's transaction: each member's outcome, in order, and the sessions changed.
    private func enqueueBatch(
        _ writes: [(item: NewItem, now: Date)], on connection: PostgresConnection
    ) async throws -> ([Result<EnqueueResult, any Error>], changed: [String]) {
        try await connection.transaction(logger: logger) { connection in
            let sessions = Array(Set(writes.map(\.item.session)))
            let rows = try await connection.query(
                "SELECT * FROM alertd.lock_sessions(\(sessions)::text[], \(writes.count)::integer)", logger: logger
            ).collect()
            guard let first = rows.first else { throw PostgresStoreError.unreadableRow("lock_sessions returned no row") }
            let columns = first.makeRandomAccess()
            let databaseNow = try columns[13].decode(Double.self)
            let sequences = try columns[14].decode([Int64].self)
            guard sequences.count == writes.count else { throw PostgresStoreError.unreadableRow("too few sequences") }
            var loaded: [String: [QueueItem]] = [:]
            for row in rows where row.makeRandomAccess()[0].bytes != nil {
                let item = try ItemRow.item(from: row)
                loaded[item.session, default: []].append(item)
            }
            var bySession = Dictionary(
                uniqueKeysWithValues: sessions.map { ($0, SessionItems(session: $0, items: loaded[$0] ?? [])) })
            var outcomes: [Result<EnqueueResult, any Error>] = []
            outcomes.reserveCapacity(writes.count)
            for (index, write) in writes.enumerated() {
                let now = clock(caller: write.now, database: databaseNow)
                let candidate = policy.makeItem(write.item, ticket: QueueTicket.random(), sequence: sequences[index], now: now)
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
            let all = bySession.values
            for item in all.flatMap(\.updated) {
                try await connection.query(ItemRow.updateProgress(of: item), logger: logger)
            }
            let inserted = all.flatMap(\.inserted)
            if !inserted.isEmpty {
                let stored = try await connection.query(try ItemRow.insertUnlessLiveDuplicate(inserted), logger: logger)
                    .collect().count
                guard stored == inserted.count else { throw BatchRunsAlone() }
            }
            return (outcomes, all.filter(\.hasChanges).map(\.session))
        }
    }
}

/// A batch of enqueues found what it cannot answer for every member (an insert met a live dedupe
/// key its load did not show): it is rolled back and each enqueue runs on its own.
struct BatchRunsAlone: Error {}
