import AlertQueue
import Foundation
import PostgresNIO
import Locking

/// Session queues in PostgreSQL, shared by every alertd instance that opens the same database.
///
/// Each call is one transaction on a connection of the store's pool (`PostgresPool`). The rules are
/// `QueuePolicy`'s, as in the SQLite store; what must hold while instances race is held by the
/// database itself: the writes of a session queue up behind a lock on its `alertd.sessions`
/// row, and partial unique indexes allow one live item per dedupe key and one presenting modal
/// and toast per session. A step reads only the window of its session it can touch, through
/// indexes, with the rest counted (`SessionWindow`). Every write that changes
/// a session NOTIFYs `options.channel` with the session id once it committed, gathered with
/// others by `ChangeNotifier`; `listen(_:)` hears it on every instance.
///
/// The owner runs the store: `run()` drives the pool and must stay running while the store is
/// used (cancel it to close the store); `listen(_:)` runs beside it when wake-ups are wanted.
///
/// ```swift
/// let store = try PostgresQueueStore(url: "postgres://alertd:secret@db:5432/alertd")
/// try await withThrowingDiscardingTaskGroup { group in
///     group.addTask { await store.run() }
///     group.addTask { await store.listen { change in waiters.wake(change) } }
///     try await store.migrate()                        // optional: the first call migrates anyway
///     _ = try await store.enqueue(newItem, now: .now)  // `now` is ignored: the database clock rules
///     await store.flushNotifications()                 // before closing: sends what is left
///     group.cancelAll()                                // closes the pool and the LISTEN connection
/// }
/// ```
///
/// When PostgreSQL cannot be reached, calls throw `QueueError.unavailable` once
/// `options.requestTimeout` has passed (at once while no connection is open and the last attempt
/// to open one failed), never later, and `isReachable()` answers false within
/// `options.reachabilityTimeout`. The store serves again by itself when the database is back:
/// each connection of the pool reconnects on its own (`PostgresPool`).
public final class PostgresQueueStore: QueueStore {
    public let endpoint: PostgresEndpoint
    public let options: Options
    public let policy: QueuePolicy
    /// The connections calls run on.
    let pool: PostgresPool
    let logger: Logger
    /// Sends the NOTIFYs of committed writes, batched (see `ChangeNotifier`).
    let notifier: ChangeNotifier
    /// The `application_name` of this instance's LISTEN connection, by which a sweep tells the
    /// other instances' listeners from its own.
    let listenerName = listenerPrefix + UUID().uuidString
    static let listenerPrefix = "alertd listener "
    /// Groups concurrent enqueues into one transaction each batch (see `EnqueueBatcher`).
    let enqueues: EnqueueBatcher
    /// Items' contents by ticket: an item's content never changes, so one decoded (or kept at
    /// its insert) need not be parsed again at the next load of its session.
    let contents = ContentCache()
    /// The migration run by the first call (or `migrate()`), shared by the calls that come
    /// meanwhile; forgotten when it fails, so the next call tries again.
    private let migration = Locked<Task<Void, any Error>?>(nil)

    /// A store on the database at `url` (`postgres://user:password@host:port/database`, see
    /// `PostgresEndpoint`). Opens no connection until `run()` runs and a call needs one.
    /// - Throws: `PostgresStoreError` for a malformed URL or invalid options.
    public convenience init(
        url: String, settings: QueueSettings = QueueSettings(), options: Options = Options(), logger: Logger? = nil
    ) throws {
        try self.init(endpoint: PostgresEndpoint(url: url), settings: settings, options: options, logger: logger)
    }

    /// A store on `endpoint`. `logger` receives the pool's background events; by default they
    /// are not logged.
    public init(
        endpoint: PostgresEndpoint, settings: QueueSettings = QueueSettings(), options: Options = Options(),
        logger: Logger? = nil
    ) throws {
        self.endpoint = endpoint
        self.options = try options.validated()
        self.policy = QueuePolicy(settings: settings)
        var quiet = Logger(label: "alertd.postgres")
        quiet.logLevel = .critical
        self.logger = logger ?? quiet
        let pool = PostgresPool(
            configuration: try Self.connectionConfiguration(endpoint, options), size: options.maximumConnections,
            eager: options.minimumConnections, logger: self.logger)
        self.pool = pool
        // Two batches in flight: one commits while the next gathers and loads. More, smaller
        // batches measured slower (each costs its round trips and a commit): 3,500/s with one or
        // two, 2,400/s with five, 2,050/s with eight (scripts/bench-postgres.sh, 32 connections).
        // The second starts only once 16 enqueues wait: four side-by-side pairs, 5,200-5,300/s
        // with a second batch for any one waiting, 5,300-6,100/s this way, with 12 % less CPU per
        // enqueue in alertd and in PostgreSQL; 10 measured the same, 24 kept a core idle.
        self.enqueues = EnqueueBatcher(limit: min(2, options.maximumConnections), overlapAt: 16)
        self.notifier = ChangeNotifier(
            channel: options.channel, timeout: min(options.requestTimeout, .seconds(1)),
            spacing: options.notificationSpacing, logger: self.logger, pool: pool)
    }

    /// How every connection to `endpoint` is opened: within `options.connectTimeout`, with
    /// `sessionParameters`.
    static func connectionConfiguration(
        _ endpoint: PostgresEndpoint, _ options: Options, applicationName: String = "alertd"
    ) throws -> PostgresConnection.Configuration {
        var configuration = try endpoint.connectionConfiguration()
        configuration.options.connectTimeout = .nanoseconds(
            options.connectTimeout.components.seconds * 1_000_000_000 + options.connectTimeout.components.attoseconds / 1_000_000_000)
        configuration.options.additionalStartupParameters = sessionParameters(options, applicationName: applicationName)
        return configuration
    }

    /// Settings of every connection: a statement never outlives a call, and a transaction left
    /// open by a call that gave up is ended by the server.
    static func sessionParameters(_ options: Options, applicationName: String = "alertd") -> [(String, String)] {
        let milliseconds = options.requestTimeout.components.seconds * 1000
            + options.requestTimeout.components.attoseconds / 1_000_000_000_000_000
        return [
            ("application_name", applicationName),
            ("statement_timeout", "\(max(milliseconds, 1))"),
            ("idle_in_transaction_session_timeout", "\(max(milliseconds * 2, 1))"),
        ]
    }

    /// Drives the connection pool; returns when the task running it is cancelled, which closes
    /// every connection. Calls made while it does not run wait, then give up as unavailable.
    /// Run it once, for the store's whole life, in the owner's task group.
    public func run() async {
        await pool.run(keepAlive: options.keepAliveInterval, pingTimeout: min(options.requestTimeout, options.reachabilityTimeout))
    }

    /// Brings the schema up to date (see `migrations`); the first call that needs the database
    /// does it anyway. Safe to call from several instances at once.
    /// - Throws: `QueueError.unavailable` when the database cannot be reached in time;
    ///   `PostgresStoreError.newerSchema` when a newer alertd migrated the database.
    public func migrate() async throws {
        do {
            try await withDeadline(options.requestTimeout) { try await self.ensureMigrated() }
        } catch let error as PostgresStoreError {
            // As it is, not as the 503 a call answers with (`storeError`): the caller asked for this.
            throw error
        } catch {
            throw storeError(error)
        }
    }

    func ensureMigrated() async throws {
        let task = migration.withLock { current in
            if let current { return current }
            let task = Task {
                try await self.pool.withConnection { connection in
                    try await Self.migrate(connection, logger: self.logger)
                }
            }
            current = task
            return task
        }
        do {
            try await task.value
        } catch {
            migration.withLock { current in
                if current == task { current = nil }
            }
            throw error
        }
    }

    /// Runs `body` on a pooled connection within `options.requestTimeout`, after the migrations,
    /// running it again when it loses a race the database reports (deadlock, serialization, unique
    /// index); maps failures with `storeError`.
    func perform<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await withDeadline(options.requestTimeout) {
                try await self.ensureMigrated()
                var attempt = 1
                while true {
                    do {
                        // On the connection's own event loop: its answers resume `body` on the
                        // thread that read them, instead of waking a thread of Swift's pool.
                        return try await self.pool.withConnection { connection in
                            try await withTaskExecutorPreference(EventLoopExecutor(connection.eventLoop)) {
                                try await body(connection)
                            }
                        }
                    } catch let error as PSQLError where error.isRetryable && attempt < 5 {
                        attempt += 1
                    }
                }
            }
        } catch {
            throw storeError(error)
        }
    }

    /// `perform` for a step that tells whether it changed `session`: once it committed a change,
    /// hands the session to `ChangeNotifier` for its NOTIFY (sent a little later, and not at all
    /// while no other instance listens), then answers.
    func write<T: Sendable>(
        session: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> (T, changed: Bool)
    ) async throws -> T {
        let (value, changed) = try await perform(body)
        if changed { notifier.gather(CollectionOfOne(session)) }
        return value
    }

    /// Returns once the NOTIFYs of the writes answered so far are sent (or given up on, within a
    /// second). Call it before closing the store: a notification still gathering when the pool
    /// closes is lost, and another instance's long-poll then hears of its write only at its
    /// next sweep.
    public func flushNotifications() async {
        await notifier.flush()
    }

    /// The time a step runs at: the caller's `now`, or the database's (`now()` of the transaction,
    /// in seconds since 1970) with the database clock.
    func clock(caller now: Date, database seconds: Double) -> Date {
        switch options.clock {
        case .caller: now
        case .database: Date(timeIntervalSince1970: seconds)
        }
    }
}
