import AlertQueue
import AlertSpec
import Foundation
import MicroHTTP

/// `POST /v1/users/{user}/queue` (admin): the same body as a session's enqueue, plus `reach`:
/// `once` (the default) queues a copy on each of the user's sessions as one group, any device
/// presenting it until one answers, whose ack takes the others back; `every-device` queues
/// independent copies. All copies are queued in one step. A user with no session is 404.
struct UserQueueHandlers: Sendable {
    let catalogs: CurrentCatalogs
    let queue: QueueServices
    let metrics: ServiceMetrics

    enum Reach: String {
        case once
        case everyDevice = "every-device"
    }

    func register(in router: inout Router) {
        let handlers = self
        router.addAsync("POST", "/v1/users/{user}/queue") { try await handlers.enqueue($0) }
    }

    func enqueue(_ request: Request) async throws -> any ResponseGenerator {
        let user = try RegistryInput.pathUser(of: request)
        try queue.access.requireAdmin(request)
        let now = queue.clock.now()
        var reach = Reach.once
        let template = try EnqueueRequest.item(
            session: "", body: request.http.body, alerts: catalogs.now.alerts, now: now, extraMembers: ["reach"]
        ) { object, issues in
            guard let given = JSONBody.member("reach", of: object, "a string", \.string, issues: &issues) else { return }
            guard let known = Reach(rawValue: given) else {
                issues.append(SpecIssue(pointer: "/reach", code: "invalid-value", message: "reach is \"once\" or \"every-device\"."))
                return
            }
            reach = known
        }
        let sessions = try await queue.store.sessions(ofUser: user).map(\.session)
        guard !sessions.isEmpty else { throw APIError.notFound("The user \(user) has no session.") }
        let group = reach == .once ? "g_" + QueueTicket.make(at: now) : nil
        let copies = sessions.map { session in
            var copy = template
            copy.session = session
            copy.group = group
            return copy
        }
        let results = try await queue.store.enqueue(copies: copies, now: now)
        var answer = UserEnqueued(user: user, reach: reach.rawValue, group: group, copies: [], refused: [])
        for (session, result) in zip(sessions, results) {
            switch result {
            case .success(let queued):
                answer.copies.append(.init(
                    session: session, ticket: queued.item.ticket, position: queued.position, duplicate: !queued.created,
                    refreshed: queued.refreshed))
                if queued.created {
                    metrics.enqueued()
                    queue.polls.notify(session)
                }
            case .failure(let error):
                answer.refused.append(.init(session: session, code: error.code))
            }
        }
        if answer.copies.isEmpty { throw APIError(QueueError.queueFull(limit: queue.settings.maxQueueLength)) }
        return uncached(answer, status: answer.copies.contains { !$0.duplicate } ? 201 : 200)
    }
}

/// The answer of a user enqueue: the group (for `once`), each session's copy, and the sessions
/// whose queue was full.
struct UserEnqueued: Encodable {
    struct Copy: Encodable {
        var session: String
        var ticket: String
        var position: Int
        var duplicate: Bool
        var refreshed: Bool
    }

    struct Refused: Encodable {
        var session: String
        var code: String
    }

    var user: String
    var reach: String
    var group: String?
    var copies: [Copy]
    var refused: [Refused]
}
