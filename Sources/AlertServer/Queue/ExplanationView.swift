import AlertQueue
import AlertSpec
import Foundation

/// One item of `GET …/explain`: what it is, its code and the sentence that says it, and the
/// facts behind it (absent where they do not apply).
struct ItemExplanationView: Encodable {
    var ticket: String
    var state: ItemState
    var lane: Lane
    var priority: Int
    /// `catalog/type` and its parameters; for an ad-hoc spec, `kind` instead.
    var alert: String?
    var params: [String: ParameterValue]?
    var kind: AlertKind?
    var enqueuedAt: String
    var notBefore: String?
    var expiresAt: String?
    var deliveries: Int
    var code: ExplanationCode
    var reason: String
    var position: Int?
    var blocker: Other?
    var since: String?
    var until: String?
    var win: WinReason?
    var runnerUp: Other?
    var input: String?
    /// A finished item: when it ended, and how, from its timeline's last event.
    var endedAt: String?
    var action: String?
    var endedBy: String?

    /// Another item named as a fact.
    struct Other: Encodable {
        var ticket: String
        var alert: String?
        var lane: Lane
        var priority: Int

        init(_ item: QueueItem) {
            ticket = item.ticket
            alert = Self.name(item)
            lane = item.lane
            priority = item.priority
        }

        static func name(_ item: QueueItem) -> String? {
            if case .alert(let id, _) = item.content { id } else { nil }
        }
    }

    /// `ending`, a finished item's last timeline event, says when and how it ended.
    init(_ why: ItemExplanation, ending: ItemEvent? = nil) {
        let item = why.item
        ticket = item.ticket
        state = item.state
        lane = item.lane
        priority = item.priority
        switch item.content {
        case .alert(let id, let parameters): (alert, params) = (id, parameters)
        case .spec(let draft): kind = draft.kind
        }
        enqueuedAt = item.enqueuedAt.formatted(.iso8601)
        notBefore = item.notBefore?.formatted(.iso8601)
        expiresAt = item.expiresAt?.formatted(.iso8601)
        deliveries = item.deliveries
        code = why.code
        reason = Self.sentence(why)
        position = why.position
        blocker = why.blocker.map(Other.init)
        since = why.since?.formatted(.iso8601)
        until = why.until?.formatted(.iso8601)
        win = why.win
        runnerUp = why.runnerUp.map(Other.init)
        input = item.input
        if item.state == .expired, ending?.kind.finishes != true {
            // Seen expired before a step wrote its expiry: it ended when its TTL passed.
            endedAt = item.expiresAt?.formatted(.iso8601)
        }
        if let ending, !item.state.isLive, ending.kind.finishes {
            endedAt = ending.at.formatted(.iso8601)
            action = ending.kind == .acknowledged ? ending.detail["action"]?.description : nil
            endedBy = [.cancelled, .superseded, .withdrawn].contains(ending.kind) ? ending.detail["by"]?.description : nil
            reason = Self.sentence(why, ending: ending)
        }
    }

    /// How a finished item ended, in words, from its last event.
    static func sentence(_ why: ItemExplanation, ending: ItemEvent) -> String {
        let at = ending.at.formatted(.iso8601), detail = ending.detail
        switch ending.kind {
        case .acknowledged:
            let role = detail["role"].map { " (\($0))" } ?? ""
            let typed = detail["input"].map { $0.description.isEmpty ? " The user typed nothing." : " The user typed an input." } ?? ""
            return "Done by action \"\(detail["action"]?.description ?? "?")\"\(role) at \(at), after \(why.item.deliveries) deliveries.\(typed)"
        case .delivered:
            return "Done when delivered at \(at): a HUD is done once shown."
        case .superseded:
            return "Cancelled at \(at): the newer HUD \(detail["by"]?.description ?? "?") took its place."
        case .cancelled:
            return "Cancelled at \(at) by \(cause(detail)), after \(why.item.deliveries) deliveries."
        case .withdrawn:
            return "Withdrawn from the screen at \(at) by \(cause(detail)), after \(why.item.deliveries) deliveries."
        case .expired:
            return "Expired at \(at): its TTL passed before it was delivered."
        case .dead:
            return "Dead since \(at): delivered \(why.item.deliveries) times without an ack; it is never delivered again."
        case .capped:
            return "Dropped at \(at) by its pacing (\(detail["rule"]?.description ?? "?")): shown as often as its rule allows."
        case .enqueued, .refreshed, .requeued:
            return sentence(why)
        }
    }

    /// The code in words, for people; clients read `code` and the facts.
    static func sentence(_ why: ItemExplanation) -> String {
        let item = why.item
        let until = why.until?.formatted(.iso8601) ?? "?", since = why.since?.formatted(.iso8601) ?? "?"
        switch why.code {
        case .next:
            let runnerUp = why.runnerUp.map(describe) ?? ""
            let because = switch why.win ?? .only {
            case .only: "it is the only item that can be delivered now."
            case .chain: "it continues what the user just did (a chain), ahead of everything queued."
            case .priority: "its priority \(item.priority) is the highest of the items that can be delivered now (then \(runnerUp))."
            case .older: "of the items with its priority \(item.priority), it was queued first (then \(runnerUp))."
            }
            return "The next call of next delivers it: " + because
        case .presenting:
            return "On screen: delivery \(item.deliveries), made at \(since), leased until \(until) unless it is acknowledged."
        case .laneBusy:
            return "Waits: the \(item.lane.rawValue) lane shows \(why.blocker.map(describe) ?? "another item") since \(since), leased until \(until)."
        case .held:
            return "Waits: the session is held until \(until); only HUDs are delivered meanwhile."
        case .scheduled:
            return "Scheduled: it is not delivered before \(until); then it takes its place by priority and enqueue order."
        case .behind:
            guard let ahead = why.blocker else { return "Waits behind another item." }
            let because = if ahead.atHead && !item.atHead { "a chain, which comes before everything queued" }
                else if ahead.priority > item.priority { "priority \(ahead.priority), higher than its \(item.priority)" }
                else if ahead.lane != item.lane { "the best item of a free lane, delivered first" }
                else { "the same priority \(item.priority), queued earlier" }
            let place = why.position.map { " It is number \($0) in the \(item.lane.rawValue) lane." } ?? ""
            return "Waits behind \(describe(ahead)): \(because).\(place)"
        case .expired:
            return "Expired at \(until): its TTL passed before it was delivered; it never will be."
        case .done:
            let typed = item.input.map { $0.isEmpty ? " The user typed nothing." : " The user typed an input." } ?? ""
            return "Done: acknowledged after \(item.deliveries) deliveries (a HUD is done once delivered).\(typed)"
        case .cancelled:
            return "Cancelled after \(item.deliveries) deliveries, before it was acknowledged."
        case .dead:
            return "Dead: delivered \(item.deliveries) times without an ack; it is never delivered again."
        case .pacingLimit:
            return "Paced: its alert was shown as often as its pacing allows in a period; it may be shown again from \(until)."
        case .pacingOnce:
            return "Paced: its alert may be shown once ever, and was shown already; it waits until its TTL ends."
        case .pacingGap:
            return "Paced: its alert was shown less than its minimum gap ago; it may be shown again from \(until)."
        case .quietHours:
            return "Waits: the session's quiet hours last until \(until); HUDs still flow, and critical items pass."
        case .modalGap:
            return "Waits: a modal was shown less than the session's least time between modals ago; it may be shown from \(until)."
        case .dailyCap:
            return "Waits: the session was shown its most modals today; it may be shown from \(until)."
        case .queueEmpty:
            return "Nothing is queued."
        }
    }

    /// Who or what cancelled or withdrew an item, from its event's detail.
    static func cause(_ detail: [String: ParameterValue]) -> String {
        let by = detail["by"]?.description ?? "?"
        guard by == CancelCause.answered.rawValue else { return by }
        return "an answer on another device" + (detail["after"].map { " (\($0))" } ?? "")
    }

    static func describe(_ item: QueueItem) -> String {
        "\(item.ticket) (\(Other.name(item) ?? "an ad-hoc spec"), priority \(item.priority))"
    }
}

/// The answer of `GET …/explain`: the session now, what `next` delivers, every item's code.
/// `held` and `next` are written as null when there is none.
struct ExplanationView: Encodable {
    var session: String
    var now: String
    var code: ExplanationCode
    var reason: String
    var heldUntil: String?
    var next: ItemExplanationView?
    var items: [ItemExplanationView]
    var recent: [ItemExplanationView]

    /// `endings`: the last timeline event of finished items, by ticket.
    init(_ why: QueueExplanation, endings: [String: ItemEvent] = [:]) {
        session = why.session
        now = why.now.formatted(.iso8601)
        code = why.code
        heldUntil = why.holdUntil?.formatted(.iso8601)
        next = why.next.map { ItemExplanationView($0) }
        items = why.items.map { ItemExplanationView($0) }
        recent = why.recent.map { ItemExplanationView($0, ending: endings[$0.item.ticket]) }
        let waiting = why.items.first { $0.item.state == .queued }
        reason = switch why.code {
        case .queueEmpty: why.recent.isEmpty ? "Nothing is queued." : "Nothing is queued; recent says how the latest items ended."
        default: (why.next ?? waiting).map { "\($0.item.ticket): " + ItemExplanationView.sentence($0) } ?? "Nothing is queued."
        }
    }

    private enum CodingKeys: String, CodingKey { case session, now, code, reason, held, next, items, recent }
    private struct Hold: Encodable { var until: String }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(session, forKey: .session)
        try c.encode(now, forKey: .now)
        try c.encode(code, forKey: .code)
        try c.encode(reason, forKey: .reason)
        if let heldUntil { try c.encode(Hold(until: heldUntil), forKey: .held) } else { try c.encodeNil(forKey: .held) }
        if let next { try c.encode(next, forKey: .next) } else { try c.encodeNil(forKey: .next) }
        try c.encode(items, forKey: .items)
        try c.encode(recent, forKey: .recent)
    }
}

/// The answer of `GET …/explain?ticket=`: one item, in whatever state.
struct TicketExplanationView: Encodable {
    var session: String
    var now: String
    var item: ItemExplanationView
}
