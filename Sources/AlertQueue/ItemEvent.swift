import AlertSpec
import Foundation

/// One step in an item's life, written by the store in the transaction that made the change:
/// the item's timeline, and later a feed of every session's events.
///
/// ```swift
/// let timeline = try await store.timeline(session: "ana", ticket: ticket)
/// // [enqueued {by: admin}, delivered {delivery: 1, leaseUntil: …}, acknowledged {action: "ok", …}]
/// ```
public struct ItemEvent: Sendable, Equatable {
    /// What happened to the item.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// Queued: `by` (`admin`, `session` or `chain`; a chain also names the ticket acked, `after`),
        /// and `notBefore` for a scheduled item.
        case enqueued
        /// A duplicate enqueue brought the queued item up to date (`priority`, `lane`, `expiresAt`,
        /// `notBefore`).
        case refreshed
        /// Delivered: `delivery` (its number) and, but for a HUD, `leaseUntil`.
        case delivered
        /// Its lease ended without an ack and it is queued again (`delivery`, the number that ended).
        case requeued
        /// Acked: `action` and its `role`, `input` (never a secure field's), `onScreen` seconds
        /// since its last delivery.
        case acknowledged
        /// A newer HUD (`by`, its ticket) took the place of this queued HUD: cancelled.
        case superseded
        /// Its TTL passed before it was delivered.
        case expired
        /// Cancelled, `by` `admin`, `session` or `undeliverable` (its alert cannot be rendered any more).
        case cancelled
        /// Delivered `deliveries` times without an ack: dead-lettered.
        case dead
    }

    public var kind: Kind
    public var session: String
    public var ticket: String
    /// The step's `now`: the injected clock's (or the database's, where the store keeps time).
    public var at: Date
    /// A few facts about the event; see `Kind`.
    public var detail: [String: ParameterValue]

    public init(kind: Kind, session: String, ticket: String, at: Date, detail: [String: ParameterValue] = [:]) {
        self.kind = kind
        self.session = session
        self.ticket = ticket
        self.at = at
        self.detail = detail
    }
}

/// An event as stored: `id` increases across the store, a feed's cursor.
public struct StoredEvent: Sendable, Equatable {
    public var id: Int64
    public var event: ItemEvent

    public init(id: Int64, event: ItemEvent) {
        self.id = id
        self.event = event
    }
}

/// Who queued an item.
public enum EnqueueOrigin: String, Sendable, Equatable, CaseIterable {
    /// The backend, with the admin token.
    case admin
    /// The app, with its session token.
    case session
    /// An acked action of type `next`.
    case chain
}

/// Who or what cancelled an item.
public enum CancelCause: String, Sendable, Equatable, CaseIterable {
    case admin
    case session
    /// `next` found that its alert can no longer be rendered.
    case undeliverable
}

/// What an ack's caller answers from the item it loaded (`QueueStore.acknowledge`): the item
/// its action chains, and what the timeline keeps of the action.
public struct AckAnswer: Sendable, Equatable {
    public var chain: NewItem?
    /// The id of the action picked, and its role (`default`, `cancel`, `destructive`, `primary`).
    public var action: String?
    public var role: String?

    public init(chain: NewItem? = nil, action: String? = nil, role: String? = nil) {
        self.chain = chain
        self.action = action
        self.role = role
    }
}

/// A page of a session's finished items, newest first.
public struct HistoryPage: Sendable, Equatable {
    public var items: [QueueItem]
    /// Where the next page starts (pass as `before`), or nil when this was the last.
    public var next: HistoryCursor?

    public init(items: [QueueItem], next: HistoryCursor?) {
        self.items = items
        self.next = next
    }
}

/// A place in a session's history: items enqueued before this sequence.
public struct HistoryCursor: Sendable, Equatable {
    public var sequence: Int64

    public init(sequence: Int64) { self.sequence = sequence }
}

extension ItemEvent {
    /// A time in a timeline: RFC 3339 in UTC, to the millisecond (a step's events share a second).
    public static func timeText(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }

    /// The detail as compact JSON text, keys sorted: what the stores keep. Written by hand, not
    /// by `JSONSerialization`, which boxed every value on a path every write takes.
    public var detailJSON: String {
        var text = "{"
        for (index, key) in detail.keys.sorted().enumerated() {
            if index > 0 { text += "," }
            Self.appendQuoted(key, to: &text)
            text += ":"
            switch detail[key]! {
            case .integer(let int): text += String(int)
            case .number(let double): text += double.isFinite ? "\(double)" : "null"
            case .string(let string): Self.appendQuoted(string, to: &text)
            case .boolean(let bool): text += bool ? "true" : "false"
            }
        }
        return text + "}"
    }

    private static func appendQuoted(_ string: String, to text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20: text += String(format: "\\u%04x", scalar.value)
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    /// A detail read back from `detailJSON`, by `JSON(parsing:)`: `JSONDecoder` took 70% of
    /// the outcome roll-up, which reads every event's detail.
    public static func detail(fromJSON text: String) -> [String: ParameterValue] {
        guard case .object(let members)? = try? JSON(parsing: Array(text.utf8)) else { return [:] }
        return members.compactMapValues(ParameterValue.init(json:))
    }
}
