import AlertQueue
import Foundation
import Locking

/// Groups concurrent enqueues into batches: one transaction, one round trip to lock and load,
/// one to insert, one commit for many callers (group commit, as the SQLite store's
/// `WriteBatcher` does for its writes).
///
/// A caller that finds no batch running starts one at once with whatever is waiting, so an
/// enqueue alone is not delayed. While batches run, another starts beside them (up to `limit`)
/// only once `overlapAt` enqueues wait: a batch costs its round trips and a commit whatever its
/// size, so a second one is worth running only when it has enough to carry. Otherwise the
/// callers wait for the next batch, which starts as soon as a running one ends and takes
/// everything that gathered meanwhile. Batches that run at once may share sessions: each locks
/// its sessions in sorted order, so they take turns rather than deadlock. Every caller is
/// answered only after its batch committed.
final class EnqueueBatcher: Sendable {
    /// One enqueue waiting for its batch.
    struct Pending: Sendable {
        let item: NewItem
        let now: Date
        let answer: CheckedContinuation<EnqueueResult, any Error>
    }

    private struct State {
        var pending: [Pending] = []
        var running = 0
    }

    /// The most batches in flight at once (each on its own pooled connection).
    private let limit: Int
    /// The most enqueues in one batch.
    private let size: Int
    /// The enqueues that must be waiting for a batch to start while another runs.
    private let overlapAt: Int
    /// Where batches run: Swift's shared pool unless given (tests give threads of their own).
    private let executor: (any TaskExecutor)?
    private let state = Locked(State())

    init(limit: Int, size: Int = 256, overlapAt: Int = 1, executor: (any TaskExecutor)? = nil) {
        self.limit = max(limit, 1)
        self.size = max(size, 1)
        self.overlapAt = max(overlapAt, 1)
        self.executor = executor
    }

    /// Queues `item` for a batch run by `run`, and returns its outcome once that batch ends.
    /// `run` answers every `Pending` it is given, exactly once.
    func enqueue(
        _ item: NewItem, now: Date, run: @escaping @Sendable ([Pending]) async -> Void
    ) async throws -> EnqueueResult {
        try await withCheckedThrowingContinuation { continuation in
            let batch = state.withLock { state -> [Pending]? in
                state.pending.append(Pending(item: item, now: now, answer: continuation))
                guard state.running == 0 || (state.running < limit && state.pending.count >= overlapAt) else {
                    return nil
                }
                state.running += 1
                return take(from: &state)
            }
            if let batch {
                Task(executorPreference: executor) { await self.drain(first: batch, run: run) }
            }
        }
    }

    /// Runs `first`, then the batches that gathered meanwhile, until none waits.
    private func drain(first: [Pending], run: @escaping @Sendable ([Pending]) async -> Void) async {
        var batch = first
        while !batch.isEmpty {
            await run(batch)
            batch = state.withLock { state in
                let next = take(from: &state)
                if next.isEmpty { state.running -= 1 }
                return next
            }
        }
    }

    /// The enqueues waiting for a batch (for tests).
    var waiting: Int { state.withLock { $0.pending.count } }

    private func take(from state: inout State) -> [Pending] {
        let count = min(state.pending.count, size)
        defer { state.pending.removeFirst(count) }
        return Array(state.pending.prefix(count))
    }
}
