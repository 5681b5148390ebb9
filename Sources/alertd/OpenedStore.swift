import AlertQueue
import AlertQueueSQLite
import AlertQueuePostgres
import AlertServer
import Dispatch
import Foundation
import Logging

/// The queue store `serve` runs on, and the work it needs in the background while the server
/// runs: for every store, the purge of old history (`HistoryRetention`) and what `run` is given
/// (the outcome roll-up); for PostgreSQL, also the connection pool's `run()` and the wake-ups of
/// long-polls by other instances' writes (`StoreWakeups`).
///
/// ```swift
/// let opened = try OpenedStore(location, settings: queueSettings, clock: clock, postgres: postgresOptions)
/// let queue = QueueServices(store: opened.store, credentials: credentials, settings: queueSettings, clock: clock)
/// opened.start(polls: queue.polls)
/// // … serve until a signal …
/// opened.stop()   // after the HTTP server stopped: nothing uses the store any more
/// ```
final class OpenedStore {
    let store: any QueueStore
    private var tasks: [Task<Void, Never>] = []
    /// What `stop` runs first (`atStop`).
    private var finals: [@Sendable () async -> Void] = []
    /// Where the store's comings and goings are told (set by `start`).
    private var logger = Logger(label: "alertd")

    /// Opens the store `location` names. Opens no PostgreSQL connection yet (`start` does).
    init(
        _ location: StoreLocation, settings: QueueSettings, clock: any AlertClock,
        sqlite: (durability: SQLiteDurability, timeout: Duration), postgres: PostgresQueueStore.Options
    ) throws {
        switch location {
        case .memory: store = try SQLiteQueueStore.inMemory(settings: settings)
        case .sqlite(let path):
            store = try SQLiteQueueStore(
                path: path, settings: settings, durability: sqlite.durability, timeout: sqlite.timeout, clock: clock)
        case .postgres(let endpoint): store = try PostgresQueueStore(endpoint: endpoint, settings: settings, options: postgres)
        }
    }

    /// Starts the background work, for PostgreSQL only: the pool, and the wake-ups, whose first
    /// sweep also runs the migrations at once and reports a database that cannot be reached.
    func start(polls: LongPolls, logger: Logger) {
        self.logger = logger
        guard let postgres = store as? PostgresQueueStore else { return }
        let name = postgres.endpoint.redacted
        tasks.append(Task { await postgres.run() })
        let wakeups = StoreWakeups(feed: postgres, polls: polls) { reachable in
            if reachable {
                logger.notice("the queue store answers again", metadata: ["store": "\(name)"])
            } else {
                let why = await postgres.connectionProblem() ?? "it did not answer in time"
                logger.warning(
                    "the queue store cannot be reached; queue calls and /readyz answer 503 until it can",
                    metadata: ["store": "\(name)", "cause": "\(why)"])
            }
        }
        tasks.append(Task { await wakeups.run() })
    }

    /// Runs `work` in the background with the store's own, until `stop`.
    func run(_ work: @escaping @Sendable () async -> Void) {
        tasks.append(Task { await work() })
    }

    /// Runs `work` when `stop` begins, before the background work is cancelled and the pool
    /// closes (the last flush of what is kept in memory).
    func atStop(_ work: @escaping @Sendable () async -> Void) {
        finals.append(work)
    }

    /// Starts the purge of history older than the retention, for every store; `stop` ends it.
    func keepHistory(_ retention: HistoryRetention) {
        tasks.append(Task { await retention.run() })
    }

    /// Stops the background work and waits (at most `limit`) until it has: the last NOTIFYs go
    /// out, the wake-ups, roll-ups and the retention stop, and a SQLite store closes (which
    /// checkpoints it and removes its WAL).
    func stop(within limit: Duration = .seconds(10)) {
        guard !tasks.isEmpty || !finals.isEmpty else { return }
        let (waiting, postgres, sqlite) = (tasks, store as? PostgresQueueStore, store as? SQLiteQueueStore)
        // A task of its own, like the others: what it holds goes when it ends.
        let first = Task { [finals] in
            for final in finals { await final() }
        }
        tasks = []
        finals = []
        let done = DispatchSemaphore(value: 0)
        Task { [logger] in
            await first.value
            await postgres?.flushNotifications()
            for task in waiting { task.cancel() }
            for task in waiting { await task.value }
            // Closed here, not with its last reference: a request task still unwinding after
            // its answer may hold that past the exit, and the WAL would stay behind. Such a
            // task's late reads and writes fail with 503.
            do {
                try sqlite?.close()
            } catch {
                logger.warning("the SQLite store did not close", metadata: ["error": "\(error)"])
            }
            done.signal()
        }
        let milliseconds = Int(limit.components.seconds * 1000)
        if done.wait(timeout: .now() + .milliseconds(milliseconds)) == .timedOut {
            logger.warning("the queue store did not close in time", metadata: ["limit": "\(limit)"])
        }
    }
}
