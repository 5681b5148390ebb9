import AlertSpec
import Foundation

/// Why one item is where it is at `now`: a code and the facts behind it.
public struct ItemExplanation: Sendable, Equatable {
    /// The item as it is at `now` (leases and TTLs that passed ended, as `next` would end them).
    public var item: QueueItem
    public var code: ExplanationCode
    /// `lane-busy`: the presenting item; `behind`: the item that comes first.
    public var blocker: QueueItem?
    /// `held`: when the hold ends; `scheduled`: when it becomes deliverable; `presenting`: when
    /// the lease ends; `expired`: when the TTL ended; `pacing-limit`, `pacing-gap`: when its
    /// pacing allows it again.
    public var until: Date?
    /// `presenting`, and for `lane-busy` the blocker's: when it was delivered (its lease's start).
    public var since: Date?
    /// `next`: why it beats `runnerUp`, the next best deliverable item (nil when it is the only one).
    public var win: WinReason?
    public var runnerUp: QueueItem?
    /// Queued items: the 1-based place among the queued items of its lane, in delivery order.
    public var position: Int?

    public init(
        item: QueueItem, code: ExplanationCode, blocker: QueueItem? = nil, until: Date? = nil, since: Date? = nil,
        win: WinReason? = nil, runnerUp: QueueItem? = nil, position: Int? = nil
    ) {
        self.item = item
        self.code = code
        self.blocker = blocker
        self.until = until
        self.since = since
        self.win = win
        self.runnerUp = runnerUp
        self.position = position
    }
}

/// Why the session's queue is as it is at `now`: what `next` would deliver and why, and for
/// every other item why it waits or how it ended. A pure function of what `next` decides over
/// (the items, the hold, `now`), using `QueuePolicy`'s own order and lanes, so it agrees with it.
///
/// ```swift
/// let snapshot = try await store.snapshot(session: "s1", now: now, finished: 5)
/// let why = QueueExplanation(snapshot, policy: policy)
/// why.next?.item.ticket   // what `next` would deliver now
/// ```
public struct QueueExplanation: Sendable, Equatable {
    public var session: String
    public var now: Date
    /// The hold's end while it holds, else nil.
    public var holdUntil: Date?
    /// The session's answer: `next`, `queue-empty`, or why the first queued item waits.
    public var code: ExplanationCode
    /// The item `next` would deliver now.
    public var next: ItemExplanation?
    /// Presenting, queued and dead items, in delivery order (as the listing).
    public var items: [ItemExplanation]
    /// Done, cancelled and expired items, most recently queued first: those the snapshot held,
    /// and those whose TTL ended by `now`.
    public var recent: [ItemExplanation]

    public init(_ snapshot: SessionSnapshot, policy: QueuePolicy) {
        let now = snapshot.now
        var loaded = SessionItems(session: snapshot.session, items: snapshot.items)
        policy.prepare(&loaded, now: now)
        let all = loaded.all
        let holding = QueuePolicy.isHolding(until: snapshot.holdUntil, now: now)
        let lanes = QueuePolicy.freeLanes(all, holdUntil: snapshot.holdUntil, now: now)
        let queued = all.filter { $0.state == .queued }.sorted(by: QueuePolicy.precedes)
        // What each item's pacing says now, its alert's rule first, as `next` would judge it.
        let profile = snapshot.profile.over(policy.settings.profile)
        var held: [String: (rule: PacingRule, until: Date?)] = [:]
        for item in queued {
            if !item.pacing.isNone,
                case .capped(let rule, let until) = item.pacing.verdict(alert: item.pacedAlert, history: snapshot.pacing, now: now)
            {
                held[item.ticket] = (rule, until)
            } else if let hold = profile.hold(item, history: snapshot.pacing, bypassPriority: policy.settings.bypassPriority, now: now) {
                held[item.ticket] = (hold.rule, hold.until)
            }
        }
        let deliverable = queued.filter {
            lanes.contains($0.lane) && QueuePolicy.isDeliverable($0, now: now) && held[$0.ticket] == nil
        }
        let presenting = Dictionary(
            all.filter { $0.state == .presenting }.map { ($0.lane, $0) }, uniquingKeysWith: { first, _ in first })
        let lease = policy.settings.leaseDuration
        // Each lane's queued items in delivery order, and each one's place there: one pass, not one per item.
        let byLane = Dictionary(grouping: queued, by: \.lane)
        var places: [String: Int] = [:]
        for lane in byLane.values { for (index, item) in lane.enumerated() { places[item.ticket] = index + 1 } }

        func explain(_ item: QueueItem) -> ItemExplanation {
            switch item.state {
            case .presenting:
                return ItemExplanation(
                    item: item, code: .presenting, until: item.leaseUntil,
                    since: item.leaseUntil?.addingTimeInterval(-lease))
            case .queued:
                let laneQueue = byLane[item.lane] ?? []
                let position = places[item.ticket] ?? 1
                if !QueuePolicy.isDeliverable(item, now: now) {
                    return ItemExplanation(item: item, code: .scheduled, until: item.notBefore, position: position)
                }
                if let paced = held[item.ticket] {
                    return ItemExplanation(item: item, code: ExplanationCode(paced.rule), until: paced.until, position: position)
                }
                if holding, item.lane != .hud {
                    return ItemExplanation(item: item, code: .held, until: snapshot.holdUntil, position: position)
                }
                if item.lane != .hud, let shown = presenting[item.lane] {
                    return ItemExplanation(
                        item: item, code: .laneBusy, blocker: shown, until: shown.leaseUntil,
                        since: shown.leaseUntil?.addingTimeInterval(-lease), position: position)
                }
                if deliverable.first?.ticket == item.ticket {
                    let runnerUp = deliverable.dropFirst().first
                    return ItemExplanation(
                        item: item, code: .next, win: Self.win(item, over: runnerUp), runnerUp: runnerUp, position: position)
                }
                // In a free lane, not first: the deliverable item before it in its lane, or the
                // winner of another lane.
                let ahead =
                    laneQueue[..<(position - 1)].last { QueuePolicy.isDeliverable($0, now: now) && held[$0.ticket] == nil }
                    ?? deliverable.first
                return ItemExplanation(item: item, code: .behind, blocker: ahead, position: position)
            case .dead: return ItemExplanation(item: item, code: .dead)
            case .expired: return ItemExplanation(item: item, code: .expired, until: item.expiresAt)
            case .done: return ItemExplanation(item: item, code: .done)
            case .cancelled: return ItemExplanation(item: item, code: .cancelled)
            }
        }

        session = snapshot.session
        self.now = now
        holdUntil = holding ? snapshot.holdUntil : nil
        items = QueuePolicy.deliveryOrder(all).map(explain)
        let endedNow = all.filter { !$0.state.isLive && $0.state != .dead }
        let tickets = Set(endedNow.map(\.ticket))
        recent = (endedNow + snapshot.finished.filter { !tickets.contains($0.ticket) })
            .sorted { $0.sequence > $1.sequence }.map(explain)
        next = items.first { $0.code == .next }
        code = next != nil ? .next : (items.first { $0.item.state == .queued }?.code ?? .queueEmpty)
    }

    /// The explanation of `ticket`, if the snapshot held it.
    public func item(ticket: String) -> ItemExplanation? {
        items.first { $0.item.ticket == ticket } ?? recent.first { $0.item.ticket == ticket }
    }

    /// Why `winner` is delivered before `runnerUp`, in `QueuePolicy.precedes`'s terms.
    static func win(_ winner: QueueItem, over runnerUp: QueueItem?) -> WinReason {
        guard let runnerUp else { return .only }
        if winner.atHead { return .chain }
        return winner.priority > runnerUp.priority ? .priority : .older
    }

    /// An item the snapshot did not hold (a finished one looked up by ticket), explained alone.
    public static func finished(_ item: QueueItem) -> ItemExplanation {
        switch item.state {
        case .expired: ItemExplanation(item: item, code: .expired, until: item.expiresAt)
        case .done: ItemExplanation(item: item, code: .done)
        case .cancelled: ItemExplanation(item: item, code: .cancelled)
        case .dead: ItemExplanation(item: item, code: .dead)
        case .queued, .presenting: preconditionFailure("a live item is explained with its session")
        }
    }
}
