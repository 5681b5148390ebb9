import AlertQueue
import AlertSpec
import Foundation
import MicroHTTP

extension QueueHandlers {
    /// `POST /v1/sessions/{session}/token`: the admin issues a session token, and registers the
    /// session (`SessionDirectory.register`): created when new, its user and topics set when
    /// given, seen now; its pacing profile replaced when given (`ProfileStore`). The answer says
    /// the session's user and topics as registered.
    func token(_ request: Request) async throws -> any ResponseGenerator {
        let session = try Self.session(of: request)
        try access.requireAdmin(request)
        let (lifetime, user, topics, profile) = try Self.tokenBody(request)
        let now = clock.now()
        let known = try await store.register(session: session, user: user, topics: topics, now: now)
        if let profile {
            try await store.setProfile(profile, for: .session(session))
            polls.notify(session)
        }
        let (token, expiry) = access.tokens.issue(session: session, lifetime: lifetime, now: now)
        return uncached(
            IssuedToken(session: session, token: token, expiresAt: expiry.formatted(.iso8601), user: known.user, topics: known.topics),
            status: 201)
    }

    /// The token body's `ttl` (the default lifetime when absent), `user`, `topics` and `profile`
    /// (nil when absent): 422 with every problem.
    private static func tokenBody(
        _ request: Request
    ) throws -> (lifetime: Double, user: String?, topics: [String]?, profile: SessionProfile?) {
        guard let body = try JSONBody.read(request, members: ["ttl", "user", "topics", "profile"]) else {
            return (SessionTokens.defaultLifetime, nil, nil, nil)
        }
        var issues: [SpecIssue] = []
        var lifetime = SessionTokens.defaultLifetime
        if let ttl = JSONBody.member("ttl", of: body.members, "a number", \.number, issues: &issues) {
            let range = SessionTokens.lifetimes
            if range.contains(ttl) {
                lifetime = ttl
            } else {
                issues.append(
                    SpecIssue(
                        pointer: "/ttl", code: "out-of-range",
                        message: "ttl is seconds from \(Int(range.lowerBound)) to \(Int(range.upperBound))."))
            }
        }
        let user = RegistryInput.user(in: body.members, issues: &issues)
        let topics = RegistryInput.topics(in: body.members, issues: &issues)
        let profile = body.members["profile"].flatMap { $0.isNull ? nil : SessionProfile(json: $0, at: "/profile", issues: &issues) }
        if !issues.isEmpty { throw APIError.invalidRequest(issues) }
        return (lifetime, user, topics, profile)
    }
}
