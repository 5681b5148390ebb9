import AlertQueue
import Foundation
import Locking
import TestExecutors
import Testing

@testable import AlertQueuePostgres

/// When the PostgreSQL store's enqueue batches start, with a stand-in for the batch's
/// transaction that holds each batch until the test lets it end.
@Suite("PostgreSQL enqueue batches")
struct EnqueueBatcherTests {
    @Test("An enqueue alone starts a batch at once; a few that come while it runs wait and go together")
    func fewWaitForTheRunningBatch() async throws {
        // Given: a batch running for the first enqueue
        let batcher = EnqueueBatcher(limit: 2, overlapAt: 3, executor: OwnThread())
        let transactions = HeldBatches()
        defer { transactions.endAll() }
        let first = enqueueing("app/0", through: batcher, held: transactions)
        #expect(await transactions.wait { $0 == [1] })
        // When: two come while it runs, fewer than `overlapAt`
        let later = (1...2).map { index in
            enqueueing("app/\(index)", through: batcher, held: transactions)
        }
        #expect(await eventually { batcher.waiting == 2 })
        // Then: they start no batch of their own, but go together once the first one ends
        #expect(transactions.sizes == [1])
        transactions.endNext()
        #expect(await transactions.wait { $0 == [1, 2] })
        transactions.endAll()
        #expect(try await first.value.item.sequence == 0)
        #expect(Set(try await [later[0].value.item.sequence, later[1].value.item.sequence]) == [0, 1])
    }

    @Test("Once `overlapAt` enqueues wait, a second batch runs beside the first, and no more than `limit`")
    func enoughWaitingStartAnotherBatch() async throws {
        // Given: a batch running
        let batcher = EnqueueBatcher(limit: 2, overlapAt: 3, executor: OwnThread())
        let transactions = HeldBatches()
        defer { transactions.endAll() }
        var tasks = [enqueueing("app/0", through: batcher, held: transactions)]
        #expect(await transactions.wait { $0 == [1] })
        // When: three come while it runs
        for index in 1...3 {
            tasks.append(enqueueing("app/\(index)", through: batcher, held: transactions))
        }
        // Then: they run as a second batch before the first ends
        #expect(await transactions.wait { $0 == [1, 3] })
        // And when three more come with two batches running, they wait for one to end
        for index in 4...6 {
            tasks.append(enqueueing("app/\(index)", through: batcher, held: transactions))
        }
        #expect(await eventually { batcher.waiting == 3 })
        #expect(transactions.sizes == [1, 3])
        transactions.endNext()
        #expect(await transactions.wait { $0 == [1, 3, 3] })
        transactions.endAll()
        for task in tasks { _ = try await task.value }
    }
}

/// An enqueue of `id` through `batcher`, in a task on a thread of its own (see `eventually`).
private func enqueueing(
    _ id: String, through batcher: EnqueueBatcher, held transactions: HeldBatches
) -> Task<EnqueueResult, any Error> {
    Task(executorPreference: OwnThread()) { try await batcher.enqueue(alert(id), now: t0, run: transactions.run) }
}

/// Batches handed to the batcher's `run`, each held until `endNext()` answers its members (with
/// their place in the batch as the item's sequence), oldest first. After `endAll()` none is
/// held, so a test that fails still ends.
private final class HeldBatches: Sendable {
    private struct State {
        var sizes: [Int] = []
        var held: [CheckedContinuation<Void, Never>] = []
        var holding = true
    }

    private let state = Locked(State())

    var sizes: [Int] { state.withLock { $0.sizes } }

    var run: @Sendable ([EnqueueBatcher.Pending]) async -> Void {
        { [self] batch in
            await withCheckedContinuation { continuation in
                let holds = state.withLock { state in
                    state.sizes.append(batch.count)
                    if state.holding { state.held.append(continuation) }
                    return state.holding
                }
                if !holds { continuation.resume() }
            }
            let policy = QueuePolicy()
            for (index, member) in batch.enumerated() {
                let item = policy.makeItem(member.item, ticket: "t\(index)", sequence: Int64(index), now: member.now)
                member.answer.resume(returning: EnqueueResult(item: item, created: true, position: index + 1))
            }
        }
    }

    /// Ends the oldest batch still held.
    func endNext() {
        let continuation = state.withLock { state in state.held.isEmpty ? nil : state.held.removeFirst() }
        continuation?.resume()
    }

    /// Ends every batch held, and holds none from now on.
    func endAll() {
        let held = state.withLock { state in
            state.holding = false
            defer { state.held.removeAll() }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }

    /// Waits (up to 60 s) until the sizes of the batches started so far satisfy `condition`.
    func wait(until condition: @escaping @Sendable ([Int]) -> Bool) async -> Bool {
        await eventually { condition(self.sizes) }
    }
}

/// Polls `condition` every millisecond for up to 60 s; whether it came true. The batches and
/// enqueues run on threads of their own, but this test's body runs in Swift's shared pool, which
/// tests beside it may keep busy for seconds: then the last look, once it runs again, decides.
private func eventually(_ condition: @escaping @Sendable () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}
