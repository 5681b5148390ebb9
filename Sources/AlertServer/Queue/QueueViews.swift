import AlertQueue
import AlertSpec
import Foundation
import MicroHTTP

/// A queue item as `GET …/queue` lists it, and `GET …/queue/{ticket}` shows it.
struct ItemView: Encodable {
    var ticket: String
    /// `catalog/type`, or nil for an ad-hoc spec.
    var alert: String?
    var dedupeKey: String
    var priority: Int
    var lane: Lane
    var state: ItemState
    var enqueuedAt: String
    var expiresAt: String?
    var deliveries: Int
    /// What the user typed, given with the ack of a done item; absent otherwise.
    var input: String?

    init(_ item: QueueItem) {
        ticket = item.ticket
        if case .alert(let id, _) = item.content { alert = id }
        dedupeKey = item.dedupeKey
        priority = item.priority
        lane = item.lane
        state = item.state
        enqueuedAt = item.enqueuedAt.formatted(.iso8601)
        expiresAt = item.expiresAt?.formatted(.iso8601)
        deliveries = item.deliveries
        input = item.input
    }
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

struct Delivery: Encodable, JSONObjectWritable {
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
}
