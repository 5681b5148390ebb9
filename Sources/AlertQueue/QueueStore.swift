import Foundation

/// Where session queues are kept. Every method is one atomic step, durable when it returns
/// (an acknowledged write survives a crash of the process). Implementations apply
/// `QueuePolicy` for every decision, so all stores behave alike; the shared contract tests
/// hold them to it. Every store is also the registry of its sessions (`SessionDirectory`) and
/// keeps their pacing profiles (`ProfileStore`).
public protocol QueueStore: SessionDirectory, ProfileStore {
    /// Queues `item`, unless a live item of the session has its dedupe key (then that one is
    /// returned, `created` false). A newer queued HUD replaces older queued ones (they are
    /// cancelled). Throws `QueueError.queueFull` past `maxQueueLength` live items.
    func enqueue(_ item: NewItem, now: Date) async throws -> EnqueueResult

    /// Queues each copy as `enqueue` does (each of its own session, a group's sharing
    /// `NewItem.group`), all in one step: a copy whose session's queue is full is refused alone
    /// (its entry is `queueFull`), the others are queued.
    func enqueue(copies: [NewItem], now: Date) async throws -> [Result<EnqueueResult, QueueError>]

    /// Delivers the best deliverable item of the session — highest first across lanes that are
    /// free, see `QueuePolicy` — marking it presenting with a lease; nil when there is none.
    func next(session: String, now: Date) async throws -> QueueItem?

    /// What the session's device is to be handed now: a withdraw it is owed (a presenting item
    /// taken back meanwhile, oldest first, each handed once), else what `next` delivers.
    func nextDelivery(session: String, now: Date) async throws -> Delivery?

    /// Whether the session is owed a withdraw (what `nextDelivery` hands it first).
    func isOwedWithdraw(session: String) async throws -> Bool

    /// Ends the lease of a presenting item (`done`), keeps `input` (what the user typed) with it,
    /// and queues what `chain` answers first in its lane, in the same step. Throws `notFound` for
    /// an unknown ticket, `gone` for a cancelled, expired or dead one. Acknowledging a done item
    /// again changes nothing.
    ///
    /// `answer` is asked inside the step, with the item as loaded (so an ack reads the item once):
    /// keep it quick. It is where the caller checks `input` against the item, finds the chain and
    /// names the action for the timeline. What it throws ends the step with nothing changed, and
    /// is rethrown. It is not asked when the ticket is unknown or gone.
    ///
    /// The ack of a live copy of a group (`QueueItem.group`) takes back the group's other live
    /// copies in the same step (`QueuePolicy.withdraw`, `by` `answered`): queued ones are
    /// cancelled, presenting ones withdrawn and owed to their devices (`nextDelivery`). They are
    /// listed in `Acknowledgement.takenBack`, for their sessions' polls to be woken.
    func acknowledge(
        session: String, ticket: String, input: String?, now: Date, answer: @escaping @Sendable (QueueItem) throws -> AckAnswer
    ) async throws -> Acknowledgement

    /// The session's queued, presenting and dead items, in delivery order.
    func items(session: String, now: Date) async throws -> [QueueItem]

    /// One item of the session.
    func item(session: String, ticket: String) async throws -> QueueItem?

    /// The events of one item of the session, oldest first (empty for an unknown ticket).
    func timeline(session: String, ticket: String) async throws -> [StoredEvent]

    /// The session's finished items (done, cancelled, expired, dead), newest first (by enqueue
    /// order), at most `limit`, enqueued before `before` when given.
    func history(session: String, before: HistoryCursor?, limit: Int) async throws -> HistoryPage

    /// Every session's events after `cursor` (from the oldest kept when nil), at most `limit`, in
    /// an order where an event committed later never comes before one already read (see
    /// `EventCursor`): a reader that passes back each page's `next` misses none and sees each once.
    func events(after cursor: EventCursor?, limit: Int) async throws -> EventPage

    /// Adds the events after the roll-up's own cursor, at most `limit`, to the daily outcome
    /// counters (`OutcomeTally`) and moves that cursor past them, in one transaction: a shared
    /// store rolls up on one instance at a time, and no event is counted twice.
    func rollUpOutcomes(limit: Int) async throws -> OutcomeRollUp

    /// The stored counters of `alert` on `days`.
    func outcomes(alert: String, days: ClosedRange<OutcomeDay>) async throws -> [OutcomeCounter]

    /// Deletes the counters of the days before `day`; how many went.
    func purgeOutcomes(before day: OutcomeDay) async throws -> Int

    /// Deletes the paced deliveries (`PacingHistory`) older than `cutoff`, but the newest of each
    /// alert and scope, which "once ever" still counts; how many went.
    func purgePacing(before cutoff: Date) async throws -> Int

    /// What `QueueExplanation` explains, read without changing anything: the session's queued,
    /// presenting and dead items as stored, its hold as stored, and at most `finished` of its
    /// done, cancelled and expired items, most recently queued first (a store may look only so
    /// far back). Leases and TTLs that passed are left for the explanation to end.
    func snapshot(session: String, now: Date, finished: Int) async throws -> SessionSnapshot

    /// Cancels one live item (`ticket`), or every live item of the session (nil), `by` whom;
    /// returns how many were cancelled. A ticket that is unknown throws `notFound`; one no
    /// longer live, `gone`.
    func cancel(session: String, ticket: String?, by cause: CancelCause, now: Date) async throws -> Int

    /// Takes back every live item in `scope` across sessions, as `QueuePolicy.withdraw` does
    /// (`by` `recall`): queued items are cancelled, presenting ones withdrawn and owed to their
    /// devices; each gets its timeline's event. Runs in short transactions of a batch of items
    /// each, so other writes go on meanwhile; an item queued in `scope` while it runs may be
    /// taken back or not. A queued item whose TTL has passed is left to expire.
    func recall(_ scope: RecallScope, now: Date) async throws -> Recall

    /// Erases the session (a user's "delete my data"): every item whatever its state, their
    /// events, the session's hold and its counts, its registry row and topics (`SessionDirectory`),
    /// its pacing profile (`ProfileStore`), in one transaction. An unknown session erases nothing. The caller wakes the session's
    /// waiting polls.
    func erase(session: String) async throws -> Erasure

    /// One batch of the retention's sweep, in one short transaction: looks at up to `limit` items
    /// in enqueue order, after `after` (from the oldest when nil), and deletes those finished
    /// (done, cancelled, expired, dead) before `cutoff`, with their events. An item finished when
    /// its last event was recorded (one without events, when it was enqueued). Live items, and
    /// items finished at or after the cutoff, are stepped over and stay. The sweep ends
    /// (`next` nil) at the first item enqueued at or after the cutoff, which cannot have finished
    /// before it, or after the last item.
    func purge(finishedBefore cutoff: Date, after: PurgeCursor?, limit: Int) async throws -> PurgeBatch

    /// How the retention paces its sweep here: items per `purge` batch, and the pause between
    /// two. By default 25 items, 10 ms.
    var purgePace: PurgePace { get }

    /// Holds modal and toast delivery until `until`, or releases the hold (nil).
    func hold(session: String, until: Date?) async throws

    /// When the session's hold ends, if it has one now.
    func holdUntil(session: String, now: Date) async throws -> Date?

    /// The first time after `now` at which the session's deliverable items change by time alone,
    /// with no write to notify a waiting poll: its hold ends, or a scheduled item comes due
    /// (`QueueItem.notBefore`). Nil when neither is ahead. A waiting `next` looks again then.
    func nextTimedChange(session: String, now: Date) async throws -> Date?

    /// Whether the store answers (for `/readyz`).
    func isReachable() async -> Bool

    /// Whether the store can take writes now (for `/readyz`): nil when it can, else the error a
    /// write would meet. By default, whether it answers (`isReachable`); a store that can tell
    /// why its writes fail says so, and tries a write before it reports a recovery.
    func readiness() async -> QueueError?

    /// Live items across every session by lane and state at `now` (for `/metrics`): one
    /// aggregate query over the queued and presenting items only, whatever the history holds.
    func census(now: Date) async throws -> QueueCensus
}

/// A store that can queue an item and deliver the session's next item in one atomic step, for
/// a consumer already waiting for the session: one write where `enqueue` then `next` took two.
public protocol EnqueueAndTakeNext: QueueStore {
    /// `enqueue`, and, when it created the item, `next` for the session in the same step.
    /// `delivered` is what `next` would have delivered right after the enqueue (the new item,
    /// or another one it did not wait behind), already presenting with a lease.
    func enqueueAndTakeNext(_ item: NewItem, now: Date) async throws -> (enqueued: EnqueueResult, delivered: QueueItem?)
}

extension QueueStore {
    /// The hold's end alone, for a store that schedules nothing.
    public func nextTimedChange(session: String, now: Date) async throws -> Date? {
        try await holdUntil(session: session, now: now)
    }

    public var purgePace: PurgePace { PurgePace(batchSize: 25, pause: .milliseconds(10)) }

    public func readiness() async -> QueueError? {
        await isReachable() ? nil : .unavailable("readiness check")
    }

    /// `enqueue`, then, when it created the item, `next` for the session: for a consumer that
    /// already waits for the session. One step where the store can (`EnqueueAndTakeNext`), else
    /// two. A duplicate delivers nothing; nor does a session owed a withdraw (its consumer is to
    /// look with `nextDelivery`, which hands the withdraw first).
    public func enqueueThenNext(_ item: NewItem, now: Date) async throws -> (enqueued: EnqueueResult, delivered: QueueItem?) {
        if let store = self as? any EnqueueAndTakeNext { return try await store.enqueueAndTakeNext(item, now: now) }
        let enqueued = try await enqueue(item, now: now)
        guard enqueued.created, try await !isOwedWithdraw(session: item.session) else { return (enqueued, nil) }
        return (enqueued, try await next(session: item.session, now: now))
    }

    /// `acknowledge` with only a chain to answer.
    public func acknowledge(
        session: String, ticket: String, input: String?, now: Date, chain: @escaping @Sendable (QueueItem) throws -> NewItem?
    ) async throws -> Acknowledgement {
        try await acknowledge(session: session, ticket: ticket, input: input, now: now) { item in AckAnswer(chain: try chain(item)) }
    }

    /// `cancel` by the admin.
    public func cancel(session: String, ticket: String?, now: Date) async throws -> Int {
        try await cancel(session: session, ticket: ticket, by: .admin, now: now)
    }

    /// `acknowledge` without input.
    public func acknowledge(
        session: String, ticket: String, now: Date, chain: @escaping @Sendable (QueueItem) throws -> NewItem?
    ) async throws -> Acknowledgement {
        try await acknowledge(session: session, ticket: ticket, input: nil, now: now, chain: chain)
    }

    /// `acknowledge` with a chain known beforehand (or none); returns the item acknowledged.
    public func ack(session: String, ticket: String, chain: NewItem?, input: String? = nil, now: Date) async throws -> QueueItem {
        try await acknowledge(session: session, ticket: ticket, input: input, now: now) { _ in chain }.item
    }
}

/// Why a queue operation was refused. A struct around a private enum, so cases can be added.
public struct QueueError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Reason: Equatable {
        case notFound(String)
        case gone(String, ItemState)
        case queueFull(Int)
        case unavailable(StoreFailure, String)
    }

    private let reason: Reason

    public static func notFound(ticket: String) -> Self { .init(reason: .notFound(ticket)) }
    public static func gone(ticket: String, state: ItemState) -> Self { .init(reason: .gone(ticket, state)) }
    public static func queueFull(limit: Int) -> Self { .init(reason: .queueFull(limit)) }
    /// The store could not be reached; `why` is for logs, never for clients.
    public static func unavailable(_ why: String) -> Self { .init(reason: .unavailable(.unreachable, why)) }
    /// The store failed for `failure`; `detail` (the underlying error) is for logs.
    public static func storeFailed(_ failure: StoreFailure, _ detail: String) -> Self {
        .init(reason: .unavailable(failure, detail))
    }

    /// Why the store could not serve, for an `unavailable` error.
    public var storeFailure: StoreFailure? {
        if case .unavailable(let failure, _) = reason { failure } else { nil }
    }

    /// The kinds of refusal, for callers that answer each differently.
    public enum Kind: Sendable, Equatable {
        /// No such ticket in the session.
        case notFound
        /// The item is cancelled, expired or dead.
        case gone
        /// The session holds `maxQueueLength` live items.
        case queueFull
        /// The store cannot be reached or did not answer in time: worth trying again.
        case unavailable
    }

    public var kind: Kind {
        switch reason {
        case .notFound: .notFound
        case .gone: .gone
        case .queueFull: .queueFull
        case .unavailable: .unavailable
        }
    }

    public var code: String {
        switch reason {
        case .notFound: "unknown-ticket"
        case .gone: "ticket-gone"
        case .queueFull: "queue-full"
        case .unavailable: "store-unavailable"
        }
    }

    public var description: String {
        switch reason {
        case .notFound(let ticket): "There is no item \(ticket) in this session."
        case .gone(let ticket, let state): "The item \(ticket) is \(state.rawValue)."
        case .queueFull(let limit): "This session already holds \(limit) items; acknowledge or cancel some first."
        case .unavailable(let failure, _): failure.explanation + (failure == .replaced ? "" : " Try again shortly.")
        }
    }
}
