import AlertQueue
import Foundation

/// `GET /v1/events`: every session's events in feed order, for the backend (admin), long-polled
/// like `next` when nothing follows the cursor.
extension QueueHandlers {
    /// The longest page, and the one given without `limit`.
    static let feedLimits = (max: 1_000, default: 100)
    /// After a change that left the page empty (on PostgreSQL a transaction still running holds
    /// events back), the reader reads again after `first`, heeding no change meanwhile (a burst
    /// of writes costs it one read), then on a change or after twice as long each time, up to
    /// `max`: a transaction that ends without a write wakes no one.
    static let feedRetries = (first: 0.025, max: 1.0)

    /// What a feed request asks: from where, how many, until when.
    struct FeedAsk: Sendable {
        var after: EventCursor?
        var limit: Int
        var deadline: Date
    }

    func events(_ request: Request) async throws -> any ResponseGenerator {
        try access.requireAdmin(request)
        let ask = try feedAsk(request)
        return try await readFeed(ask, retry: nil, onChange: true)
    }

    /// `after`, `limit` and `wait`, checked: 400 `invalid-cursor` or `bad-request`.
    private func feedAsk(_ request: Request) throws -> FeedAsk {
        let after = try request.query("after").map { text in
            guard let cursor = EventCursor(text) else {
                throw APIError.invalidCursor("after is a cursor from an earlier answer's next.")
            }
            return cursor
        }
        let limit = try request.query("limit").map { text -> Int in
            guard let limit = Int(text), (1...Self.feedLimits.max).contains(limit) else {
                throw APIError.badRequest("limit is a whole number from 1 to \(Self.feedLimits.max).")
            }
            return limit
        } ?? Self.feedLimits.default
        let wait = try request.query("wait").map { text -> Int in
            guard let seconds = Int(text), (0...Self.maxWait).contains(seconds) else {
                throw APIError.badRequest("wait is whole seconds from 0 to \(Self.maxWait).")
            }
            return seconds
        } ?? 0
        return FeedAsk(after: after, limit: limit, deadline: clock.now().addingTimeInterval(Double(wait)))
    }

    /// One read of the feed: the events, the empty page at the deadline, or a wait for a change.
    /// `retry` is how long to wait before reading again without a change (nil: until the
    /// deadline); `onChange`, whether a change wakes it meanwhile. A parked reader holds no
    /// task: its next read runs when it is woken.
    private func readFeed(_ ask: FeedAsk, retry: TimeInterval?, onChange: Bool) async throws -> any ResponseGenerator {
        let waiters = polls.feed
        let generation = waiters.generation  // before the read: a change in between wakes at once
        let page = try await store.events(after: ask.after, limit: ask.limit)
        let now = clock.now()
        if !page.events.isEmpty || now >= ask.deadline || waiters.isClosed {
            return uncached(FeedPageView(page))
        }
        let until = retry.map { min(ask.deadline, now.addingTimeInterval($0)) } ?? ask.deadline
        return PendingResponse { [self] answer in
            let parked = waiters.park(since: generation, until: until, onChange: onChange) { [self] reason in
                if reason == .closed {
                    answer(.success(uncached(FeedPageView(EventPage(events: [], next: page.next)))))
                    return
                }
                let changed = reason == .changed
                let next = changed ? Self.feedRetries.first : retry.map { min(2 * $0, Self.feedRetries.max) }
                Task.immediate(executorPreference: HandlerExecutor.shared) {
                    answer(await Result(awaiting: { try await self.readFeed(ask, retry: next, onChange: !changed) }))
                }
            }
            if !parked {
                answer(.failure(APIError.busy("\(waiters.limit) readers wait on the event feed already; ask again in a second.")))
            }
        }
    }
}
