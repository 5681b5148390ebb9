import AlertCatalogs
import AlertQueue
import AlertSpec
import Foundation
import MicroHTTP

/// The session queue API: tokens, enqueue, list, cancel, long-poll `next`, ack, hold, explain,
/// erase, and the event feed.
///
/// A class: a waiting long-poll's closure keeps a reference to it, not a copy of its fields
/// (200 of the 425 bytes each such closure took, with 10,000 polls waiting).
final class QueueHandlers: Sendable {
    /// The catalogs' renderings, read once per use: an item is rendered with the catalogs
    /// served when it is delivered.
    let catalogs: CurrentCatalogs
    var alerts: RenderedAlerts { catalogs.now.alerts }
    let store: any QueueStore
    let access: Access
    let polls: LongPolls
    /// An enqueue's hand-over to a poll that waits for it.
    let handoff: PollHandoff
    let settings: QueueSettings
    /// What every reading of the time here goes through.
    let clock: any AlertClock
    /// Counts enqueues, deliveries and acks.
    let metrics: ServiceMetrics

    init(catalogs: CurrentCatalogs, queue: QueueServices, metrics: ServiceMetrics) {
        self.catalogs = catalogs
        self.store = queue.store
        self.access = queue.access
        self.polls = queue.polls
        self.handoff = PollHandoff(store: queue.store, polls: queue.polls)
        self.settings = queue.settings
        self.clock = queue.clock
        self.metrics = metrics
    }

    /// The longest long-poll, in seconds.
    static let maxWait = 30

    func register(in router: inout Router) {
        let handlers = self
        router.addAsync("POST", "/v1/sessions/{session}/token") { try await handlers.token($0) }
        router.addAsync("POST", "/v1/sessions/{session}/queue") { try await handlers.enqueue($0) }
        router.addAsync("GET", "/v1/sessions/{session}/queue") { try await handlers.list($0) }
        router.addAsync("DELETE", "/v1/sessions/{session}/queue") { try await handlers.cancel($0) }
        router.addAsync("GET", "/v1/sessions/{session}/queue/{ticket}") { try await handlers.item($0) }
        router.addAsync("GET", "/v1/sessions/{session}/history") { try await handlers.history($0) }
        router.addAsync("DELETE", "/v1/sessions/{session}/queue/{ticket}") { try await handlers.cancel($0) }
        router.addAsync("GET", "/v1/sessions/{session}/explain") { try await handlers.explain($0) }
        router.addAsync("GET", "/v1/sessions/{session}/next", answersHead: false) { try await handlers.next($0) }
        router.addAsync("POST", "/v1/sessions/{session}/queue/{ticket}/ack") { try await handlers.ack($0) }
        router.addAsync("PUT", "/v1/sessions/{session}/hold") { try await handlers.hold($0) }
        router.addAsync("DELETE", "/v1/sessions/{session}/hold") { try await handlers.release($0) }
        router.addAsync("DELETE", "/v1/sessions/{session}") { try await handlers.erase($0) }
        router.addAsync("GET", "/v1/events") { try await handlers.events($0) }
    }

    /// The session of the path: 1 to 128 letters, digits, `.`, `_`, `-` or `:`.
    static func session(of request: Request) throws -> String {
        let session = request.path("session")
        guard SessionTokens.isSessionID(session)
        else { throw APIError.badRequest("A session id has 1 to 128 letters, digits, '.', '_', '-' or ':'.") }
        return session
    }

    func enqueue(_ request: Request) async throws -> any ResponseGenerator {
        let session = try Self.session(of: request)
        try access.requireAdmin(request)
        let now = clock.now()
        let item = try EnqueueRequest.item(session: session, body: request.http.body, alerts: alerts, now: now)
        let result = try await handoff.enqueue(item, now: now)
        if result.created { metrics.enqueued() }
        return uncached(
            Enqueued(ticket: result.item.ticket, position: result.position, duplicate: !result.created, refreshed: result.refreshed),
            status: result.created ? 201 : 200)
    }

    func list(_ request: Request) async throws -> any ResponseGenerator {
        let session = try Self.session(of: request)
        try access.requireSession(session, request, adminAllowed: true)
        let items = try await store.items(session: session, now: clock.now())
        return uncached(QueueList(session: session, items: items.map(ItemView.init)))
    }

    func cancel(_ request: Request) async throws -> any ResponseGenerator {
        let session = try Self.session(of: request)
        try access.requireAdmin(request)
        let ticket = request.pathParameters["ticket"]
        let count = try await store.cancel(session: session, ticket: ticket, by: .admin, now: clock.now())
        polls.notify(session)
        return uncached(Cancelled(cancelled: count))
    }

    /// The next item in the client's language, waiting up to `wait` seconds for one.
    func next(_ request: Request) async throws -> any ResponseGenerator {
        let (session, wait) = try nextRequest(request)
        return try await next(request, session: session, deadline: clock.now().addingTimeInterval(Double(wait)))
    }

    /// One look at the session's queue: the item, 204 at the deadline, or a wait for a change.
    ///
    /// A waiting poll is parked in `polls` as a closure, with no task: the next look runs in a
    /// new task when the session changes or the deadline comes. A change starts that task on the
    /// notifying thread (`Task.immediate`): the ack, cancel or release that wakes a poll runs the
    /// poll's look itself, and at light load answers it without a thread hop. An enqueue needs
    /// no look: it claims the poll and hands it the item (`PollHandoff`), rendered here. The
    /// work around the store calls is done in synchronous helpers, so a look's async frame
    /// stays small.
    private func next(_ request: Request, session: String, deadline: Date) async throws -> any ResponseGenerator {
        let generation = polls.generation(of: session)
        let erasures = polls.erasures(of: session)
        switch try await store.nextDelivery(session: session, now: clock.now()) {
        case .withdraw(let ticket)?:
            return uncached(Withdraw(withdraw: ticket))
        case .item(let item)?:
            polls.feed.notify()  // its `delivered` event
            return try await deliverOrSkip(item, for: request) { try await next(request, session: session, deadline: deadline) }
        case nil:
            break
        }
        let now = clock.now()
        if now >= deadline || polls.isClosed {
            return HTTPResponse(status: 204, headers: ["Cache-Control": "no-store"])
        }
        // A hold that ends or a scheduled item that comes due notifies no one: look again then.
        var wakeUp = deadline
        if let change = try await store.nextTimedChange(session: session, now: now) {
            wakeUp = min(deadline, max(change, now).addingTimeInterval(0.005))
        }
        return PendingResponse { [self, wakeUp] answer in
            polls.park(session: session, since: generation, until: wakeUp) { [self] delivered in
                // Its session was erased: nothing is left to wait for.
                if delivered == nil, polls.erasures(of: session) != erasures {
                    answer(.success(HTTPResponse(status: 204, headers: ["Cache-Control": "no-store"])))
                    return
                }
                if let delivered, let response = try? self.delivery(of: delivered, for: request) {
                    metrics.delivered()
                    answer(.success(response))
                    return
                }
                Task.immediate(executorPreference: HandlerExecutor.shared) {
                    // A handed-over item that cannot be delivered: its own outcome (see deliverOrSkip).
                    if let delivered {
                        answer(await Result(awaiting: {
                            try await self.deliverOrSkip(delivered, for: request) {
                                try await self.next(request, session: session, deadline: deadline)
                            }
                        }))
                        return
                    }
                    answer(await Result(awaiting: { try await self.next(request, session: session, deadline: deadline) }))
                }
            }
        }
    }

    /// `next`'s session and `wait`, checked (the caller may read the session's items).
    @inline(never)
    private func nextRequest(_ request: Request) throws -> (session: String, wait: Int) {
        let session = try Self.session(of: request)
        try access.requireSession(session, request)
        let wait = try request.query("wait").map { text -> Int in
            guard let seconds = Int(text), (0...Self.maxWait).contains(seconds) else {
                throw APIError.badRequest("wait is whole seconds from 0 to \(Self.maxWait).")
            }
            return seconds
        } ?? 0
        _ = try ClientAsk.of(request)  // locale, platform, device: a bad request before anything is delivered
        return (session, wait)
    }

    /// The delivered item, rendered in the client's language.
    @inline(never)
    func delivery(of item: QueueItem, for request: Request) throws -> HTTPResponse {
        let shown = try ItemRendering.rendering(of: item, asked: try ClientAsk.of(request), alerts: alerts)
        var response = try uncached(DeliveredItem(ticket: item.ticket, spec: EncodedJSON(shown.json.array), deliveries: item.deliveries))
            .response(for: request)
        response.headers.set("Content-Language", shown.spec.locale)
        response.headers.set("Vary", "Accept-Language")
        return response
    }

    func ack(_ request: Request) async throws -> any ResponseGenerator {
        let session = try Self.session(of: request)
        try access.requireSession(session, request)
        let ticket = request.path("ticket")
        let body = try JSONBody.read(request, members: ["action", "input"])
        let (actionID, input) = (try body?.string("action"), try body?.string("input"))
        // The action's chain is found, and the input checked against the alert's field, inside
        // the ack's step, from the item it loads: one read. The input is never logged.
        let done = try await store.acknowledge(session: session, ticket: ticket, input: input, now: clock.now()) { [alerts] item in
            if let input { try AckInput.check(input, against: ItemRendering.rendering(of: item, alerts: alerts).spec) }
            let chain = try actionID.flatMap { try ItemRendering.chain(of: item, action: $0, alerts: alerts) }
            let role = actionID.flatMap { ItemRendering.role(of: item, action: $0, alerts: alerts) }
            return AckAnswer(chain: chain, action: actionID, role: role)
        }
        metrics.acknowledged()
        polls.notify(session)
        // The group's copies it took back: their sessions' polls hand out the withdraws.
        for other in Set(done.takenBack.map(\.session)) where other != session { polls.notify(other) }
        // The chained alert, or the live one it was a duplicate of.
        return uncached(Acknowledged(ticket: done.item.ticket, state: done.item.state, chained: done.chained?.ticket))
    }

    func hold(_ request: Request) async throws -> any ResponseGenerator {
        let session = try Self.session(of: request)
        try access.requireSession(session, request)
        var seconds = settings.defaultHold
        if let given = try JSONBody.read(request, members: ["seconds"])?.number("seconds") {
            guard given > 0, given <= settings.maxHold else {
                throw APIError.invalidRequest([
                    SpecIssue(pointer: "/seconds", code: "out-of-range", message: "seconds is more than 0 and at most \(Int(settings.maxHold)).")
                ])
            }
            seconds = given
        }
        let until = clock.now().addingTimeInterval(seconds)
        try await store.hold(session: session, until: until)
        return uncached(Held(session: session, until: until.formatted(.iso8601)))
    }

    func release(_ request: Request) async throws -> any ResponseGenerator {
        let session = try Self.session(of: request)
        try access.requireSession(session, request)
        try await store.hold(session: session, until: nil)
        polls.notify(session)
        return uncached(Held(session: session, until: nil))
    }
}
