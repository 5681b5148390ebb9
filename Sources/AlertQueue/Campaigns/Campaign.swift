import AlertSpec
import Foundation

/// Who a campaign reaches.
public enum Audience: Sendable, Equatable {
    /// These sessions, in this order.
    case sessions([String])
    /// Every session of these users (`SessionDirectory`).
    case users([String])
    /// Every session that joined the topic.
    case topic(String)
    /// Every session seen within this many seconds before the campaign was made.
    case seenWithin(seconds: Double)
}

/// Where a campaign is: fanning out, every session of its audience reached, or recalled.
public enum CampaignState: String, Sendable, Equatable, CaseIterable {
    case running, done, recalled
}

/// One alert queued for a whole audience, a session at a time, in the background
/// (`CampaignStore.fanOut`): each session of the audience gets one copy, never two, whatever
/// crashes or instances come and go.
public struct Campaign: Sendable, Equatable {
    public var id: String
    /// The copy each session gets (its `session` is left empty): content, priority, lane, TTL,
    /// schedule (a time, resolved when the campaign was made) and dedupe key.
    public var template: NewItem
    public var audience: Audience
    public var state: CampaignState
    public var createdAt: Date
    /// When the fan-out reached the audience's end, or the campaign was recalled.
    public var finishedAt: Date?
    /// Sessions of the audience reached so far; of them, those that got a copy, those whose
    /// live item had the copy's dedupe key already, and those whose queue was full.
    public var targeted: Int
    public var queued: Int
    public var duplicates: Int
    public var refused: Int

    public init(
        id: String, template: NewItem, audience: Audience, state: CampaignState = .running, createdAt: Date, finishedAt: Date? = nil,
        targeted: Int = 0, queued: Int = 0, duplicates: Int = 0, refused: Int = 0
    ) {
        self.id = id
        self.template = template
        self.audience = audience
        self.state = state
        self.createdAt = createdAt
        self.finishedAt = finishedAt
        self.targeted = targeted
        self.queued = queued
        self.duplicates = duplicates
        self.refused = refused
    }

    /// The copy for `session`.
    public func copy(for session: String) -> NewItem {
        var copy = template
        copy.session = session
        copy.campaign = id
        return copy
    }
}

/// What one batch of a fan-out did.
public struct FanOut: Sendable, Equatable {
    /// The sessions that got a copy: their waiting polls are to be woken.
    public var queued: [String]
    /// Of those asked to be delivered to (`delivering`), what `next` delivered to each, in the
    /// same transaction: its waiting poll is handed it.
    public var delivered: [String: QueueItem]
    /// Of `first`, the sessions the batch ended before (it ended early): to be passed again.
    public var unreached: [String]
    public var duplicates: Int
    public var refused: Int
    /// Whether the campaign is no longer running: its audience is all reached (this batch
    /// reached its end), or it was recalled or is unknown.
    public var finished: Bool

    public init(
        queued: [String] = [], delivered: [String: QueueItem] = [:], unreached: [String] = [], duplicates: Int = 0,
        refused: Int = 0, finished: Bool
    ) {
        self.queued = queued
        self.delivered = delivered
        self.unreached = unreached
        self.duplicates = duplicates
        self.refused = refused
        self.finished = finished
    }
}

/// What became of a campaign's copies, from their items and timelines.
public struct CampaignProgress: Sendable, Equatable {
    /// Copies waiting to be delivered, and on screen now.
    public var queued = 0
    public var presenting = 0
    /// Copies delivered at least once.
    public var delivered = 0
    /// Copies acknowledged, by the action picked (`""`: none).
    public var answered = 0
    public var actions: [String: Int] = [:]
    public var expired = 0
    /// Copies taken off a screen by a recall, and queued ones cancelled (by a recall or else).
    public var withdrawn = 0
    public var cancelled = 0
    public var dead = 0

    public init() {}

    /// Counts `count` copies in `state` (a raw `ItemState`), delivered at least once or not.
    public mutating func add(state: String, delivered: Bool, count: Int) {
        if delivered { self.delivered += count }
        switch ItemState(rawValue: state) {
        case .queued: queued += count
        case .presenting: presenting += count
        case .expired: expired += count
        case .dead: dead += count
        case .cancelled: cancelled += count
        case .done, nil: break
        }
    }

    /// Counts `count` events of the copies' timelines of `type` (acks, by `action`, and
    /// withdrawals; a withdrawn copy is cancelled too, and counted once, as withdrawn).
    public mutating func add(event type: String, action: String, count: Int) {
        switch ItemEvent.Kind(rawValue: type) {
        case .withdrawn:
            withdrawn += count
            cancelled -= count
        case .acknowledged:
            answered += count
            actions[action, default: 0] += count
        default:
            break
        }
    }
}

/// The campaigns a store keeps, and their fan-out.
public protocol CampaignStore: Sendable {
    /// Stores `campaign`, running. Throws `CampaignError.exists` when its id is taken.
    func createCampaign(_ campaign: Campaign) async throws

    func campaign(id: String) async throws -> Campaign?

    /// Campaigns newest first, at most `limit`, made before the campaign `before` when given.
    func campaigns(before: String?, limit: Int) async throws -> [Campaign]

    /// The ids of the campaigns still fanning out.
    func runningCampaigns() async throws -> [String]

    /// One batch of the campaign's fan-out, in one transaction: first the sessions of `first`
    /// that are in its audience and have no copy yet (sessions whose polls wait now: served
    /// first), then the audience's next sessions after the campaign's cursor, up to `limit` in
    /// all; each gets a copy as an enqueue would queue it (a live duplicate or a full queue
    /// gets none), the cursor and the counts move in the same transaction. A session never gets
    /// two copies of a campaign; a batch that ends the audience finishes the campaign. A store
    /// may end a batch early (SQLite does when live writes wait): it is then not finished.
    func fanOut(campaign id: String, first: [String], limit: Int, now: Date) async throws -> FanOut

    /// `fanOut`, and for the sessions of `delivering` (of `first`: their polls were claimed)
    /// that got a copy, `next`'s delivery in the same transaction (`FanOut.delivered`), as
    /// `enqueueThenNext` does. By default none is delivered: the polls look for themselves.
    func fanOut(campaign id: String, first: [String], limit: Int, delivering: Set<String>, now: Date) async throws -> FanOut

    /// Sessions per `fanOut` batch that keep its transaction short here. 1,000 by default.
    var fanOutBatch: Int { get }

    /// Sessions per batch while sessions whose polls wait are served first (`first`,
    /// `delivering`): the batch reaches no others. `fanOutBatch` by default.
    var fanOutFirstBatch: Int { get }

    /// What became of the campaign's copies; nil for an unknown campaign.
    func progress(campaign id: String) async throws -> CampaignProgress?

    /// Stops the fan-out (the campaign is `recalled`) and takes back its live copies (see
    /// `QueueStore.recall`); nil for an unknown campaign.
    func recall(campaign id: String, now: Date) async throws -> Recall?
}

extension CampaignStore {
    public var fanOutBatch: Int { 1_000 }

    public var fanOutFirstBatch: Int { fanOutBatch }

    public func fanOut(campaign id: String, first: [String], limit: Int, delivering: Set<String>, now: Date) async throws -> FanOut {
        try await fanOut(campaign: id, first: first, limit: limit, now: now)
    }
}

/// Why a campaign could not be made.
public enum CampaignError: Error, Sendable, Equatable {
    /// A campaign already has this id.
    case exists(String)
}
