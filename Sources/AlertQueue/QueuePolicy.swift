import AlertSpec
import Foundation

/// The queue semantics, as pure functions over one session's items: no database, no clock,
/// no I/O. Every store loads a session's items (all of them, or a window with the rest counted:
/// `SessionItems.Unloaded`), applies one of these steps, and writes `SessionItems.updated` and
/// `.inserted` back in one transaction, so all stores behave alike.
///
/// ```swift
/// let policy = QueuePolicy(settings: QueueSettings())
/// var items = SessionItems(session: "s1", items: loadedLiveItems)
/// let delivered = policy.next(&items, holdUntil: nil, now: now)   // presenting, leased
/// // write items.updated and items.inserted
/// ```
///
/// The rules:
/// - **Order** within a lane: `atHead` items (chains) first, the newest chain first; then
///   priority, higher first; then enqueue order (`sequence`). The same order ranks the best
///   items of different lanes against each other.
/// - **Schedule**: a queued item with a `notBefore` after `now` is not deliverable; it keeps its
///   place in the order, and from its time competes like any other. Its TTL counts from it.
/// - **Lanes**: `modal` and `toast` present at most one item each; `hud` never waits. `next`
///   delivers the best queued item of the lanes that are free; while a hold is active only the
///   `hud` lane is.
/// - **Every step first prepares** the items at `now`: a presenting item whose lease ended is
///   queued again (its deliveries kept), or `dead` once it was delivered `maxDeliveries` times;
///   then a queued item whose `expiresAt` is not after `now` is `expired` (also one just
///   requeued: an item past its TTL is never delivered again).
/// - **Delivery**: presenting, one more delivery, leased until `now + leaseDuration`. A HUD is
///   fire-and-forget: delivering it makes it `done` at once (no lease, never delivered again,
///   never dead), so no HUD is ever presenting.
/// - **Enqueue**: a live item with the same dedupe key is returned instead (not created); with
///   `OnDuplicate.refresh` a queued one is first brought up to date (content, priority, lane,
///   schedule, TTL from now or from the new schedule; its ticket and sequence kept); a new or refreshed HUD cancels the other
///   queued HUDs of the session (changeTo); more than `maxQueueLength` live items are refused.
/// - **Ack**: a presenting or queued item is `done`, with the input given (if any), and its chain
///   is queued at the head of its lane in the same step; a done item stays as it is (its input
///   too); cancelled, expired and dead ones are gone.
/// - **Cancel**: live items become `cancelled`.
/// - **Events**: each step records what it did to each item in `SessionItems.events` (an
///   item's timeline, `ItemEvent`), which the store writes with the changes; none when
///   `QueueSettings.recordsEvents` is off.
public struct QueuePolicy: Sendable, Equatable {
    public var settings: QueueSettings

    public init(settings: QueueSettings = QueueSettings()) {
        self.settings = settings
    }

    // MARK: - Order

    /// Whether `a` is delivered before `b`: chains first (newest first), then priority (higher
    /// first), then enqueue order.
    public static func precedes(_ a: QueueItem, _ b: QueueItem) -> Bool {
        if a.atHead != b.atHead { return a.atHead }
        if a.atHead { return a.sequence > b.sequence }
        if a.priority != b.priority { return a.priority > b.priority }
        return a.sequence < b.sequence
    }

    /// A listing in delivery order: presenting items, then queued items (all lanes, interleaved
    /// by `precedes`), then dead items (oldest first). Other states are left out.
    public static func deliveryOrder(_ items: [QueueItem]) -> [QueueItem] {
        let presenting = items.filter { $0.state == .presenting }.sorted(by: precedes)
        let queued = items.filter { $0.state == .queued }.sorted(by: precedes)
        let dead = items.filter { $0.state == .dead }.sorted { $0.sequence < $1.sequence }
        return presenting + queued + dead
    }

    /// 1-based place of `item` among the queued items of its lane, in delivery order; 0 when it
    /// is presenting (or no longer live).
    public static func position(of item: QueueItem, in items: SessionItems) -> Int {
        guard item.state == .queued else { return 0 }
        let ahead = items.all.filter { $0.state == .queued && $0.lane == item.lane && precedes($0, item) }
        return ahead.count + items.unloaded.queuedAhead[item.ticket, default: 0] + 1
    }

    // MARK: - Hold

    /// Whether a hold ending at `until` still holds at `now`.
    public static func isHolding(until: Date?, now: Date) -> Bool {
        guard let until else { return false }
        return until > now
    }

    /// When a hold asked for at `now` ends: `seconds` (or `defaultHold`), at most `maxHold`,
    /// never negative.
    public func holdDeadline(seconds: Double?, now: Date) -> Date {
        let asked = seconds ?? settings.defaultHold
        let seconds = asked.isFinite ? min(max(asked, 0), settings.maxHold) : settings.maxHold
        return now.addingTimeInterval(seconds)
    }

    /// The lanes `next` may deliver from: those with nothing presenting (`hud` always), and only
    /// `hud` while a hold is active.
    public static func freeLanes(_ items: [QueueItem], holdUntil: Date?, now: Date) -> Set<Lane> {
        if isHolding(until: holdUntil, now: now) { return [.hud] }
        let busy = Set(items.filter { $0.state == .presenting && $0.lane != .hud }.map(\.lane))
        return Set(Lane.allCases).subtracting(busy)
    }

    // MARK: - Steps

    /// The item `new` becomes when it is queued at `now` under `ticket` and `sequence`. A
    /// schedule is resolved at `now` (one already past is none), and the TTL counts from it.
    public func makeItem(_ new: NewItem, ticket: String, sequence: Int64, now: Date) -> QueueItem {
        let notBefore = new.notBefore?.resolved(now: now)
        let deliverableAt = notBefore ?? now
        return QueueItem(
            ticket: ticket, session: new.session, content: new.content, priority: new.priority, lane: new.lane,
            dedupeKey: new.dedupeKey, state: .queued, sequence: sequence, enqueuedAt: now,
            expiresAt: new.ttl.map { deliverableAt.addingTimeInterval($0) }, deliveries: 0, leaseUntil: nil,
            atHead: new.atHead, notBefore: notBefore, group: new.group, campaign: new.campaign, pacing: new.pacing)
    }

    /// Whether a queued `item` may be delivered at `now`: not scheduled for later.
    public static func isDeliverable(_ item: QueueItem, now: Date) -> Bool {
        item.notBefore.map { $0 <= now } ?? true
    }

    /// Ends leases and TTLs that passed at `now`. Every other step starts with it; calling it
    /// again at the same `now` changes nothing.
    public func prepare(_ items: inout SessionItems, now: Date) {
        let maxDeliveries = settings.maxDeliveries
        let leaseEnded: (QueueItem) -> Bool = { $0.state == .presenting && $0.leaseUntil.map { $0 <= now } ?? false }
        let ttlEnded: (QueueItem) -> Bool = { $0.state == .queued && $0.expiresAt.map { $0 <= now } ?? false }
        for item in items.all where leaseEnded(item) {
            let dead = item.deliveries >= maxDeliveries
            record(
                dead ? .dead : .requeued, item.ticket, in: &items, at: now, [(dead ? "deliveries" : "delivery"): .integer(item.deliveries)])
        }
        items.updateAll(where: leaseEnded) { item in
            item.state = item.deliveries >= maxDeliveries ? .dead : .queued
            item.leaseUntil = nil
        }
        for item in items.all where ttlEnded(item) { record(.expired, item.ticket, in: &items, at: now) }
        items.updateAll(where: ttlEnded) { item in
            item.state = .expired
        }
    }

    /// Queues `item` (made by `makeItem`), or returns the live item of the session with its
    /// dedupe key: brought up to date from `item` when `onDuplicate` is `refresh` and it is
    /// still queued (see `NewItem.OnDuplicate`), else as it is. A new HUD cancels the session's
    /// queued HUDs, and so does a refreshed one. A refreshed item's `position` is exact over the
    /// items loaded; a store that counted the others (`Unloaded`) at its old priority and lane
    /// counts its place again once it is written.
    ///
    /// The PostgreSQL store inserts a batch of enqueues in one statement where none of these
    /// rules but the insert applies (`alertd.enqueue_counted` tells those cases apart in SQL, and
    /// this function, run on the same items, must agree). A rule added here needs its case there.
    /// - Throws: `QueueError.queueFull` when the session would hold more than `maxQueueLength`
    ///   live items; `items` is then left as prepared.
    public func enqueue(
        _ item: QueueItem, into items: inout SessionItems, now: Date, onDuplicate: NewItem.OnDuplicate = .keep,
        origin: EnqueueOrigin = .admin
    ) throws(QueueError) -> EnqueueResult {
        precondition(item.session == items.session, "an item queued into another session's items")
        prepare(&items, now: now)
        if let existing = items.live.first(where: { $0.dedupeKey == item.dedupeKey }) {
            guard onDuplicate == .refresh, existing.state == .queued else {
                return EnqueueResult(item: existing, created: false, position: Self.position(of: existing, in: items))
            }
            let replaced = item.lane == .hud
                ? items.live.filter { $0.lane == .hud && $0.state == .queued && $0.ticket != existing.ticket } : []
            supersede(replaced, by: existing.ticket, in: &items, now: now)
            items.refresh(ticket: existing.ticket, from: item)
            record(.refreshed, existing.ticket, in: &items, at: now, Self.refreshDetail(item))
            let refreshed = items.item(ticket: existing.ticket) ?? existing
            return EnqueueResult(item: refreshed, created: false, position: Self.position(of: refreshed, in: items), refreshed: true)
        }
        let replaced = item.lane == .hud ? items.live.filter { $0.lane == .hud && $0.state == .queued } : []
        guard items.liveCount - replaced.count < settings.maxQueueLength else {
            throw .queueFull(limit: settings.maxQueueLength)
        }
        insert(item, into: &items, replacing: replaced, now: now, detail: Self.enqueuedDetail(item, origin: origin))
        return EnqueueResult(item: item, created: true, position: Self.position(of: item, in: items))
    }

    /// Delivers the best queued item of the free lanes, or nil: presenting with a lease, or
    /// `done` for a HUD. Paces nothing: for a step whose items have no rule, under no
    /// session-wide pacing (`next(_:holdUntil:pacing:profile:now:)` paces).
    public func next(_ items: inout SessionItems, holdUntil: Date?, now: Date) -> QueueItem? {
        prepare(&items, now: now)
        let lanes = Self.freeLanes(items.all, holdUntil: holdUntil, now: now)
        let candidates = items.all.filter { $0.state == .queued && lanes.contains($0.lane) && Self.isDeliverable($0, now: now) }
        guard let best = candidates.min(by: Self.precedes) else { return nil }
        return deliver(best, in: &items, now: now)
    }

    /// Delivers `best`: presenting with a lease, or `done` for a HUD.
    func deliver(_ best: QueueItem, in items: inout SessionItems, now: Date) -> QueueItem? {
        // A HUD is fire-and-forget: delivered is done, with no lease to end or redeliver.
        let fireAndForget = best.lane == .hud
        let leaseUntil = fireAndForget ? nil : now.addingTimeInterval(settings.leaseDuration)
        items.update(ticket: best.ticket) { item in
            item.state = fireAndForget ? .done : .presenting
            item.deliveries += 1
            item.leaseUntil = leaseUntil
        }
        record(.delivered, best.ticket, in: &items, at: now, Self.deliveredDetail(delivery: best.deliveries + 1, leaseUntil: leaseUntil))
        return items.item(ticket: best.ticket)
    }

    /// The item an ack of `ticket` starts from, as loaded, for the store to ask what it chains
    /// (`QueueStore.acknowledge`) before `acknowledge` runs.
    /// - Throws: `notFound` when `items` holds no such ticket; `gone` for a cancelled, expired
    ///   or dead item.
    public func acknowledged(ticket: String, in items: SessionItems) throws(QueueError) -> QueueItem {
        guard let item = items.item(ticket: ticket) else { throw .notFound(ticket: ticket) }
        if [.cancelled, .expired, .dead].contains(item.state) { throw .gone(ticket: ticket, state: item.state) }
        return item
    }

    /// Acknowledges `ticket`: a presenting or queued item becomes `done`, keeping `input` (what
    /// the user typed, checked by the caller), and `chain` (made by `makeItem`) is queued first
    /// in its lane, in this session. A done item is returned as it is (its input is not
    /// replaced, and its chain is not queued again).
    ///
    /// The chain takes the place of the item acknowledged, so the queue limit does not refuse
    /// it; when a live item already has the chain's dedupe key, that one stays and nothing is
    /// added. Either way `chained` is the live item with the chain's key.
    /// - Throws: `notFound` when `items` holds no such ticket; `gone` for a cancelled, expired
    ///   or dead item (also one whose lease or TTL ended just now).
    public func acknowledge(
        ticket: String, chain: QueueItem?, input: String? = nil, action: String? = nil, role: String? = nil,
        in items: inout SessionItems, now: Date
    ) throws(QueueError) -> Acknowledgement {
        prepare(&items, now: now)
        guard let item = items.item(ticket: ticket) else { throw .notFound(ticket: ticket) }
        switch item.state {
        case .done:
            break
        case .cancelled, .expired, .dead:
            throw .gone(ticket: ticket, state: item.state)
        case .queued, .presenting:
            record(.acknowledged, ticket, in: &items, at: now, acknowledgedDetail(item, action: action, role: role, input: input, now: now))
            items.update(ticket: ticket) { item in
                item.state = .done
                item.leaseUntil = nil
                item.input = input
            }
            if var chain, !items.live.contains(where: { $0.dedupeKey == chain.dedupeKey }) {
                chain.session = items.session
                chain.atHead = true
                let replaced = chain.lane == .hud ? items.live.filter { $0.lane == .hud && $0.state == .queued } : []
                insert(chain, into: &items, replacing: replaced, now: now, detail: ["by": .string("chain"), "after": .string(ticket)])
            }
        }
        let chained = chain.flatMap { chain in items.live.first { $0.dedupeKey == chain.dedupeKey } }
        return Acknowledgement(item: items.item(ticket: ticket) ?? item, chained: chained)
    }

    /// `acknowledge`, for the item alone.
    public func ack(ticket: String, chain: QueueItem?, in items: inout SessionItems, now: Date) throws(QueueError) -> QueueItem {
        try acknowledge(ticket: ticket, chain: chain, in: &items, now: now).item
    }

    /// Cancels the live item `ticket`, or every live item (nil); returns how many.
    /// - Throws: `notFound` for a ticket `items` does not hold; `gone` for one no longer live.
    public func cancel(ticket: String?, by cause: CancelCause = .admin, in items: inout SessionItems, now: Date) throws(QueueError) -> Int {
        prepare(&items, now: now)
        if let ticket {
            guard let item = items.item(ticket: ticket) else { throw .notFound(ticket: ticket) }
            guard item.state.isLive else { throw .gone(ticket: ticket, state: item.state) }
        }
        for item in items.all where item.state.isLive && (ticket == nil || item.ticket == ticket) {
            record(.cancelled, item.ticket, in: &items, at: now, ["by": .string(cause.rawValue)])
        }
        var cancelled = 0
        items.updateAll(where: { $0.state.isLive && (ticket == nil || $0.ticket == ticket) }) { item in
            item.state = .cancelled
            item.leaseUntil = nil
            cancelled += 1
        }
        return cancelled
    }

    /// The session's presenting, queued and dead items at `now`, in delivery order.
    public func listing(_ items: inout SessionItems, now: Date) -> [QueueItem] {
        prepare(&items, now: now)
        return Self.deliveryOrder(items.all)
    }

    // MARK: -

    private func insert(
        _ item: QueueItem, into items: inout SessionItems, replacing replaced: [QueueItem], now: Date, detail: [String: ParameterValue]
    ) {
        supersede(replaced, by: item.ticket, in: &items, now: now)
        items.insert(item)
        record(.enqueued, item.ticket, in: &items, at: now, detail)
    }
}
