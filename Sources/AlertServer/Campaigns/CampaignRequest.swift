import AlertQueue
import AlertSpec
import Foundation

/// `POST /v1/campaigns`: an enqueue body (`EnqueueRequest`: the alert or spec, params,
/// priority, TTL, dedupe key, `notBefore`) with an `audience`, exactly one of
/// `{"sessions": […]}`, `{"users": […]}`, `{"topic": "…"}` or `{"seenWithin": "30d"}`, and an
/// optional `id` (made up when absent; a retry with the same id is refused with 409, not run twice).
enum CampaignRequest {
    /// The most sessions or users an audience may name (a larger one is a topic).
    static let maxListed = 10_000
    /// The longest `seenWithin`: a year.
    static let maxSeenWithin = 366.0 * 86_400

    static func campaign(body: [UInt8], alerts: RenderedAlerts, now: Date) throws -> Campaign {
        var audience: Audience?
        var id: String?
        let template = try EnqueueRequest.item(
            session: "", body: body, alerts: alerts, now: now, extraMembers: ["audience", "id"]
        ) { object, issues in
            audience = Self.audience(object["audience"], now: now, issues: &issues)
            id = Self.id(object["id"], issues: &issues)
        }
        // Reading the audience reported why it has none, and the enqueue's read threw with it.
        guard let audience else { throw APIError.invalidRequest([SpecIssue(pointer: "/audience", code: "missing-field", message: "The audience is required.")]) }
        var copy = template
        copy.onDuplicate = .keep
        copy.origin = .campaign
        return Campaign(id: id ?? "c_" + QueueTicket.make(at: now), template: copy, audience: audience, createdAt: now)
    }

    private static func id(_ value: JSON?, issues: inout [SpecIssue]) -> String? {
        guard let value, !value.isNull else { return nil }
        guard let id = value.string, SessionTokens.isSessionID(id) else {
            issues.append(SpecIssue(pointer: "/id", code: "invalid-value", message: "A campaign id has 1 to 128 letters, digits, '.', '_', '-' or ':'."))
            return nil
        }
        return id
    }

    private static func audience(_ value: JSON?, now: Date, issues: inout [SpecIssue]) -> Audience? {
        let shape = "The audience is an object with one of sessions, users, topic or seenWithin."
        guard let members = value?.object, members.count == 1, let (name, member) = members.first else {
            issues.append(SpecIssue(pointer: "/audience", code: value == nil ? "missing-field" : "invalid-value", message: shape))
            return nil
        }
        let pointer = "/audience/" + name
        switch name {
        case "sessions", "users":
            guard let list = member.array, !list.isEmpty, list.count <= maxListed else {
                issues.append(SpecIssue(pointer: pointer, code: "invalid-value", message: "\(name) is a list of 1 to \(maxListed) ids."))
                return nil
            }
            var ids: [String] = []
            var seen: Set<String> = []
            for (index, element) in list.enumerated() {
                guard let id = element.string, name == "sessions" ? SessionTokens.isSessionID(id) : RegistryInput.isUserID(id) else {
                    issues.append(SpecIssue(pointer: "\(pointer)/\(index)", code: "invalid-value", message: "Not a valid id."))
                    continue
                }
                if seen.insert(id).inserted { ids.append(id) }
            }
            return name == "sessions" ? .sessions(ids) : .users(ids)
        case "topic":
            guard let topic = member.string, RegistryInput.isTopic(topic) else {
                issues.append(SpecIssue(pointer: pointer, code: "invalid-value", message: "Not a valid topic."))
                return nil
            }
            return .topic(topic)
        case "seenWithin":
            guard let seconds = duration(member), seconds > 0, seconds <= maxSeenWithin else {
                issues.append(SpecIssue(
                    pointer: pointer, code: "invalid-value",
                    message: "seenWithin is a duration such as \"30d\", \"12h\" or \"90m\" (or seconds), at most 366 days."))
                return nil
            }
            return .seenWithin(seconds: seconds)
        default:
            issues.append(SpecIssue(pointer: pointer, code: "unknown-field", message: shape))
            return nil
        }
    }

    /// `"30d"`, `"12h"`, `"90m"`, `"45s"` (a `Period`) or a number of seconds.
    static func duration(_ value: JSON) -> Double? {
        if let seconds = value.number { return seconds.isFinite ? seconds : nil }
        return value.string.flatMap(Period.init).map { Double($0.seconds) }
    }
}
