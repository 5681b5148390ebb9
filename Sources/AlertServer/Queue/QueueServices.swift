import AlertQueue

/// What the queue API runs on: the store, who may call, the waiting long-polls, the limits,
/// the sessions seen but not yet written, and the clock every handler, token check and
/// long-poll deadline reads.
public struct QueueServices: Sendable {
    public let store: any QueueStore
    public let access: Access
    public let polls: LongPolls
    public let settings: QueueSettings
    public let clock: any AlertClock
    /// Sessions seen since the last flush of their times to the store: `run()` it for the
    /// server's life, and `flush()` it at shutdown.
    public let seen: SeenSessions

    /// - Parameters:
    ///   - polls: the long-poll registry; by default a new one on `clock`.
    ///   - seenFlushInterval: how often the sessions seen are written to the store (`SeenSessions`).
    public init(
        store: any QueueStore, credentials: Credentials, settings: QueueSettings = QueueSettings(),
        clock: any AlertClock = SystemClock(), polls: LongPolls? = nil, seenFlushInterval: Duration = .seconds(5)
    ) {
        self.store = store
        self.seen = SeenSessions(directory: store, interval: seenFlushInterval)
        self.access = Access(credentials: credentials, clock: clock, seen: seen)
        self.polls = polls ?? LongPolls(clock: clock)
        self.settings = settings
        self.clock = clock
    }
}
