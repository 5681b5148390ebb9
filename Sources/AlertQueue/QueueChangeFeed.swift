/// A change that may concern the long-polls waiting on an instance.
public enum QueueChange: Sendable, Hashable {
    /// This session's queue or hold was written.
    case session(String)
    /// Anything may have changed (notifications may have been lost): wake every waiter.
    case all
}

/// A store shared by several processes that tells each of them what the others wrote, so that
/// a long-poll waiting in one process wakes when another process queues its alert.
///
/// Two channels, because a push can be lost: `listen(_:)` pushes changes as they commit, and
/// `changedSessions(since:)` answers a periodic sweep that catches what the push missed. A store
/// used by one process only (SQLite, memory) needs neither and does not conform.
///
/// ```swift
/// if let feed = store as? any QueueChangeFeed {
///     group.addTask { await StoreWakeups(feed: feed, polls: polls).run() }
/// }
/// ```
public protocol QueueChangeFeed: QueueStore {
    /// Where a sweep left off. Opaque to the caller.
    associatedtype Cursor: Sendable

    /// Calls `wake` for every change any process commits, and `.all` whenever changes may have
    /// been missed (when it starts listening, and again after a lost connection), until the
    /// calling task is cancelled. `wake` may run on any thread: keep it short.
    func listen(_ wake: @escaping @Sendable (QueueChange) -> Void) async

    /// The sessions written since `cursor` (none when nil), and the cursor to pass next time.
    /// It may name a session that did not change; it never misses one that did.
    /// - Throws: `QueueError.unavailable` when the store cannot be reached.
    func changedSessions(since cursor: Cursor?) async throws -> SessionChanges<Cursor>
}

/// The sessions written since a cursor, and the cursor to ask from next time.
public struct SessionChanges<Cursor: Sendable>: Sendable {
    public var sessions: Set<String>
    public var cursor: Cursor

    public init(sessions: Set<String>, cursor: Cursor) {
        self.sessions = sessions
        self.cursor = cursor
    }
}

extension SessionChanges: Equatable where Cursor: Equatable {}
