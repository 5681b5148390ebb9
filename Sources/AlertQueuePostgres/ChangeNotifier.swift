import PostgresNIO
import Locking
import Synchronization

/// Sends the NOTIFYs of committed writes, many sessions per statement.
///
/// A NOTIFY inside a write's transaction makes PostgreSQL serialize the commits of every
/// notifying transaction (it holds a database-wide lock from before the commit record is
/// flushed until after), which capped the store at a few thousand writes a second whatever the
/// pool. So writes commit without one, and then hand their session here: while one statement is
/// on its way, the sessions of the writes that commit meanwhile gather, and the next statement
/// notifies them all in a transaction of its own with `synchronous_commit` off — it stores
/// nothing worth a disk flush. The sessions travel many to a notification, one per line
/// (`payloads(for:)`): PostgreSQL queues, signals and delivers each notification on its own, and
/// one per session cost its backends 40 µs and the listening instance 12 µs per enqueue.
///
/// A notification is a hint, not a record: one lost here (the database went away right after the
/// write committed) is found by the sweep, since the write stamped its session's row in its own
/// transaction (see `changedSessions(since:)`). So a failure is logged and swallowed, and the
/// writer, already committed, is answered as a success.
final class ChangeNotifier: Sendable {
    private struct State {
        /// Sessions waiting for the next statement, and the writers to answer once it is sent.
        var sessions: Set<String> = []
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// A statement is on its way (a sending task runs).
        var sending = false
    }

    private let channel: String
    private let timeout: Duration
    private let logger: Logger
    private let pool: PostgresPool
    private let state = Locked(State())
    /// Whether another instance listens, as the store's last sweep found, or since one announced
    /// its listening: when none does, nothing is sent, as nobody would hear it but this
    /// instance, whose handlers wake their own long-polls. True until a sweep says otherwise.
    let othersListen = Atomic<Bool>(true)

    /// Notifies on `channel` through `pool`; gives up on a statement after `timeout`.
    init(channel: String, timeout: Duration, logger: Logger, pool: PostgresPool) {
        self.channel = channel
        self.timeout = timeout
        self.logger = logger
        self.pool = pool
    }

    /// Notifies `session`'s change and returns once the notification is sent (or given up on), so
    /// that a writer is answered after the listeners were told, as when NOTIFY was in its
    /// transaction. Never throws.
    func notify(_ session: String) async {
        guard othersListen.load(ordering: .relaxed) else { return }
        await notify(sessions: [session])
    }

    /// `notify(_:)` for several sessions at once.
    func notify(sessions: [String]) async {
        guard !sessions.isEmpty else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let startsSending = state.withLock { state -> Bool in
                state.sessions.formUnion(sessions)
                state.waiters.append(continuation)
                guard !state.sending else { return false }
                state.sending = true
                return true
            }
            if startsSending {
                Task { await self.sendAll() }
            }
        }
    }

    /// Sends what gathered, again while more gathered meanwhile, then stops.
    private func sendAll() async {
        while true {
            let (sessions, waiters) = state.withLock { state -> (Set<String>, [CheckedContinuation<Void, Never>]) in
                if state.sessions.isEmpty { state.sending = false }
                defer {
                    state.sessions.removeAll(keepingCapacity: true)
                    state.waiters.removeAll(keepingCapacity: true)
                }
                return (state.sessions, state.waiters)
            }
            guard !sessions.isEmpty else { return }
            await send(Array(sessions))
            for waiter in waiters { waiter.resume() }
        }
    }

    /// The statement that notifies `sessions` on `channel`, outside any transaction: it is one
    /// of its own, with `synchronous_commit` off (a `set_config` local to it, still in force at
    /// its commit), and one `pg_notify` per payload.
    static func statement(channel: String, sessions: [String]) -> PostgresQuery {
        """
        SELECT set_config('synchronous_commit', 'off', true), count(pg_notify(\(channel), p))
        FROM unnest(\(payloads(for: sessions))::text[]) AS p
        """
    }

    /// The most bytes of one payload: PostgreSQL refuses 8,000 or more.
    static let payloadLimit = 7_900

    /// `sessions` one per line, as few payloads as fit under `payloadLimit` bytes. (A session id
    /// holds no line break: the HTTP API allows letters, digits, '.', '_', '-' and ':', up to 128.)
    static func payloads(for sessions: [String]) -> [String] {
        var payloads: [String] = []
        var current = ""
        for session in sessions {
            if !current.isEmpty, current.utf8.count + 1 + session.utf8.count > payloadLimit {
                payloads.append(current)
                current = ""
            }
            current += current.isEmpty ? session : "\n" + session
        }
        if !current.isEmpty { payloads.append(current) }
        return payloads
    }

    /// The sessions one notification's payload names.
    static func sessions(inPayload payload: String) -> [String] {
        payload.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    private func send(_ sessions: [String]) async {
        let query = Self.statement(channel: channel, sessions: sessions)
        do {
            let pool = pool
            _ = try await withDeadline(timeout) { try await pool.query(query) }
        } catch {
            Self.notSent(sessions, error, logger: logger)
        }
    }

    /// Notes a notification that failed: the sweep will find the change.
    static func notSent(_ sessions: [String], _ error: any Error, logger: Logger) {
        logger.debug(
            "queue change notification not sent; the sweep will find the change",
            metadata: ["error": "\(error)", "sessions": "\(sessions.count)"])
    }
}
