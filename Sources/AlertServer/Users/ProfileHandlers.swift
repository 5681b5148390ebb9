import AlertQueue
import AlertSpec
import MicroHTTP

/// Pacing profiles (`SessionProfile`): a session's (`PUT`/`GET /v1/sessions/{session}/profile`,
/// the admin or that session's token) and a user's (`PUT`/`GET /v1/users/{user}/profile`, the
/// admin), kept by the store (`ProfileStore`). A `PUT` replaces the profile, wakes the waiting
/// polls of the sessions it applies to, and answers it; a profile with no member is none, `{}`.
struct ProfileHandlers: Sendable {
    let store: any QueueStore
    let access: Access
    let polls: LongPolls

    init(queue: QueueServices) {
        self.store = queue.store
        self.access = queue.access
        self.polls = queue.polls
    }

    func register(in router: inout Router) {
        let handlers = self
        router.addAsync("PUT", "/v1/sessions/{session}/profile") { try await handlers.put($0, for: handlers.sessionOwner($0)) }
        router.addAsync("GET", "/v1/sessions/{session}/profile") { try await handlers.get($0, of: handlers.sessionOwner($0)) }
        router.addAsync("PUT", "/v1/users/{user}/profile") { try await handlers.put($0, for: handlers.userOwner($0)) }
        router.addAsync("GET", "/v1/users/{user}/profile") { try await handlers.get($0, of: handlers.userOwner($0)) }
    }

    /// The session of the path, once the caller may act for it: the admin or its own token.
    private func sessionOwner(_ request: Request) throws -> ProfileOwner {
        let session = try QueueHandlers.session(of: request)
        try access.requireSession(session, request, adminAllowed: true)
        return .session(session)
    }

    /// The user of the path, once the caller is the admin.
    private func userOwner(_ request: Request) throws -> ProfileOwner {
        let user = try RegistryInput.pathUser(of: request)
        try access.requireAdmin(request)
        return .user(user)
    }

    private func put(_ request: Request, for owner: ProfileOwner) async throws -> any ResponseGenerator {
        let object = try JSONBody.object(request.http.body, notAnObject: "The body must be a profile: a JSON object.")
        let profile = try Self.read(.object(object), at: "")
        try await store.setProfile(profile, for: owner)
        try await wake(under: owner)
        return uncached(profile)
    }

    /// Wakes this instance's waiting polls of the sessions the profile applies to: one that
    /// loosens may let a waiting item through.
    private func wake(under owner: ProfileOwner) async throws {
        switch owner {
        case .session(let session): polls.notify(session)
        case .user(let user): for known in try await store.sessions(ofUser: user) { polls.notify(known.session) }
        }
    }

    private func get(_ request: Request, of owner: ProfileOwner) async throws -> any ResponseGenerator {
        uncached(try await store.profile(of: owner) ?? .none)
    }

    /// The profile `json` gives, or 422 with every problem, each under `pointer`.
    static func read(_ json: JSON, at pointer: String) throws -> SessionProfile {
        var issues: [SpecIssue] = []
        guard let profile = SessionProfile(json: json, at: pointer, issues: &issues) else {
            throw APIError.invalidRequest(issues)
        }
        return profile
    }
}
