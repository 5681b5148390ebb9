import AlertQueue
import Foundation
import Logging

// A batch of enqueues decided by the policy over the counts the database returned, where no
// item was read: the same decisions a window of each session would give.

extension PostgresQueueStore {
    /// Throws `policyDisagreement` (and logs it) unless the policy, deciding over the counts
    /// alone, created exactly the items the statement inserted (`inserted`: their requests'
    /// indexes into `tickets`) and changed nothing else.
    func requireAgreement(
        _ decided: (outcomes: [Result<EnqueueResult, any Error>], all: [SessionItems]), inserted: [Int], tickets: [String]
    ) throws {
        let agrees = decided.all.allSatisfy { $0.updated.isEmpty }
            && zip(decided.outcomes, inserted).allSatisfy { outcome, index in
                if case .success(let result) = outcome { result.created && result.item.ticket == tickets[index] } else { false }
            }
        guard agrees else {
            let error = PostgresStoreError.policyDisagreement(tickets: inserted.map { tickets[$0] })
            logger.error("\(error)")
            throw error
        }
    }

    /// The policy applied to each enqueue in turn, at `sequences` (one per write) and under
    /// `tickets` when given, on the items `sessionItems` gives for each session, told which items
    /// will be queued there and the index of the write of each.
    func decide(
        _ writes: [(item: NewItem, now: Date)], databaseNow: Double, sequences: [Int64], tickets: [String]? = nil,
        sessionItems: (_ session: String, _ positioned: [(item: QueueItem, request: Int)]) -> SessionItems
    ) throws -> (outcomes: [Result<EnqueueResult, any Error>], all: [SessionItems]) {
        let candidates = writes.enumerated().map { index, write in
            let now = clock(caller: write.now, database: databaseNow)
            let ticket = tickets?[index] ?? QueueTicket.make(at: now)
            return (item: policy.makeItem(write.item, ticket: ticket, sequence: sequences[index], now: now), now: now)
        }
        var positioned: [String: [(item: QueueItem, request: Int)]] = [:]
        for (index, candidate) in candidates.enumerated() { positioned[candidate.item.session, default: []].append((candidate.item, index)) }
        var bySession = Dictionary(uniqueKeysWithValues: positioned.map { ($0.key, sessionItems($0.key, $0.value)) })
        var outcomes: [Result<EnqueueResult, any Error>] = []
        outcomes.reserveCapacity(writes.count)
        for (write, candidate) in zip(writes, candidates) {
            // A refused enqueue leaves the items as they were before it (its transaction, alone,
            // would have been rolled back).
            var items = bySession[candidate.item.session]!
            do {
                let onDuplicate = write.item.onDuplicate
                outcomes.append(.success(try policy.enqueue(
                    candidate.item, into: &items, now: candidate.now, onDuplicate: onDuplicate, origin: write.item.origin)))
                bySession[candidate.item.session] = items
            } catch {
                outcomes.append(.failure(error))
            }
        }
        return (outcomes, Array(bySession.values))
    }
}
