import AlertQueue
import AlertSpec

/// The registry members of a request body (`user`, `topics`), checked the way every body is:
/// each problem an issue with its pointer, all reported at once.
enum RegistryInput {
    /// The most topics a session joins.
    static let maxTopics = 32
    /// The longest topic, in bytes (all ASCII).
    static let maxTopicLength = 64

    /// Whether `user` is a user id: the rules of session ids (1 to 128 of `A–Z a–z 0–9 . _ : -`).
    static func isUserID(_ user: String) -> Bool {
        SessionTokens.isSessionID(user)
    }

    /// Whether `topic` is 1 to 64 of `A–Z a–z 0–9 . _ : -`.
    static func isTopic(_ topic: String) -> Bool {
        topic.utf8.count <= maxTopicLength && SessionTokens.isSessionID(topic)
    }

    /// What a bad user id is told, in a path or a body.
    static let userIDRule = "A user id has 1 to 128 letters, digits, '.', '_', '-' or ':'."

    /// The path's `{user}`: 400 `bad-request` when it is not a user id.
    static func pathUser(of request: Request) throws -> String {
        let user = request.path("user")
        guard isUserID(user) else { throw APIError.badRequest(userIDRule) }
        return user
    }

    /// The member `user`: nil when absent or null; an issue at `/user` when it is not a user id.
    static func user(in object: [String: JSON], issues: inout [SpecIssue]) -> String? {
        guard let user = JSONBody.member("user", of: object, "a string", \.string, issues: &issues) else { return nil }
        guard isUserID(user) else {
            issues.append(
                SpecIssue(
                    pointer: "/user", code: "invalid-value",
                    message: userIDRule))
            return nil
        }
        return user
    }

    /// The member `topics`, each once, sorted: nil when absent or null; an issue at `/topics`
    /// when it is not a list or lists too many, at `/topics/<i>` for each entry that is not a topic.
    static func topics(in object: [String: JSON], issues: inout [SpecIssue]) -> [String]? {
        guard let list = JSONBody.member("topics", of: object, "a list of strings", \.array, issues: &issues) else { return nil }
        var topics: [String] = []
        var bad = false
        for (index, entry) in list.enumerated() {
            guard let topic = entry.string, isTopic(topic) else {
                bad = true
                issues.append(
                    SpecIssue(
                        pointer: "/topics/\(index)", code: entry.string == nil ? "invalid-type" : "invalid-value",
                        message: "A topic is a string of 1 to \(maxTopicLength) letters, digits, '.', '_', '-' or ':'."))
                continue
            }
            topics.append(topic)
        }
        let distinct = KnownSession.normalizedTopics(topics)
        if distinct.count > maxTopics {
            issues.append(
                SpecIssue(pointer: "/topics", code: "too-many-topics", message: "A session joins at most \(maxTopics) topics."))
            bad = true
        }
        return bad ? nil : distinct
    }

    /// A `missing-field` issue at `/<name>`, for a member a call cannot do without.
    static func required(_ name: String) -> SpecIssue {
        SpecIssue(pointer: "/" + name, code: "missing-field", message: "The field \"\(name)\" is required; null leaves it out.")
    }
}
