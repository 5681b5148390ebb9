import Foundation

/// A place in a store's event feed: every event after it is read, none before it. Events come
/// in an order that never lets one slip behind a cursor already handed out, whatever commits
/// late: on SQLite that is the events' `id` (one writer commits in id order); on PostgreSQL, the
/// writing transaction's id then `id`, read only below the oldest transaction still running.
///
/// Its text (`description`, `init?(_:)`) is what clients pass back: opaque to them.
public struct EventCursor: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The writing transaction's id (PostgreSQL), 0 where commit order is id order (SQLite).
    public var transaction: UInt64
    /// The event's `id`.
    public var id: Int64

    public init(transaction: UInt64 = 0, id: Int64) {
        self.transaction = transaction
        self.id = id
    }

    /// Before every event.
    public static let start = EventCursor(transaction: 0, id: 0)

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.transaction, lhs.id) < (rhs.transaction, rhs.id)
    }

    /// `T.ID`, or just `ID` when the transaction is 0: short, and stable across versions.
    public var description: String {
        transaction == 0 ? String(id) : "\(transaction).\(id)"
    }

    /// A cursor from its text; nil for anything `description` does not write.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else {
            return nil
        }
        if parts.count == 1 {
            guard let id = Int64(parts[0]) else { return nil }
            self.init(id: id)
        } else {
            guard let transaction = UInt64(parts[0]), transaction > 0, let id = Int64(parts[1]) else { return nil }
            self.init(transaction: transaction, id: id)
        }
    }
}

/// An event as the feed gives it: where it is in the feed, and the alert of its item.
public struct FeedEvent: Sendable, Equatable {
    public var cursor: EventCursor
    public var event: ItemEvent
    /// The item's catalog alert (`catalog/type`); nil for an ad-hoc spec.
    public var alert: String?

    public init(cursor: EventCursor, event: ItemEvent, alert: String?) {
        self.cursor = cursor
        self.event = event
        self.alert = alert
    }
}

/// Events after a cursor, in feed order, and where to read on from.
public struct EventPage: Sendable, Equatable {
    public var events: [FeedEvent]
    /// The last event's cursor; the cursor asked from when there was none.
    public var next: EventCursor

    public init(events: [FeedEvent], next: EventCursor) {
        self.events = events
        self.next = next
    }
}
