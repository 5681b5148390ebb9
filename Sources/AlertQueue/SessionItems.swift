/// The items of one session that a store loaded for one step, and what the step did to them.
///
/// A store loads the session's live items (and whatever else the step needs: the ticket being
/// acknowledged or cancelled, the dead items for a listing), lets `QueuePolicy` change them, then
/// writes `updated` and `inserted` back, in that order (an update can free a dedupe key that an
/// insert takes). A step changes only the `state`, `deliveries` and `leaseUntil` of the items
/// it loaded, so that is all a store needs to write back for them.
///
/// ```swift
/// var items = SessionItems(session: "s1", items: try loadLiveItems("s1"))
/// let delivered = policy.next(&items, holdUntil: nil, now: now)
/// try write(updated: items.updated, inserted: items.inserted)
/// ```
public struct SessionItems: Sendable, Equatable {
    public let session: String
    /// Every item of the step: the loaded ones, changed or not, then the new ones.
    public private(set) var all: [QueueItem]
    /// The items as they were loaded, by ticket.
    private let loaded: [String: QueueItem]

    public init(session: String, items: [QueueItem]) {
        self.session = session
        self.all = items
        self.loaded = Dictionary(items.map { ($0.ticket, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Queued and presenting items.
    public var live: [QueueItem] { all.filter(\.state.isLive) }

    public func item(ticket: String) -> QueueItem? { all.first { $0.ticket == ticket } }

    /// Loaded items the step changed, in load order.
    public var updated: [QueueItem] {
        all.filter { item in loaded[item.ticket].map { $0 != item } ?? false }
    }

    /// Items the step created, in creation order.
    public var inserted: [QueueItem] { all.filter { loaded[$0.ticket] == nil } }

    /// Whether the step changed anything a store must write.
    public var hasChanges: Bool { !updated.isEmpty || !inserted.isEmpty }

    mutating func update(ticket: String, _ change: (inout QueueItem) -> Void) {
        guard let index = all.firstIndex(where: { $0.ticket == ticket }) else { return }
        change(&all[index])
        assert(Self.changesOnlyProgress(from: loaded[ticket], to: all[index]))
    }

    /// Applies `change` to every item that matches.
    mutating func updateAll(where matches: (QueueItem) -> Bool, _ change: (inout QueueItem) -> Void) {
        for index in all.indices where matches(all[index]) {
            change(&all[index])
            assert(Self.changesOnlyProgress(from: loaded[all[index].ticket], to: all[index]))
        }
    }

    /// Whether `after` differs from the item as loaded only in state, deliveries and lease.
    private static func changesOnlyProgress(from before: QueueItem?, to after: QueueItem) -> Bool {
        guard var before else { return true }
        before.state = after.state
        before.deliveries = after.deliveries
        before.leaseUntil = after.leaseUntil
        return before == after
    }

    mutating func insert(_ item: QueueItem) {
        all.append(item)
    }
}
