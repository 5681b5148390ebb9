import Foundation

/// What a store read of one session for an explanation (`QueueStore.snapshot`), changing
/// nothing: its items as stored (leases and TTLs not yet ended at `now`; the explanation ends
/// them on its copy, as a step would), its hold as stored, and its latest finished items.
public struct SessionSnapshot: Sendable, Equatable {
    public var session: String
    /// The instant the store judged at: the caller's, or the database's with its clock.
    public var now: Date
    /// The queued, presenting and dead items, in enqueue order.
    public var items: [QueueItem]
    /// When the stored hold ends (it may have passed already), or nil.
    public var holdUntil: Date?
    /// Done, cancelled and expired items, most recently queued first, at most as many as asked.
    public var finished: [QueueItem]
    /// The deliveries the paced items' rules count (see `PacingHistory`).
    public var pacing: PacingHistory
    /// The session's profile over its user's (the server's defaults not applied).
    public var profile: SessionProfile

    public init(
        session: String, now: Date, items: [QueueItem], holdUntil: Date?, finished: [QueueItem], pacing: PacingHistory = PacingHistory(),
        profile: SessionProfile = .none
    ) {
        self.session = session
        self.now = now
        self.items = items
        self.holdUntil = holdUntil
        self.finished = finished
        self.pacing = pacing
        self.profile = profile
    }
}
