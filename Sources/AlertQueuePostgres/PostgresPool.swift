import AlertQueue
import Locking
import PostgresNIO
import Synchronization

/// The store's connections to PostgreSQL: a fixed number of slots, each holding one connection
/// and opening another when it closes. A call leases an idle connection, or waits (FIFO) for one.
///
/// Why not postgres-nio's `PostgresClient`: while one of its connection attempts keeps failing
/// it queues every lease, even with idle connections open, until that attempt succeeds (with a
/// backoff growing to a minute), and after 15 s without any connection it fails every lease.
/// A database at `max_connections` refused an instance's second connection and its calls all
/// answered 503 while it held a working one; a CI run met the same for 90 s. Here:
/// - an idle connection always serves the next call, whatever the other slots are doing;
/// - each slot reconnects on its own, 100 ms after a failure, doubling to at most 5 s;
/// - while no connection is open or being opened and the last attempt failed, a lease fails at
///   once (`QueueError.unavailable` with the reason) instead of waiting out the call's timeout;
/// - no timer is scheduled per lease (postgres-nio's idle and keep-alive timers cost 0.5 and
///   0.6 context switches per enqueue). Instead, every `keepAlive` the idle connections are
///   pinged (`SELECT 1`); one that does not answer within the ping timeout (a server gone silent,
///   no reset) is closed, and its slot opens another, before a call is handed it.
///
/// `eager` slots connect when the pool starts; the others the first time a lease finds no idle
/// connection, and then stay open.
final class PostgresPool: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<PostgresConnection, any Error>
    }

    private struct State {
        var idle: [PostgresConnection] = []
        var waiters: [Waiter] = []
        /// Leases that will wait, not yet queued as waiters; those among them cancelled already.
        var announced: Set<UInt64> = []
        var cancelled: Set<UInt64> = []
        var nextWaiter: UInt64 = 0
        /// Every connection open and not yet seen closed, by id.
        var open: [PostgresConnection.ID: PostgresConnection] = [:]
        /// Why the last connection attempt failed, until one succeeds.
        var lastFailure: (any Error)?
        /// Connection attempts under way.
        var connecting = 0

        /// Nothing is open, nothing is being opened, and the last attempt failed: a lease
        /// would wait for nothing.
        var isDown: Bool { open.isEmpty && connecting == 0 && lastFailure != nil }
        /// Slots not started yet.
        var dormant: Int
        var running = false
        var closed = false

        mutating func takeWaiter() -> Waiter? { waiters.isEmpty ? nil : waiters.removeFirst() }
    }

    private let configuration: PostgresConnection.Configuration
    private let logger: Logger
    private let eager: Int
    private let state: Locked<State>
    /// The slots' tasks, cancelled when the pool stops.
    private let slots = Locked<[Task<Void, Never>]>([])
    private static let connectionIDs = Atomic<Int>(0)

    init(configuration: PostgresConnection.Configuration, size: Int, eager: Int, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        self.eager = min(eager, size)
        self.state = Locked(State(dormant: size))
    }

    /// What the pool holds for leases that wait (for tests: all zero once none waits).
    var waitingBookkeeping: (waiters: Int, announced: Int, cancelled: Int) {
        state.withLock { ($0.waiters.count, $0.announced.count, $0.cancelled.count) }
    }

    /// Runs `body` with a connection of the pool, and gives the connection back.
    /// - Throws: `QueueError.unavailable` when no connection is open and the last attempt failed;
    ///   `CancellationError` when the calling task is cancelled while waiting; `body`'s errors.
    func withConnection<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let connection = try await lease()
        defer { release(connection) }
        return try await body(connection)
    }

    /// The rows of `query`, run on a connection of the pool.
    @discardableResult
    func query(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await withConnection { [logger] in try await $0.query(query, logger: logger).collect() }
    }

    private func lease() async throws -> PostgresConnection {
        // The usual case first, without a continuation: an idle connection.
        let (idle, id) = state.withLock { state -> (PostgresConnection?, UInt64) in
            if !state.closed, let connection = state.idle.popLast() { return (connection, 0) }
            state.nextWaiter += 1
            state.announced.insert(state.nextWaiter)
            return (nil, state.nextWaiter)
        }
        if let idle { return idle }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let (outcome, startSlot) = state.withLock { state -> (Result<PostgresConnection, any Error>?, Bool) in
                    state.announced.remove(id)
                    if state.cancelled.remove(id) != nil { return (.failure(CancellationError()), false) }
                    if state.closed { return (.failure(QueueError.unavailable("the PostgreSQL store is closed")), false) }
                    if let connection = state.idle.popLast() { return (.success(connection), false) }
                    if state.isDown, let failure = state.lastFailure {
                        return (.failure(QueueError.unavailable("PostgreSQL connection: \(Self.reason(failure))")), false)
                    }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    guard state.running, state.dormant > 0 else { return (nil, false) }
                    state.dormant -= 1
                    return (nil, true)
                }
                if startSlot { self.startSlot() }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                    // Not queued yet: it fails when it comes. Already answered: nothing to do.
                    if state.announced.contains(id) { state.cancelled.insert(id) }
                    return nil
                }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Gives `connection` to the first waiter, or keeps it idle; a closed one is dropped (its
    /// slot is opening another).
    private func release(_ connection: PostgresConnection) {
        enum Next { case waiter(Waiter), kept, dropped, close }
        let next = state.withLock { state -> Next in
            guard !connection.isClosed, state.open[connection.id] != nil else { return .dropped }
            if state.closed { return .close }
            if let waiter = state.takeWaiter() { return .waiter(waiter) }
            state.idle.append(connection)
            return .kept
        }
        switch next {
        case .waiter(let waiter): waiter.continuation.resume(returning: connection)
        case .close: connection.close().whenComplete { _ in }
        case .kept, .dropped: break
        }
    }

    /// Opens the eager slots, pings idle connections every `keepAlive` (each within
    /// `pingTimeout`), until the calling task is cancelled; then closes every connection and
    /// returns once every slot has stopped.
    func run(keepAlive: Duration, pingTimeout: Duration) async {
        let start = state.withLock { state -> Int in
            state.running = true
            let count = min(state.dormant, max(eager, state.waiters.count))
            state.dormant -= count
            return count
        }
        for _ in 0..<start { startSlot() }
        await withTaskCancellationHandler {
            while !Task.isCancelled {
                try? await Task.sleep(for: keepAlive)
                if !Task.isCancelled { ping(within: pingTimeout) }
            }
        } onCancel: {
            close()
        }
        for task in slots.withLock({ $0 }) { await task.value }
    }

    private func close() {
        let (open, waiters) = state.withLock { state in
            state.closed = true
            defer { state.waiters = []; state.idle = [] }
            return (Array(state.open.values), state.waiters)
        }
        for task in slots.withLock({ $0 }) { task.cancel() }
        for waiter in waiters { waiter.continuation.resume(throwing: QueueError.unavailable("the PostgreSQL store is closed")) }
        for connection in open { connection.close().whenComplete { _ in } }
    }

    private func startSlot() {
        let task = Task { await self.runSlot() }
        slots.withLock { $0.append(task) }
    }

    /// One slot: connects, hands the connection out, waits until it closes, and again; after a
    /// failed attempt, waits `reconnectDelay` first.
    private func runSlot() async {
        var failures = 0
        // A slot a lease started while the pool was closing may have missed the cancellation.
        while !Task.isCancelled, !state.withLock({ $0.closed }) {
            let id = Self.connectionIDs.add(1, ordering: .relaxed).newValue
            let connection: PostgresConnection
            state.withLock { $0.connecting += 1 }
            do {
                connection = try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
            } catch {
                failures += 1
                let failed = state.withLock { state -> [Waiter] in
                    state.connecting -= 1
                    state.lastFailure = error
                    guard state.isDown else { return [] }
                    defer { state.waiters = [] }
                    return state.waiters
                }
                let unavailable = QueueError.unavailable("PostgreSQL connection: \(Self.reason(error))")
                for waiter in failed { waiter.continuation.resume(throwing: unavailable) }
                logger.debug("a pooled connection could not be opened", metadata: ["error": "\(Self.reason(error))"])
                try? await Task.sleep(for: Self.reconnectDelay(afterFailures: failures))
                continue
            }
            failures = 0
            let adopted = state.withLock { state -> Bool in
                state.connecting -= 1
                guard !state.closed else { return false }
                state.open[connection.id] = connection
                state.lastFailure = nil
                return true
            }
            guard adopted else {
                try? await connection.close()
                return
            }
            release(connection)
            try? await connection.closeFuture.get()
            state.withLock { state in
                state.open[connection.id] = nil
                state.idle.removeAll { $0.id == connection.id }
            }
            logger.debug("a pooled connection closed", metadata: ["connection": "\(connection.id)"])
        }
    }

    /// Pings every idle connection, in the background; closes those that do not answer in time.
    private func ping(within limit: Duration) {
        let idle = state.withLock { state in
            defer { state.idle = [] }
            return state.idle
        }
        let logger = logger
        for connection in idle {
            Task {
                do {
                    _ = try await withDeadline(limit) { try await connection.query("SELECT 1", logger: logger).collect() }
                    self.release(connection)
                } catch {
                    logger.debug("a keep-alive ping failed; closing its connection", metadata: ["error": "\(error)"])
                    connection.close().whenComplete { _ in }
                }
            }
        }
    }

    /// How long to wait before connecting again: 100 ms after the first failure, doubling, at
    /// most `limit` (5 s for the pool's slots; the listener passes its own).
    static func reconnectDelay(afterFailures failures: Int, atMost limit: Duration = .seconds(5)) -> Duration {
        min(.milliseconds(100 << min(max(failures - 1, 0), 16)), limit)
    }

    /// A failed attempt in words: the server's message when it refused, else the error.
    static func reason(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                return "\(message) (SQLSTATE \(error.serverInfo?[.sqlState] ?? "?"))"
            }
            return error.underlying.map { "\($0)" } ?? "\(error.code)"
        }
        return "\(error)"
    }
}
