import AlertQueue
import AlertQueuePostgres
import Foundation
import Locking

/// Records what a store's listener hears, for tests to wait on.
final class ChangeRecorder: Sendable {
    private let changes = Locked<[QueueChange]>([])

    /// Starts `store.listen` — or iterates `store.changes()` — in a task kept by `database`
    /// (stopped when it is removed).
    init(listeningTo store: PostgresQueueStore, keptBy database: PostgresTestDatabase, asStream: Bool = false) {
        if asStream {
            let stream = store.changes()
            database.keep(
                Task {
                    for await change in stream { self.record(change) }
                })
        } else {
            database.keep(Task { await store.listen { change in self.record(change) } })
        }
    }

    private func record(_ change: QueueChange) {
        changes.withLock { $0.append(change) }
    }

    var heard: [QueueChange] { changes.withLock { $0 } }

    /// The sessions heard, in order (`.all` left out).
    var sessions: [String] {
        heard.compactMap { change in if case .session(let session) = change { session } else { nil } }
    }

    /// Waits until `condition` holds for what was heard, checking every 20 ms; false if it still
    /// does not after `attempts` checks (a bound so a broken listener fails the test rather than
    /// hanging it; not a timing goal).
    func wait(attempts: Int = 1500, until condition: ([QueueChange]) -> Bool) async -> Bool {
        for _ in 0..<attempts {
            if condition(heard) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition(heard)
    }

    /// Waits until the listener has said `.all` `count` times (listening, or listening again).
    func waitUntilListening(times count: Int = 1) async -> Bool {
        await wait { $0.filter { $0 == .all }.count >= count }
    }
}
