import AlertQueue

/// What the queue API runs on: the store, who may call, the waiting long-polls, the limits.
public struct QueueServices: Sendable {
    public let store: any QueueStore
    public let access: Access
    public let polls: LongPolls
    public let settings: QueueSettings

    public init(store: any QueueStore, credentials: Credentials, settings: QueueSettings = QueueSettings(), polls: LongPolls = LongPolls()) {
        self.store = store
        self.access = Access(credentials: credentials)
        self.polls = polls
        self.settings = settings
    }
}
