extension SessionItems {
    /// What a store that loaded only a window of a session's live items counted of the rest, so
    /// that `QueuePolicy` decides over the window exactly as over every item.
    ///
    /// A window holds every item a step may change or pick: the presenting items, the queued ones
    /// whose TTL ended, the best deliverable queued item of each lane, the live item with the
    /// dedupe key asked for, the queued HUDs a new HUD replaces, the ticket named. The items left
    /// out stay queued through the step, so counting them once is enough.
    public struct Unloaded: Sendable, Equatable {
        /// Live items not loaded (for `maxQueueLength`).
        public var live: Int
        /// For an item's ticket: the queued items of its lane not loaded that are delivered
        /// before it (for its position). Only the tickets a step reports a position for.
        public var queuedAhead: [String: Int]

        public init(live: Int, queuedAhead: [String: Int] = [:]) {
            self.live = live
            self.queuedAhead = queuedAhead
        }

        /// Everything was loaded.
        public static let none = Unloaded(live: 0)
    }
}

extension SessionItems.Unloaded {
    /// What `window` (the items a store read, as read) leaves out of counts the store keeps over
    /// every item: `live` live items in the session, and for each of `positioned` (an item to
    /// queue or one of the window) `ahead` queued items of its lane delivered before it.
    public init(window: [QueueItem], live: Int, positioned: [(item: QueueItem, ahead: Int)]) {
        self.init(live: live - window.filter(\.state.isLive).count)
        for (item, ahead) in positioned where item.state == .queued {
            let loaded = window.filter {
                $0.state == .queued && $0.lane == item.lane && $0.ticket != item.ticket && QueuePolicy.precedes($0, item)
            }
            queuedAhead[item.ticket] = ahead - loaded.count
        }
    }
}
