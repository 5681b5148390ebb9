/// A stored counter of the daily roll-up.
public struct OutcomeCounter: Sendable, Equatable {
    public var key: OutcomeKey
    public var count: Int

    public init(key: OutcomeKey, count: Int) {
        self.key = key
        self.count = count
    }
}

/// What one roll-up step added: the counts, how many events it read, and where it stopped.
public struct OutcomeRollUp: Sendable, Equatable {
    public var tally: OutcomeTally
    public var events: Int
    public var cursor: EventCursor

    public init(tally: OutcomeTally, events: Int, cursor: EventCursor) {
        self.tally = tally
        self.events = events
        self.cursor = cursor
    }
}
