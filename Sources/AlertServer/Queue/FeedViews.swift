import AlertQueue
import AlertSpec
import Foundation

/// A page of the event feed (`GET /v1/events`): every session's events after the cursor asked
/// from, and `next`, the cursor to ask from next (the one asked from when the page is empty).
struct FeedPageView: Encodable {
    var events: [FeedEventView]
    var next: String

    init(_ page: EventPage) {
        events = page.events.map(FeedEventView.init)
        next = page.next.description
    }
}

/// One event of the feed: where it is in the feed, whose item it is, and the event as the item's
/// timeline shows it (`EventView`: its `id`, `type`, `at` and `detail`).
struct FeedEventView: Encodable {
    var cursor: String
    var id: Int
    var session: String
    var ticket: String
    var type: ItemEvent.Kind
    var at: String
    /// The item's `catalog/type`; null for an ad-hoc spec (written, not left out).
    var alert: String?
    var detail: [String: ParameterValue]

    init(_ feed: FeedEvent) {
        let shown = EventView(StoredEvent(id: feed.cursor.id, event: feed.event))
        cursor = feed.cursor.description
        id = shown.id
        session = feed.event.session
        ticket = feed.event.ticket
        type = shown.type
        at = shown.at
        alert = feed.alert
        detail = shown.detail
    }

    private enum CodingKeys: String, CodingKey {
        case cursor, id, session, ticket, type, at, alert, detail
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(cursor, forKey: .cursor)
        try container.encode(id, forKey: .id)
        try container.encode(session, forKey: .session)
        try container.encode(ticket, forKey: .ticket)
        try container.encode(type, forKey: .type)
        try container.encode(at, forKey: .at)
        if let alert { try container.encode(alert, forKey: .alert) } else { try container.encodeNil(forKey: .alert) }
        try container.encode(detail, forKey: .detail)
    }
}
