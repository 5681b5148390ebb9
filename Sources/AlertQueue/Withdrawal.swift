import AlertSpec
import Foundation

/// What `next` hands a session's device: an item to show, or the ticket of one it shows that was
/// taken back meanwhile (its group answered on another device, or recalled), to take off the
/// screen first.
public enum Delivery: Sendable, Equatable {
    case item(QueueItem)
    case withdraw(ticket: String)

    /// The item, for a delivery of one.
    public var item: QueueItem? {
        if case .item(let item) = self { item } else { nil }
    }
}

/// A live item taken back by a step of another session (an ack of its group) or by a recall.
public struct TakenBack: Sendable, Equatable, Hashable {
    public var session: String
    public var ticket: String
    /// Whether it was presenting, so its device is owed a withdraw; else it was queued, and is
    /// simply cancelled.
    public var withdrawn: Bool

    public init(session: String, ticket: String, withdrawn: Bool) {
        self.session = session
        self.ticket = ticket
        self.withdrawn = withdrawn
    }
}

extension QueuePolicy {
    /// Takes back the live items of `tickets` at `now`, `by` `cause` (`after`: the ticket whose
    /// ack did it, recorded with each): a queued one is cancelled, a presenting one withdrawn
    /// (cancelled too, and its device owed a withdraw, which the store keeps). Items no longer
    /// live are left as they are.
    public func withdraw(
        tickets: Set<String>, by cause: CancelCause, after answered: String? = nil, in items: inout SessionItems, now: Date
    ) -> [TakenBack] {
        prepare(&items, now: now)
        var detail: [String: ParameterValue] = ["by": .string(cause.rawValue)]
        if let answered { detail["after"] = .string(answered) }
        var taken: [TakenBack] = []
        for item in items.all where item.state.isLive && tickets.contains(item.ticket) {
            let presenting = item.state == .presenting
            record(presenting ? .withdrawn : .cancelled, item.ticket, in: &items, at: now, detail)
            taken.append(TakenBack(session: items.session, ticket: item.ticket, withdrawn: presenting))
        }
        items.updateAll(where: { $0.state.isLive && tickets.contains($0.ticket) }) { item in
            item.state = .cancelled
            item.leaseUntil = nil
        }
        return taken
    }
}

/// What a recall takes back: every live item of an alert, across sessions.
public enum RecallScope: Sendable, Equatable {
    /// Items of this catalog alert (`catalog/type`).
    case alert(String)
    /// Copies of this campaign.
    case campaign(String)
}

/// What a recall did: queued items cancelled, presenting ones withdrawn (their devices owed a
/// withdraw), and the sessions of the latter, whose waiting polls are to be woken.
public struct Recall: Sendable, Equatable {
    public var cancelled: Int
    public var withdrawn: Int
    public var sessions: Set<String>

    public init(cancelled: Int = 0, withdrawn: Int = 0, sessions: Set<String> = []) {
        self.cancelled = cancelled
        self.withdrawn = withdrawn
        self.sessions = sessions
    }

    /// Both recalls' counts and sessions.
    public mutating func add(_ other: Recall) {
        cancelled += other.cancelled
        withdrawn += other.withdrawn
        sessions.formUnion(other.sessions)
    }
}
