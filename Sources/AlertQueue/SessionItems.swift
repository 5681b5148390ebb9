import AlertSpec
import Foundation

/// The items of one session that a store loaded for one step, and what the step did to them.
///
/// A store loads the session's live items (and whatever else the step needs: the ticket being
/// acknowledged or cancelled, the dead items for a listing), or only the *window* of them that
/// the step can touch (see `Unloaded`), lets `QueuePolicy` change them, then writes `updated`
/// and `inserted` back, in that order (an update can free a dedupe key that an insert takes). A
/// step changes only the `state`, `deliveries`, `leaseUntil` and `input` (an ack's) of the items
/// it loaded, so that is all a store needs to write back for them, except for the items in
/// `refreshed`: an enqueue with `OnDuplicate.refresh` also changed their content, priority, lane,
/// expiry and schedule.
///
/// ```swift
/// var items = SessionItems(session: "s1", items: try loadLiveItems("s1"))
/// let delivered = policy.next(&items, holdUntil: nil, now: now)
/// try write(updated: items.updated, inserted: items.inserted)
/// ```
public struct SessionItems: Sendable, Equatable {
    public let session: String
    /// Every item of the step: the loaded ones, changed or not, then the new ones. A step
    /// changes items in place and appends new ones, so the first `loaded.count` are the loaded
    /// items, in load order.
    public private(set) var all: [QueueItem]
    /// The items as they were loaded. Compared by position, not looked up by ticket: hashing
    /// tickets to find them cost every write about 1,500 instructions (`make bench-instructions`).
    private let loaded: [QueueItem]
    /// What the store counted of the live items it did not load.
    public let unloaded: Unloaded
    /// Tickets of the loaded items a duplicate enqueue brought up to date (see `refresh`).
    public private(set) var refreshed: Set<String> = []
    /// What the step did, item by item, in order: the store writes these with the changes.
    public private(set) var events: [ItemEvent] = []

    public init(session: String, items: [QueueItem], unloaded: Unloaded = .none) {
        self.session = session
        self.all = items
        self.loaded = items
        self.unloaded = unloaded
    }

    /// Queued and presenting items.
    public var live: [QueueItem] { all.filter(\.state.isLive) }

    /// How many items of the session are live: those loaded, and those counted outside.
    public var liveCount: Int { live.count + unloaded.live }

    public func item(ticket: String) -> QueueItem? { all.first { $0.ticket == ticket } }

    /// Loaded items the step changed, in load order.
    public var updated: [QueueItem] {
        zip(all, loaded).compactMap { item, before in item != before ? item : nil }
    }

    /// Items the step created, in creation order.
    public var inserted: [QueueItem] { Array(all[loaded.count...]) }

    /// Whether the step changed anything a store must write.
    public var hasChanges: Bool { all.count > loaded.count || zip(all, loaded).contains { $0 != $1 } }

    mutating func update(ticket: String, _ change: (inout QueueItem) -> Void) {
        guard let index = all.firstIndex(where: { $0.ticket == ticket }) else { return }
        change(&all[index])
        assert(changesOnlyProgress(at: index))
    }

    /// Applies `change` to every item that matches.
    mutating func updateAll(where matches: (QueueItem) -> Bool, _ change: (inout QueueItem) -> Void) {
        for index in all.indices where matches(all[index]) {
            change(&all[index])
            assert(changesOnlyProgress(at: index))
        }
    }

    /// Brings the loaded item `ticket` up to date with `newer` (a duplicate enqueue's item): its
    /// content, priority, lane, expiry and schedule. Its ticket, sequence, chain flag, enqueue time and
    /// deliveries stay.
    mutating func refresh(ticket: String, from newer: QueueItem) {
        guard let index = all.firstIndex(where: { $0.ticket == ticket }) else { return }
        refreshed.insert(ticket)
        all[index].content = newer.content
        all[index].priority = newer.priority
        all[index].lane = newer.lane
        all[index].expiresAt = newer.expiresAt
        all[index].notBefore = newer.notBefore
        assert(changesOnlyProgress(at: index))
    }

    /// Whether the item at `index` differs from the item as loaded only in state, deliveries
    /// and lease, and for a refreshed item in what `refresh` changes (a new item may be anything).
    private func changesOnlyProgress(at index: Int) -> Bool {
        guard index < loaded.count else { return true }
        var before = loaded[index]
        let after = all[index]
        before.state = after.state
        before.deliveries = after.deliveries
        before.leaseUntil = after.leaseUntil
        before.input = after.input
        if refreshed.contains(after.ticket) {
            before.content = after.content
            before.priority = after.priority
            before.lane = after.lane
            before.expiresAt = after.expiresAt
            before.notBefore = after.notBefore
        }
        return before == after
    }

    mutating func insert(_ item: QueueItem) {
        all.append(item)
    }

    mutating func record(_ kind: ItemEvent.Kind, _ ticket: String, at now: Date, _ detail: [String: ParameterValue] = [:]) {
        events.append(ItemEvent(kind: kind, session: session, ticket: ticket, at: now, detail: detail))
    }
}
