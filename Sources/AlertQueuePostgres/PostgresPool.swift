import PostgresNIO
import Locking
import Synchronization
import _ConnectionPoolModule

/// The store's `PostgresClient`, and its replacement after a long outage.
///
/// postgres-nio's pool retries a database that went away with a growing backoff (up to a
/// minute), and after a minute without any connection it trips a circuit breaker that fails
/// every lease at once. Left alone, a pool that lived through a long outage would keep answering
/// "unavailable" for up to a minute after the database is back. So while the pool runs, a
/// supervisor looks once a second: when a call has met the tripped breaker and a connection of
/// its own reaches the database, it starts a fresh client for new calls and closes the old one
/// once the calls already on it have had their time (`requestTimeout`, twice). A pool that is
/// merely busy never trips the breaker (it needs zero open connections), so load never
/// triggers a replacement.
///
/// Every `keepAlive`, the supervisor also pings as many connections as the pool holds, each
/// within the request timeout. A connection whose server went silent (no reset: a host gone, a
/// firewall that forgot it) then holds up a ping, which gives up, instead of the next call that
/// would have been handed it; the ping keeps it leased until TCP gives up on it. (postgres-nio's
/// own keep-alive does the same at a cost on every lease, see `PostgresQueueStore.init`.)
final class PostgresPool: Sendable {
    private let configuration: PostgresClient.Configuration
    private let logger: Logger
    private let current: Locked<PostgresClient>
    /// Every client's `run()` task still going, to cancel them all when the store stops.
    private let runs = Locked<[Task<Void, Never>]>([])
    private let breakerTripped = Atomic<Bool>(false)

    init(configuration: PostgresClient.Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        self.current = Locked(PostgresClient(configuration: configuration, backgroundLogger: logger))
    }

    var client: PostgresClient { current.withLock { $0 } }

    /// Notes a failed call: the tripped circuit breaker is what the supervisor waits for.
    func noteFailure(_ error: any Error) {
        if let error = error as? ConnectionPoolError, error == .connectionCreationCircuitBreakerTripped {
            breakerTripped.store(true, ordering: .relaxed)
        }
    }

    /// Runs the current client, and supervises it, until the calling task is cancelled; then
    /// closes every client and returns once they are closed.
    func run(
        requestTimeout: Duration, keepAlive: Duration, connections: Int,
        databaseAnswers: @escaping @Sendable () async -> Bool
    ) async {
        start(client)
        await withTaskCancellationHandler {
            var lastPing = ContinuousClock.now
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                if lastPing.duration(to: .now) >= keepAlive {
                    lastPing = .now
                    ping(connections, within: requestTimeout)
                }
                guard breakerTripped.exchange(false, ordering: .relaxed), !Task.isCancelled, await databaseAnswers()
                else { continue }
                replace(closingOldAfter: requestTimeout * 2)
            }
        } onCancel: {
            for task in runs.withLock({ $0 }) { task.cancel() }
        }
        for task in runs.withLock({ $0 }) { await task.value }
    }

    /// Pings up to `connections` connections at once (`SELECT 1`), in the background.
    private func ping(_ connections: Int, within limit: Duration) {
        let client = self.client
        let logger = self.logger
        for _ in 0..<connections {
            Task {
                do {
                    _ = try await withDeadline(limit) {
                        try await client.withConnection { try await $0.query("SELECT 1", logger: logger).collect() }
                    }
                } catch {
                    logger.debug("a keep-alive ping failed", metadata: ["error": "\(String(reflecting: error))"])
                }
            }
        }
    }

    private func start(_ client: PostgresClient) {
        let task = Task { await client.run() }
        runs.withLock { $0.append(task) }
    }

    private func replace(closingOldAfter delay: Duration) {
        logger.info("the database is back but the connection pool gave up on it: starting a fresh pool")
        let fresh = PostgresClient(configuration: configuration, backgroundLogger: logger)
        start(fresh)
        let old = runs.withLock { $0.dropLast() }
        current.withLock { $0 = fresh }
        Task {
            try? await Task.sleep(for: delay)
            for task in old { task.cancel() }
            self.runs.withLock { runs in runs.removeAll { old.contains($0) } }
        }
    }
}

extension PostgresQueueStore {
    /// Whether a connection of its own (not the pool's) reaches the database and gets an answer.
    static func answersDirectly(endpoint: PostgresEndpoint, options: Options, logger: Logger) async -> Bool {
        let answered = try? await withDeadline(options.connectTimeout + options.reachabilityTimeout) {
            let connection = try await PostgresConnection.connect(
                configuration: try endpoint.connectionConfiguration(), id: 0, logger: logger)
            let rows = try? await connection.query("SELECT 1", logger: logger).collect()
            try? await connection.close()
            return rows?.count == 1
        }
        return answered == true
    }
}
