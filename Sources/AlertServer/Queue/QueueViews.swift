import AlertQueue
import AlertSpec
import Foundation
import MicroHTTP

/// A queue item as `GET …/queue` and `GET …/history` list it, and `GET …/queue/{ticket}` shows
/// it (there with its timeline): as its sender would recognise it.
struct ItemView: Encodable {
    var ticket: String
    /// `catalog/type` and its parameters; absent for an ad-hoc spec.
    var alert: String?
    var params: [String: ParameterValue]?
    /// An ad-hoc spec's kind and title (its first page's for a card, its text for a HUD).
    var kind: AlertKind?
    var title: String?
    /// The `dedupeKey` as the enqueue gave it; absent when none was given.
    var dedupeKey: String?
    var priority: Int
    var lane: Lane
    var state: ItemState
    var enqueuedAt: String
    /// A scheduled item: not delivered before this; absent when it was deliverable at once.
    var notBefore: String?
    var expiresAt: String?
    var deliveries: Int
    /// What the user typed, given with the ack of a done item; absent otherwise.
    var input: String?
    /// The item's events, oldest first: only in the view of one item.
    var timeline: [EventView]?

    init(_ item: QueueItem) {
        ticket = item.ticket
        switch item.content {
        case .alert(let id, let parameters):
            alert = id
            params = parameters
        case .spec(let draft):
            kind = draft.kind
            title = Self.title(of: draft)
        }
        // The server keys a given dedupeKey as `key:<given>`; its own keys (`alert:`, `spec:`) were not given.
        if item.dedupeKey.hasPrefix("key:") { dedupeKey = String(item.dedupeKey.dropFirst(4)) }
        priority = item.priority
        lane = item.lane
        state = item.state
        enqueuedAt = item.enqueuedAt.formatted(.iso8601)
        notBefore = item.notBefore?.formatted(.iso8601)
        expiresAt = item.expiresAt?.formatted(.iso8601)
        deliveries = item.deliveries
        input = item.input
    }

    private static func title(of draft: SpecDraft) -> String? {
        switch draft.body {
        case .alert(let dialog): dialog.title
        case .sheet(let sheet): sheet.title
        case .card(let card): card.pages.first?.title
        case .hud(let hud): hud.text
        case .toast: nil
        }
    }
}

/// One event of an item's timeline.
struct EventView: Encodable {
    /// Increasing across the store.
    var id: Int
    var type: ItemEvent.Kind
    var at: String
    var detail: [String: ParameterValue]

    init(_ stored: StoredEvent) {
        id = Int(stored.id)
        type = stored.event.kind
        at = ItemEvent.timeText(stored.event.at)
        detail = stored.event.detail
    }
}

/// A page of a session's finished items, newest first; `next` is the cursor of the page after.
struct History: Encodable {
    var session: String
    var items: [ItemView]
    var next: String?
}

/// Queue answers are about one session at one moment: never cached.
func uncached<Value: Encodable>(_ value: Value, status: Int = 200) -> JSONResponse<Value> {
    JSONResponse(value, status: status, headers: ["Cache-Control": "no-store"])
}

struct QueueList: Encodable {
    var session: String
    var items: [ItemView]
}

// The answers of enqueue, next and ack, the queue's busiest, also write themselves
// (`JSONObjectWritable`): the same bytes as their `Encodable` form (QueueViewEncodingTests),
// without the `Encoder` protocol's boxes, into a buffer their size.

struct Enqueued: Encodable, JSONObjectWritable {
    var ticket: String
    var position: Int
    var duplicate: Bool
    /// A duplicate brought up to date (`onDuplicate: refresh`, still queued); false otherwise.
    var refreshed: Bool

    func writeJSONMembers(to output: inout JSONOutput) {
        output.member("ticket", ticket)
        output.member("position", position)
        output.member("duplicate", duplicate)
        output.member("refreshed", refreshed)
    }

    var jsonCapacity: Int { 80 + ticket.utf8.count }
}

/// `next`'s answer of an item to show.
struct DeliveredItem: Encodable, JSONObjectWritable {
    var ticket: String
    /// The rendered `AlertSpec`, encoded once and kept (see `RenderedAlerts`).
    var spec: EncodedJSON
    var deliveries: Int

    func writeJSONMembers(to output: inout JSONOutput) {
        output.member("ticket", ticket)
        output.key("spec")
        output.write(spec)
        output.member("deliveries", deliveries)
    }

    var jsonCapacity: Int { 64 + ticket.utf8.count + spec.bytes.count }
}

/// `next`'s answer of an item to take off the screen: taken back since it was delivered.
struct Withdraw: Encodable, JSONObjectWritable {
    var withdraw: String

    func writeJSONMembers(to output: inout JSONOutput) {
        output.member("withdraw", withdraw)
    }

    var jsonCapacity: Int { 24 + withdraw.utf8.count }
}

struct Acknowledged: Encodable, JSONObjectWritable {
    var ticket: String
    var state: ItemState
    /// The ticket of the alert a `next` action queued, if any.
    var chained: String?

    func writeJSONMembers(to output: inout JSONOutput) {
        output.member("ticket", ticket)
        output.member("state", state.rawValue)
        output.memberIfPresent("chained", chained)
    }

    var jsonCapacity: Int { 64 + 2 * ticket.utf8.count }
}

struct Cancelled: Encodable {
    var cancelled: Int
}

struct Held: Encodable {
    var session: String
    var until: String?
}

struct IssuedToken: Encodable {
    var session: String
    var token: String
    var expiresAt: String
    /// The session's user; absent when it has none.
    var user: String?
    var topics: [String]
}
