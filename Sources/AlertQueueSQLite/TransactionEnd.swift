import Locking

/// What must follow the end of the batcher's transaction, committed or rolled back: the
/// `SequenceMemo`s forget what they counted, refreshed contents are dropped from memory.
///
/// GRDB's `afterNextTransaction` would do it, but it adds a transaction observer per call, and
/// adding an observer drops every cached statement that may delete rows, the item updates among
/// them (`live_counts`' triggers delete): each was prepared again, about 900,000 instructions,
/// in most transactions (callgrind over cycles, `make bench-instructions`).
final class TransactionEnd: Sendable {
    private let actions = Locked<[@Sendable () -> Void]>([])

    /// Runs `action` when the transaction under way ends; only inside a write.
    func then(_ action: @escaping @Sendable () -> Void) {
        actions.withLock { $0.append(action) }
    }

    /// The transaction ended (or never began): runs what was asked, once.
    func ended() {
        let due = actions.withLock { actions in
            defer { actions.removeAll(keepingCapacity: true) }
            return actions
        }
        for action in due { action() }
    }
}
