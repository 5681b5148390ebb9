import AlertSpec

/// An alert the session's queue delivered (`next`): show it, then acknowledge its ticket.
public struct AlertDelivery: Sendable, Equatable, Codable {
    /// The item's name; ``AlertClient/ack(session:ticket:action:)`` takes it.
    public var ticket: String
    /// The popup, rendered in the client's language (an ad-hoc spec: id `adhoc/<ticket>`,
    /// locale `und`).
    public var spec: AlertSpec
    /// Times delivered, this one included: more than 1 when an earlier delivery's lease ended
    /// without an ack (the app died while showing it).
    public var deliveries: Int

    public init(ticket: String, spec: AlertSpec, deliveries: Int = 1) {
        self.ticket = ticket
        self.spec = spec
        self.deliveries = deliveries
    }
}

/// What ``AlertClient/poll(session:wait:locale:)`` hands the app.
public enum AlertPoll: Sendable, Equatable {
    /// Show this alert, then acknowledge its ticket.
    case show(AlertDelivery)
    /// Take the alert of this ticket off the screen, without an ack: it was answered on another
    /// of the user's devices, or recalled.
    case withdraw(ticket: String)
}

/// A withdraw as `next` answers it: `{"withdraw": ticket}`.
struct AlertWithdraw: Decodable {
    var withdraw: String
}

/// What an acknowledgement did.
public struct AlertAcknowledgement: Sendable, Equatable, Codable {
    /// The ticket acknowledged; its item is done and its lane free.
    public var ticket: String
    /// The ticket of the alert queued first in line because the action was a
    /// `{"type": "next", …}`; nil when the action chains nothing.
    public var chained: String?

    public init(ticket: String, chained: String? = nil) {
        self.ticket = ticket
        self.chained = chained
    }
}
