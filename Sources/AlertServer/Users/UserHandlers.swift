import AlertQueue
import AlertSpec
import Foundation
import MicroHTTP

/// The session registry's admin calls: a session's user (`PUT`/`DELETE …/user`), its topics
/// (`PUT …/topics`), and a user's sessions (`GET /v1/users/{user}/sessions`). The token call
/// registers too (`QueueHandlers.token`); a session's own calls mark it seen (`SeenSessions`).
struct UserHandlers: Sendable {
    let store: any QueueStore
    let access: Access
    let seen: SeenSessions
    let clock: any AlertClock

    init(queue: QueueServices) {
        self.store = queue.store
        self.access = queue.access
        self.seen = queue.seen
        self.clock = queue.clock
    }

    func register(in router: inout Router) {
        let handlers = self
        router.addAsync("PUT", "/v1/sessions/{session}/user") { try await handlers.setUser($0) }
        router.addAsync("DELETE", "/v1/sessions/{session}/user") { try await handlers.detachUser($0) }
        router.addAsync("PUT", "/v1/sessions/{session}/topics") { try await handlers.setTopics($0) }
        router.addAsync("GET", "/v1/users/{user}/sessions") { try await handlers.sessions($0) }
    }

    func setUser(_ request: Request) async throws -> any ResponseGenerator {
        let session = try QueueHandlers.session(of: request)
        try access.requireAdmin(request)
        let user = try Self.required("user", of: request, RegistryInput.user)
        let known = try await store.setUser(session: session, user: user, now: clock.now())
        return uncached(SessionUser(session: session, user: known.user))
    }

    func detachUser(_ request: Request) async throws -> any ResponseGenerator {
        let session = try QueueHandlers.session(of: request)
        try access.requireAdmin(request)
        _ = try JSONBody.read(request, members: [])
        let known = try await store.setUser(session: session, user: nil, now: clock.now())
        return uncached(SessionUser(session: session, user: known.user))
    }

    func setTopics(_ request: Request) async throws -> any ResponseGenerator {
        let session = try QueueHandlers.session(of: request)
        try access.requireAdmin(request)
        let topics = try Self.required("topics", of: request, RegistryInput.topics)
        let known = try await store.setTopics(session: session, topics: topics, now: clock.now())
        return uncached(SessionTopics(session: session, topics: known.topics))
    }

    /// The user's sessions, most recently seen first, each seen as late as this instance knows
    /// (its unflushed times merged).
    func sessions(_ request: Request) async throws -> any ResponseGenerator {
        let user = try RegistryInput.pathUser(of: request)
        try access.requireAdmin(request)
        let known = try await store.sessions(ofUser: user).map { known in
            (known, seen.lastSeen(known.session, stored: known.lastSeen))
        }
        let sorted = known.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0.session < $1.0.session }
        return uncached(
            UserSessions(
                user: user,
                sessions: sorted.map { UserSessions.Entry(session: $0.session, lastSeen: $1.formatted(.iso8601), topics: $0.topics) }))
    }

    /// The body's one member `name`, as `read` reads it: 422 with `read`'s issues, or with
    /// `missing-field` when the body, or the member, is absent or null.
    private static func required<Value>(
        _ name: String, of request: Request, _ read: ([String: JSON], inout [SpecIssue]) -> Value?
    ) throws -> Value {
        let members = try JSONBody.read(request, members: [name])?.members ?? [:]
        var issues: [SpecIssue] = []
        let value = read(members, &issues)
        if issues.isEmpty, value == nil { issues.append(RegistryInput.required(name)) }
        guard let value, issues.isEmpty else { throw APIError.invalidRequest(issues) }
        return value
    }
}

/// `{"session","user"}`, the user written as null once detached.
struct SessionUser: Encodable {
    var session: String
    var user: String?

    enum CodingKeys: CodingKey { case session, user }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(session, forKey: .session)
        try container.encode(user, forKey: .user)
    }
}

struct SessionTopics: Encodable {
    var session: String
    var topics: [String]
}

struct UserSessions: Encodable {
    struct Entry: Encodable {
        var session: String
        var lastSeen: String
        var topics: [String]
    }

    var user: String
    var sessions: [Entry]
}
