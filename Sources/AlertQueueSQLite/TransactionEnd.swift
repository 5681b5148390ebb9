import GRDB
import Locking

/// What must follow the end of the batcher's transaction: the `SequenceMemo`s forget what they
/// counted and refreshed contents are dropped from memory whatever the end (`then`); the events
/// written are handed to the outcome roll-up only once committed (`onCommit`), and not at all
/// for a write its savepoint undid (`undo(to:)`). Before the commit, the event rows staged
/// (`events`) are inserted (`beforeCommit`), and an undone write's go with it.
///
/// GRDB's `afterNextTransaction` would do the first, but it adds a transaction observer per call,
/// and adding an observer drops every cached statement that may delete rows, the item updates
/// among them (`live_counts`' triggers delete): each was prepared again, about 900,000
/// instructions, in most transactions (callgrind over cycles, `make bench-instructions`).
final class TransactionEnd: Sendable {
    private struct Due {
        var always: [@Sendable () -> Void] = []
        var committed: [@Sendable () -> Void] = []
    }

    private let due = Locked(Due())
    /// The event rows of the transaction under way, inserted just before it commits.
    let events = StagedEvents()

    /// Where a write begins, for `undo(to:)`.
    struct Mark {
        fileprivate var committed: Int
        fileprivate var events: StagedEvents.Mark
    }

    /// Runs `action` when the transaction under way ends, committed or not; only inside a write.
    func then(_ action: @escaping @Sendable () -> Void) {
        due.withLock { $0.always.append(action) }
    }

    /// Runs `action` if the transaction under way commits, unless the write that asked is undone.
    func onCommit(_ action: @escaping @Sendable () -> Void) {
        due.withLock { $0.committed.append(action) }
    }

    func mark() -> Mark { Mark(committed: due.withLock { $0.committed.count }, events: events.mark()) }

    /// A write that began at `mark` was undone (its savepoint rolled back, or it failed before
    /// changing anything): what it asked to run on commit never will, and its events are not
    /// inserted.
    func undo(to mark: Mark) {
        due.withLock { due in
            if due.committed.count > mark.committed { due.committed.removeSubrange(mark.committed...) }
        }
        events.undo(to: mark.events)
    }

    /// Inside the transaction, after its last write: inserts the events staged.
    func beforeCommit(_ db: Database) throws {
        try events.write(in: db)
    }

    /// The transaction ended (or never began): runs what was asked, once.
    func ended(committed: Bool) {
        events.reset()
        let run = due.withLock { due in
            defer { due = Due() }
            return committed ? due.always + due.committed : due.always
        }
        for action in run { action() }
    }
}
