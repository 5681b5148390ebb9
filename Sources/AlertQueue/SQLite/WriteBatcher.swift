import GRDB
import Synchronization

/// Groups concurrent writes into one transaction (group commit). A write that arrives while
/// another is waiting for the writer joins it: the batch runs in one IMMEDIATE transaction, each
/// write in its own savepoint (its failure undoes only itself), and every caller is answered
/// only after the shared commit — so "acknowledged means committed" holds as before, with one
/// commit and one writer hand-off for many requests instead of one each.
final class WriteBatcher: Sendable {
    /// How a write ends once the batch's transaction is settled.
    private struct Settlement: Sendable {
        /// The batch committed: answer with the write's own outcome.
        let committed: @Sendable () -> Void
        /// The batch's commit failed: nothing of it is stored.
        let failed: @Sendable (any Error) -> Void
    }

    private typealias Write = @Sendable (Database) -> Settlement

    private let writer: any DatabaseWriter
    private let pending = Mutex<[Write]>([])

    init(writer: any DatabaseWriter) {
        self.writer = writer
    }

    /// Runs `body` in the next batch and returns its result after the batch commits.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let write: Write = { db in
                let outcome: Result<T, any Error>
                do {
                    var value: T?
                    try db.inSavepoint {
                        value = try body(db)
                        return .commit
                    }
                    outcome = .success(value!)
                } catch {
                    outcome = .failure(error)
                }
                return Settlement(
                    committed: { continuation.resume(with: outcome) },
                    failed: { continuation.resume(throwing: $0) })
            }
            let startsBatch = pending.withLock { writes -> Bool in
                writes.append(write)
                return writes.count == 1
            }
            if startsBatch { runBatch() }
        }
    }

    /// On the writer's queue: takes every write waiting now and runs them in one transaction.
    private func runBatch() {
        writer.asyncWriteWithoutTransaction { [self] db in
            let batch = pending.withLock { writes -> [Write] in
                defer { writes.removeAll(keepingCapacity: true) }
                return writes
            }
            var settlements: [Settlement] = []
            settlements.reserveCapacity(batch.count)
            do {
                try db.inTransaction(.immediate) {
                    for write in batch { settlements.append(write(db)) }
                    return .commit
                }
                for settlement in settlements { settlement.committed() }
            } catch {
                for settlement in settlements { settlement.failed(error) }
            }
        }
    }
}
