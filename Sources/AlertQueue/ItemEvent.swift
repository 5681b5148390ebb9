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
        /// Queued: `by` (`admin`, `session`, `chain` or `campaign`; a chain also names the ticket
        /// acked, `after`), `notBefore` for a scheduled item, `group` and `campaign` for a copy.
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
        /// Cancelled while queued, `by` `admin`, `session`, `undeliverable` (its alert cannot be
        /// rendered any more), `answered` (another copy of its group was answered, `after` that
        /// copy's ticket) or `recall`.
        case cancelled
        /// Taken off the screen while presenting, `by` `answered` (with `after`) or `recall`: the
        /// session's device is told with its next `next` (`Delivery.withdraw`).
        case withdrawn
        /// Delivered `deliveries` times without an ack: dead-lettered.
        case dead
        /// Its pacing `rule` (`limit`, `once` or `min-gap`) did not allow it, and it was dropped
        /// rather than kept waiting (`until`: when the rule would have allowed it): cancelled.
        case capped

        /// Whether the item is finished after it: no event follows one of these.
        public var finishes: Bool {
            switch self {
            case .acknowledged, .superseded, .expired, .cancelled, .withdrawn, .dead, .capped: true
            case .enqueued, .refreshed, .delivered, .requeued: false
            }
        }
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
    /// A campaign's fan-out (`Campaign`).
    case campaign
}

/// Who or what cancelled an item.
public enum CancelCause: String, Sendable, Equatable, CaseIterable {
    case admin
    case session
    /// `next` found that its alert can no longer be rendered.
    case undeliverable
    /// Another copy of its group was answered (`QueueItem.group`).
    case answered
    /// Recalled: its campaign, or its alert everywhere.
    case recall
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

extension Int {
    /// The quotient rounded toward minus infinity.
    fileprivate func floorDivided(by divisor: Int) -> Int {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}

extension ItemEvent {
    /// A time in a timeline: RFC 3339 in UTC, to the millisecond (a step's events share a second),
    /// as Foundation's ISO 8601 style writes it (milliseconds cut, not rounded, from the seconds
    /// since 2001), but by hand: the style took 7,900 instructions a delivery's event, on the
    /// writer's thread.
    public static func timeText(_ date: Date) -> String {
        let sinceReference = date.timeIntervalSinceReferenceDate
        let whole = sinceReference.rounded(.down)
        guard whole.magnitude < 1e15 else { return date.formatted(timeStyle) }
        let milliseconds = Int(((sinceReference - whole) * 1000).rounded(.down))
        let seconds = Int(whole) + 978_307_200
        let (days, second) = (seconds.floorDivided(by: 86_400), seconds - seconds.floorDivided(by: 86_400) * 86_400)
        let (year, month, day) = civil(days: days)
        var bytes = [UInt8](repeating: 0, count: 24)
        func put(_ value: Int, _ digits: Int, at offset: Int) {
            var value = value
            for index in stride(from: offset + digits - 1, through: offset, by: -1) {
                bytes[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
        }
        // Foundation's calendar is Julian before the Gregorian reform.
        guard (1583...9999).contains(year) else { return date.formatted(timeStyle) }
        put(year, 4, at: 0)
        put(month, 2, at: 5)
        put(day, 2, at: 8)
        put(second / 3600, 2, at: 11)
        put(second / 60 % 60, 2, at: 14)
        put(second % 60, 2, at: 17)
        put(milliseconds, 3, at: 20)
        for (offset, character) in [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":"), (19, "."), (23, "Z")] as [(Int, Unicode.Scalar)] {
            bytes[offset] = UInt8(ascii: character)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let timeStyle = Date.ISO8601FormatStyle().year().month().day().time(includingFractionalSeconds: true)
        .timeZone(separator: .omitted)

    /// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    private static func civil(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = z.floorDivided(by: 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The detail as compact JSON text, keys sorted: what the stores keep. Written by hand, not
    /// by `JSONSerialization`, which boxed every value on a path every write takes.
    public var detailJSON: String {
        var output = JSONOutput(capacity: 128)
        output.beginObject()
        // Most details have one member (an enqueue's `by`): nothing to sort.
        let members = detail.count == 1 ? Array(detail) : detail.sorted { $0.key < $1.key }
        for (key, value) in members {
            output.key(key)
            switch value {
            case .integer(let int): output.write(int)
            case .number(let double) where double.isFinite: try? output.write(double)
            case .number: output.writeNull()
            case .string(let string): output.write(string)
            case .boolean(let bool): output.write(bool)
            }
        }
        output.endObject()
        return String(decoding: output.bytes, as: UTF8.self)
    }

    /// A detail read back from `detailJSON`, by `JSON(parsing:)`: `JSONDecoder` took 70% of
    /// the outcome roll-up, which reads every event's detail.
    public static func detail(fromJSON text: String) -> [String: ParameterValue] {
        guard case .object(let members)? = try? JSON(parsing: Array(text.utf8)) else { return [:] }
        return members.compactMapValues(ParameterValue.init(json:))
    }
}
