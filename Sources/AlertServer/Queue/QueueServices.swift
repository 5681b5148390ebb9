import AlertQueue

/// What the queue API runs on: the store, who may call, the waiting long-polls, the limits,
/// and the clock every handler, token check and long-poll deadline reads.
public struct QueueServices: Sendable {
    public let store: any QueueStore
    public let access: Access
    public let polls: LongPolls
    public let settings: QueueSettings
    public let clock: any AlertClock

    /// - Parameter polls: the long-poll registry; by default a new one on `clock`.
    public init(
        store: any QueueStore, credentials: Credentials, settings: QueueSettings = QueueSettings(),
        clock: any AlertClock = SystemClock(), polls: LongPolls? = nil
    ) {
        self.store = store
        self.access = Access(credentials: credentials, clock: clock)
        self.polls = polls ?? LongPolls(clock: clock)
        self.settings = settings
        self.clock = clock
    }
}
