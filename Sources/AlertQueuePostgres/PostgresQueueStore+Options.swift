extension PostgresQueueStore {
    /// Which clock decides leases, TTLs, holds and enqueue times.
    public enum Clock: Sendable, Equatable {
        /// PostgreSQL's `now()` (the start of each transaction): one clock for every instance,
        /// whatever their own clocks say. The `now` arguments of `QueueStore` are ignored. The default.
        case database
        /// The `now` the caller passes. For tests, which drive time with explicit instants.
        case caller
    }

    /// How the store uses PostgreSQL. The defaults suit a service instance.
    public struct Options: Sendable, Equatable {
        public var clock: Clock
        /// Connections in the pool, plus one for LISTEN. Once open, a connection stays open
        /// (and is opened again when it closes).
        public var maximumConnections: Int
        /// Connections opened when the store starts: by default all of them. The others open
        /// the first time a call finds every open one busy.
        public var minimumConnections: Int
        /// How often idle connections are pinged (`SELECT 1`). One that does not answer within
        /// `reachabilityTimeout` (or `requestTimeout`, if shorter) is closed and replaced, so a
        /// connection whose server went silent holds up a ping, not a call (see `PostgresPool`).
        public var keepAliveInterval: Duration
        /// How long one store call may take before it gives up with `QueueError.unavailable`
        /// (waiting for a connection included). Also each statement's `statement_timeout`.
        public var requestTimeout: Duration
        /// How long `isReachable()` waits for an answer.
        public var reachabilityTimeout: Duration
        /// How long opening one connection may take.
        public var connectTimeout: Duration
        /// The channel every write NOTIFYs with the session id, and `listen` LISTENs on.
        public var channel: String
        /// The least time between two NOTIFY statements of this instance: the sessions written
        /// meanwhile wait for the next one (see `ChangeNotifier`). Another instance's long-poll
        /// hears of a write up to this much later; PostgreSQL and the listeners handle fewer
        /// notifications. A write after a quiet spell is notified at once whatever the spacing.
        ///
        /// 20 ms by default. Each statement costs far more than its few bytes: a transaction of
        /// its own, and a wake-up of every instance's listener connection and of its backend.
        /// With one other instance listening, 32 connections of enqueues on this one committed
        /// 0.17–0.19 transactions per enqueue at 5 ms (0.09 alone), 0.10–0.11 at 20 ms, which
        /// took 9–15% less CPU per enqueue over the whole machine and enqueued 9–16% more a
        /// second (`make bench-postgres`).
        public var notificationSpacing: Duration

        public init(
            clock: Clock = .database, maximumConnections: Int = 10, minimumConnections: Int? = nil,
            requestTimeout: Duration = .seconds(5), reachabilityTimeout: Duration = .milliseconds(1500),
            connectTimeout: Duration = .seconds(2), keepAliveInterval: Duration = .seconds(10),
            channel: String = "alertd_queue", notificationSpacing: Duration = .milliseconds(20)
        ) {
            self.clock = clock
            self.maximumConnections = maximumConnections
            self.minimumConnections = minimumConnections ?? maximumConnections
            self.keepAliveInterval = keepAliveInterval
            self.requestTimeout = requestTimeout
            self.reachabilityTimeout = reachabilityTimeout
            self.connectTimeout = connectTimeout
            self.channel = channel
            self.notificationSpacing = notificationSpacing
        }

        func validated() throws(PostgresStoreError) -> Self {
            guard maximumConnections >= 1 else { throw .invalidOptions("maximumConnections must be at least 1") }
            guard (0...maximumConnections).contains(minimumConnections) else {
                throw .invalidOptions("minimumConnections must be at least 0 and at most maximumConnections")
            }
            guard requestTimeout > .zero, reachabilityTimeout > .zero, connectTimeout > .zero, keepAliveInterval > .zero else {
                throw .invalidOptions("timeouts must be positive")
            }
            guard notificationSpacing >= .zero else { throw .invalidOptions("the notification spacing must not be negative") }
            guard !channel.isEmpty, channel.utf8.count < 64 else {
                throw .invalidOptions("the channel name must have 1 to 63 bytes")
            }
            return self
        }
    }
}
