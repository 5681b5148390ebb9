import AlertSpec
import Foundation

/// A campaign's template and audience as every store keeps them: JSON text, the same in SQLite
/// and PostgreSQL. The content inside is `StoredContent`'s.
public enum StoredCampaign {
    private struct Template: Codable {
        var content: String
        var priority: Int
        var lane: String
        var dedupeKey: String
        var ttl: Double?
        /// Seconds since 1970.
        var notBefore: Double?
        /// Absent in templates stored without a rule.
        var pacing: Pacing?
    }

    private struct Members: Codable {
        var sessions: [String]?
        var users: [String]?
        var topic: String?
        var seenWithin: Double?
    }

    public static func json(template item: NewItem, now: Date) throws -> String {
        let template = Template(
            content: try StoredContent.json(item.content), priority: item.priority, lane: item.lane.rawValue, dedupeKey: item.dedupeKey,
            ttl: item.ttl, notBefore: item.notBefore?.resolved(now: now)?.timeIntervalSince1970,
            pacing: item.pacing.isNone ? nil : item.pacing)
        return String(decoding: try encoder.encode(template), as: UTF8.self)
    }

    /// The template as stored; a copy's schedule is the time resolved when the campaign was made.
    public static func template(json: String) throws -> NewItem {
        let template = try JSONDecoder().decode(Template.self, from: Data(json.utf8))
        guard let lane = Lane(rawValue: template.lane) else { throw UnreadableContent(reason: "a campaign's lane \(template.lane)") }
        return NewItem(
            session: "", content: try StoredContent.content(json: template.content), priority: template.priority, lane: lane,
            dedupeKey: template.dedupeKey, ttl: template.ttl, onDuplicate: .keep, origin: .campaign,
            notBefore: template.notBefore.map { .at(Date(timeIntervalSince1970: $0)) }, pacing: template.pacing ?? Pacing.none)
    }

    public static func json(audience: Audience) throws -> String {
        let members: Members =
            switch audience {
            case .sessions(let sessions): Members(sessions: sessions)
            case .users(let users): Members(users: users)
            case .topic(let topic): Members(topic: topic)
            case .seenWithin(let seconds): Members(seenWithin: seconds)
            }
        return String(decoding: try encoder.encode(members), as: UTF8.self)
    }

    public static func audience(json: String) throws -> Audience {
        let members = try JSONDecoder().decode(Members.self, from: Data(json.utf8))
        if let sessions = members.sessions { return .sessions(sessions) }
        if let users = members.users { return .users(users) }
        if let topic = members.topic { return .topic(topic) }
        if let seconds = members.seenWithin { return .seenWithin(seconds: seconds) }
        throw UnreadableContent(reason: "a campaign's audience names no one")
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()
}
