import AlertSpec
import Foundation

/// What a queued item shows: an alert of a catalog with its parameters, or an ad-hoc spec.
public enum QueueContent: Sendable, Equatable, Codable {
    /// `catalog/type` and its parameters, rendered in the client's locale at delivery.
    case alert(id: String, parameters: [String: ParameterValue])
    /// A spec written by the sender, delivered as it is. Indirect: a draft is large, and items
    /// are copied and held (by every waiting long-poll) far more often than they carry one.
    indirect case spec(SpecDraft)
}

/// The life of an item: `queued` → `presenting` (delivered, leased) → `done` (acknowledged);
/// or `cancelled`, `expired` (its TTL passed before delivery), `dead` (delivered too often
/// without an acknowledgement).
public enum ItemState: String, Sendable, Codable, CaseIterable {
    case queued, presenting, done, cancelled, expired, dead

    /// Queued or presenting: the item still counts for dedupe and lanes.
    public var isLive: Bool { self == .queued || self == .presenting }
}

/// An item to enqueue.
public struct NewItem: Sendable, Equatable {
    public var session: String
    public var content: QueueContent
    /// 0…1000, higher first.
    public var priority: Int
    public var lane: Lane
    /// Items with the same key are the same alert: never queued or shown twice at once.
    public var dedupeKey: String
    /// Seconds it may wait once deliverable (counted from `notBefore` when scheduled); nil
    /// waits for ever.
    public var ttl: Double?
    /// Not deliverable before this; nil (or a time already past) is deliverable at once.
    public var notBefore: NotBefore?
    /// Continues what the user just did (a chain): ahead of everything queued in its lane.
    public var atHead: Bool
    /// What an enqueue does to a live item with the same dedupe key. Default `keep`.
    public var onDuplicate: OnDuplicate
    /// Who queued it, for its timeline.
    public var origin: EnqueueOrigin
    /// The group of copies it is one of (a user's devices reached once, see `QueueItem.group`).
    public var group: String?
    /// The campaign it is a copy of (see `QueueItem.campaign`).
    public var campaign: String?
    /// How often its alert may be shown: its catalog's rule tightened by the enqueue's. The
    /// store's step enforces it.
    public var pacing: Pacing

    /// What an enqueue does to the live item that already has its dedupe key.
    public enum OnDuplicate: String, Sendable, Equatable, CaseIterable {
        /// While that item is still queued, bring it up to date: this enqueue's content,
        /// priority, lane, schedule and TTL (counted from now, or from its new `notBefore`),
        /// keeping its ticket and its sequence. A presenting item is left as it is.
        case refresh
        /// Leave it as it is.
        case keep
    }

    public init(
        session: String, content: QueueContent, priority: Int, lane: Lane, dedupeKey: String, ttl: Double? = nil,
        atHead: Bool = false, onDuplicate: OnDuplicate = .keep, origin: EnqueueOrigin = .admin, notBefore: NotBefore? = nil,
        group: String? = nil, campaign: String? = nil, pacing: Pacing = .none
    ) {
        self.session = session
        self.content = content
        self.priority = priority
        self.lane = lane
        self.dedupeKey = dedupeKey
        self.ttl = ttl
        self.atHead = atHead
        self.onDuplicate = onDuplicate
        self.origin = origin
        self.notBefore = notBefore
        self.group = group
        self.campaign = campaign
        self.pacing = pacing
    }
}

/// An item in a session's queue.
public struct QueueItem: Sendable, Equatable {
    public var ticket: String
    public var session: String
    public var content: QueueContent
    public var priority: Int
    public var lane: Lane
    public var dedupeKey: String
    public var state: ItemState
    /// Enqueue order within the store, increasing.
    public var sequence: Int64
    public var enqueuedAt: Date
    public var expiresAt: Date?
    /// Times delivered.
    public var deliveries: Int
    /// While presenting: when the lease ends and the item becomes deliverable again.
    public var leaseUntil: Date?
    public var atHead: Bool
    /// A scheduled item is not deliverable before this (its TTL counts from it); nil when it was
    /// deliverable from its enqueue.
    public var notBefore: Date?
    /// What the user typed in the alert's input field, given with the ack that made it done (the
    /// server checked it against the field; never a secure field's). `QueueStore.item` reads it;
    /// of the steps, only the ack that gives it answers with it (a store may load a step's items
    /// without it: no step changes it once given).
    public var input: String?
    /// The group of copies this item is one of: the same alert queued once on each of a user's
    /// sessions, any of which may present it until one is answered; the first ack takes the
    /// others back (`QueuePolicy.withdraw`). Nil for an item on its own.
    public var group: String?
    /// The campaign this item is a copy of (`Campaign`): one per session, recalled with it.
    public var campaign: String?
    /// How often its alert may be shown (`Pacing`), fixed at its enqueue; `next` delivers it
    /// only when the rule allows (`QueuePolicy.next`).
    public var pacing: Pacing

    public init(
        ticket: String, session: String, content: QueueContent, priority: Int, lane: Lane, dedupeKey: String,
        state: ItemState, sequence: Int64, enqueuedAt: Date, expiresAt: Date?, deliveries: Int, leaseUntil: Date?,
        atHead: Bool, input: String? = nil, notBefore: Date? = nil, group: String? = nil, campaign: String? = nil,
        pacing: Pacing = .none
    ) {
        self.ticket = ticket
        self.session = session
        self.content = content
        self.priority = priority
        self.lane = lane
        self.dedupeKey = dedupeKey
        self.state = state
        self.sequence = sequence
        self.enqueuedAt = enqueuedAt
        self.expiresAt = expiresAt
        self.deliveries = deliveries
        self.leaseUntil = leaseUntil
        self.atHead = atHead
        self.input = input
        self.notBefore = notBefore
        self.group = group
        self.campaign = campaign
        self.pacing = pacing
    }

    /// The alert its pacing counts deliveries of: the catalog alert (`catalog/type`), whatever
    /// its parameters; an ad-hoc spec is its own alert, known by its dedupe key.
    public var pacedAlert: String {
        switch content {
        case .alert(let id, _): id
        case .spec: "\(AlertOutcome.adhoc):\(dedupeKey)"
        }
    }
}

/// The outcome of an enqueue.
public struct EnqueueResult: Sendable, Equatable {
    /// The item queued, or the live item with the same dedupe key.
    public var item: QueueItem
    /// False when an item with the same dedupe key was already queued or presenting.
    public var created: Bool
    /// 1-based place in its lane's delivery order.
    /// Counted among the lane's queued items; 0 when the item returned is already presenting.
    public var position: Int
    /// For a duplicate: whether the live item was brought up to date (`OnDuplicate.refresh`, and
    /// it was still queued). False for a new item.
    public var refreshed: Bool

    public init(item: QueueItem, created: Bool, position: Int, refreshed: Bool = false) {
        self.item = item
        self.created = created
        self.position = position
        self.refreshed = refreshed
    }
}

/// The outcome of an ack.
public struct Acknowledgement: Sendable, Equatable {
    /// The item acknowledged, as it is now: `done`.
    public var item: QueueItem
    /// With a chain: the item it queued, or the live item that already had its dedupe key.
    public var chained: QueueItem?
    /// The other copies of the item's group the ack took back (queued ones cancelled, presenting
    /// ones withdrawn), in other sessions: their polls are to be woken.
    public var takenBack: [TakenBack]

    public init(item: QueueItem, chained: QueueItem?, takenBack: [TakenBack] = []) {
        self.item = item
        self.chained = chained
        self.takenBack = takenBack
    }
}

/// How long leases last, how often an item may be delivered, how long a session may hold.
public struct QueueSettings: Sendable, Equatable {
    /// Seconds a delivered item stays presenting without an acknowledgement. Default 60.
    public var leaseDuration: Double
    /// Deliveries after which an unacknowledged item is dead-lettered. Default 5.
    public var maxDeliveries: Int
    /// Seconds a hold lasts when none is given, and at most. Defaults 30 and 600.
    public var defaultHold: Double
    public var maxHold: Double
    /// Live items a session may hold at once; more is refused. Default 100.
    public var maxQueueLength: Int
    /// Whether steps record their items' timelines (`ItemEvent`). Off, a step writes no event:
    /// timelines stay empty, the queue behaves the same. Default on.
    public var recordsEvents: Bool
    /// Session-wide pacing every session starts from (`--min-modal-gap`, `--max-modals-per-day`,
    /// `--quiet-hours`), under its user's and its own profile. Default none.
    public var profile: SessionProfile
    /// Items of this priority or higher pass the session-wide pacing (quiet hours, the modal
    /// gap, the daily cap), never their alert's own rule. Default 900.
    public var bypassPriority: Int

    public init(
        leaseDuration: Double = 60, maxDeliveries: Int = 5, defaultHold: Double = 30, maxHold: Double = 600, maxQueueLength: Int = 100,
        recordsEvents: Bool = true, profile: SessionProfile = .none, bypassPriority: Int = 900
    ) {
        self.leaseDuration = leaseDuration
        self.maxDeliveries = maxDeliveries
        self.defaultHold = defaultHold
        self.maxHold = maxHold
        self.maxQueueLength = maxQueueLength
        self.recordsEvents = recordsEvents
        self.profile = profile
        self.bypassPriority = bypassPriority
    }
}
