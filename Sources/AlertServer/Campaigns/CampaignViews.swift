import AlertQueue
import AlertSpec
import Foundation

/// A campaign as the API shows it: what it queues, to whom, where its fan-out is, and (for one
/// campaign) what became of its copies.
struct CampaignView: Encodable {
    struct Progress: Encodable {
        var queued: Int
        var presenting: Int
        var delivered: Int
        var answered: Int
        var actions: [String: Int]
        var expired: Int
        var withdrawn: Int
        var cancelled: Int
        var dead: Int
    }

    struct AudienceView: Encodable {
        var sessions: Int?
        var users: [String]?
        var topic: String?
        var seenWithin: Double?
    }

    var id: String
    var state: String
    var alert: String?
    var kind: String?
    var priority: Int
    var ttl: Double?
    var notBefore: String?
    var audience: AudienceView
    var createdAt: String
    var finishedAt: String?
    var targeted: Int
    var queued: Int
    var duplicates: Int
    var refused: Int
    var progress: Progress?

    init(_ campaign: Campaign, progress: CampaignProgress?) {
        id = campaign.id
        state = campaign.state.rawValue
        switch campaign.template.content {
        case .alert(let id, _): alert = id
        case .spec(let draft): kind = draft.kind.rawValue
        }
        priority = campaign.template.priority
        ttl = campaign.template.ttl
        notBefore = campaign.template.notBefore?.resolved(now: campaign.createdAt)?.formatted(.iso8601)
        audience =
            switch campaign.audience {
            case .sessions(let sessions): AudienceView(sessions: sessions.count)
            case .users(let users): AudienceView(users: users)
            case .topic(let topic): AudienceView(topic: topic)
            case .seenWithin(let seconds): AudienceView(seenWithin: seconds)
            }
        createdAt = campaign.createdAt.formatted(.iso8601)
        finishedAt = campaign.finishedAt?.formatted(.iso8601)
        (targeted, queued, duplicates, refused) = (campaign.targeted, campaign.queued, campaign.duplicates, campaign.refused)
        self.progress = progress.map {
            Progress(
                queued: $0.queued, presenting: $0.presenting, delivered: $0.delivered, answered: $0.answered, actions: $0.actions,
                expired: $0.expired, withdrawn: $0.withdrawn, cancelled: $0.cancelled, dead: $0.dead)
        }
    }
}

struct CampaignList: Encodable {
    var campaigns: [CampaignView]
    /// The id to pass as `before` for the next page; absent on the last.
    var next: String?
}

struct CampaignRecalled: Encodable {
    var id: String
    var cancelled: Int
    var withdrawn: Int
}
