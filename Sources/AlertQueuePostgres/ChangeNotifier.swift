import PostgresNIO
import Locking
import Synchronization

/// Sends the NOTIFYs of committed writes, many sessions per statement, at most one statement
/// every `spacing`.
///
/// A NOTIFY inside a write's transaction makes PostgreSQL serialize the commits of every
/// notifying transaction (it holds a database-wide lock from before the commit record is
/// flushed until after), which capped the store at a few thousand writes a second whatever the
/// pool. So writes commit without one and hand their sessions here (`gather`), and are answered
/// at once. The sessions gather while a statement is on its way and until `spacing` after the
/// last one began; the next statement notifies them all, in the order they first changed, in a
/// transaction of its own with `synchronous_commit` off — it stores nothing worth a disk flush.
/// A write after a quiet spell is notified at once.
///
/// The sessions travel many to a notification, one per line (`payloads(for:)`): PostgreSQL
/// queues, signals and delivers each notification on its own, and one per session cost its
/// backends 40 µs and the listening instance 12 µs per enqueue. Statements spaced out cost less
/// again: each is a transaction, and each notification wakes every listener.
///
/// A notification is a hint, not a record: one lost here (the database went away right after the
/// write committed, or the process ended before the statement went out) is found by the sweep,
/// since the write stamped its session's row in its own transaction (see
/// `changedSessions(since:)`). So a failure is logged and swallowed. `flush()` sends what gathered
/// without waiting for the spacing, and returns once it is sent: the store's owner calls it
/// before closing the pool.
final class ChangeNotifier: Sendable {
    private struct State {
        /// Sessions waiting for the next statement, in the order they first changed, and as a set.
        var sessions: [String] = []
        var gathered: Set<String> = []
        /// Callers of `flush()` waiting for what gathered before they called.
        var flushes: [CheckedContinuation<Void, Never>] = []
        /// A sending task runs.
        var sending = false
        /// When the last statement began.
        var lastSent: ContinuousClock.Instant?
        /// The sending task, waiting for the spacing to pass, and the number of that wait (a
        /// timer that fires late must not end a later one).
        var sleeper: (wait: Int, continuation: CheckedContinuation<Void, Never>)?
        var waits = 0
    }

    private let channel: String
    private let timeout: Duration
    /// The least time between the starts of two statements.
    let spacing: Duration
    private let logger: Logger
    private let pool: PostgresPool
    private let state = Locked(State())
    /// Whether another instance listens, as the store's last sweep found, or since one announced
    /// its listening: when none does, nothing is sent, as nobody would hear it but this
    /// instance, whose handlers wake their own long-polls. True until a sweep says otherwise.
    let othersListen = Atomic<Bool>(true)

    /// Notifies on `channel` through `pool`, statements at least `spacing` apart; gives up on a
    /// statement after `timeout`.
    init(channel: String, timeout: Duration, spacing: Duration, logger: Logger, pool: PostgresPool) {
        self.channel = channel
        self.timeout = timeout
        self.spacing = spacing
        self.logger = logger
        self.pool = pool
    }

    /// Hands over the sessions a committed write changed, to be notified with the next
    /// statement; returns at once. Nothing is sent while no other instance listens.
    func gather(_ sessions: some Sequence<String>) {
        guard othersListen.load(ordering: .relaxed) else { return }
        let startsSending = state.withLock { state -> Bool in
            for session in sessions where state.gathered.insert(session).inserted { state.sessions.append(session) }
            guard !state.sending, !state.sessions.isEmpty else { return false }
            state.sending = true
            return true
        }
        if startsSending {
            Task { await self.sendAll() }
        }
    }

    /// Sends what gathered at once, without waiting for the spacing; returns once every session
    /// gathered before the call was sent (or given up on).
    func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (idle, sleeper) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
                guard state.sending else { return (true, nil) }
                state.flushes.append(continuation)
                defer { state.sleeper = nil }
                return (false, state.sleeper?.continuation)
            }
            sleeper?.resume()
            if idle { continuation.resume() }
        }
    }

    /// Sends what gathered, `spacing` after the last statement began (at once when a flush
    /// waits), again while more gathered meanwhile, then stops; answers the flushes that came
    /// before each statement once it is sent.
    private func sendAll() async {
        while true {
            await waitForSpacing()
            let (sessions, flushes) = state.withLock { state -> ([String], [CheckedContinuation<Void, Never>]) in
                if state.sessions.isEmpty {
                    state.sending = false
                } else {
                    state.lastSent = .now
                }
                defer {
                    state.sessions.removeAll(keepingCapacity: true)
                    state.gathered.removeAll(keepingCapacity: true)
                    state.flushes.removeAll(keepingCapacity: true)
                }
                return (state.sessions, state.flushes)
            }
            if !sessions.isEmpty { await send(sessions) }
            for flush in flushes { flush.resume() }
            if sessions.isEmpty { return }
        }
    }

    /// Returns once `spacing` has passed since the last statement began, or when `flush()` is
    /// called.
    private func waitForSpacing() async {
        guard let wake = state.withLock({ $0.lastSent.map { $0 + spacing } }), wake > .now else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let wait = state.withLock { state -> Int? in
                guard state.flushes.isEmpty else { return nil }
                state.waits += 1
                state.sleeper = (state.waits, continuation)
                return state.waits
            }
            guard let wait else { return continuation.resume() }
            Task { [weak self] in
                try? await Task.sleep(until: wake, clock: .continuous)
                let sleeper = self?.state.withLock { state -> CheckedContinuation<Void, Never>? in
                    guard let sleeper = state.sleeper, sleeper.wait == wait else { return nil }
                    state.sleeper = nil
                    return sleeper.continuation
                }
                sleeper?.resume()
            }
        }
    }

    /// The statement that notifies `sessions` on `channel`, outside any transaction: it is one
    /// of its own, with `synchronous_commit` off (a `set_config` local to it, still in force at
    /// its commit), and one `pg_notify` per payload.
    private static func statement(channel: String, sessions: [String]) -> PostgresQuery {
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

    /// Sends one statement for `sessions`. One that fails is noted and dropped: the sweep will
    /// find the changes.
    private func send(_ sessions: [String]) async {
        let query = Self.statement(channel: channel, sessions: sessions)
        do {
            let pool = pool
            _ = try await withDeadline(timeout) { try await pool.query(query) }
        } catch {
            logger.debug(
                "queue change notification not sent; the sweep will find the change",
                metadata: ["error": "\(error)", "sessions": "\(sessions.count)"])
        }
    }
}
