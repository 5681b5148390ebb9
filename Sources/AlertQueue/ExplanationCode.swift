/// Why an item is where it is, as a stable machine-readable code (`GET …/explain`). Codes are
/// documented in docs/design.md ("Explain"); a code once shipped keeps its meaning, and later
/// rules (caps, quiet hours, schedules) add codes rather than change these.
public enum ExplanationCode: String, Sendable, CaseIterable, Codable {
    /// `next` would deliver it now.
    case next
    /// It is on screen: delivered, leased, waiting for its ack.
    case presenting
    /// Its lane presents another item (`blocker`).
    case laneBusy = "lane-busy"
    /// The session is held (`until`); HUDs still flow.
    case held
    /// Scheduled: not deliverable before `until` (its `notBefore`), whatever else happens.
    case scheduled
    /// Another queued item comes first (`blocker`): a chain, a higher priority, or an older item.
    case behind
    /// Its TTL passed (`until`) before it was delivered; it never will be.
    case expired
    /// Acknowledged (with `input`, if the user typed one).
    case done
    /// Cancelled before it was acknowledged.
    case cancelled
    /// Delivered `deliveries` times without an ack; never delivered again.
    case dead
    /// Its pacing holds it back: its alert was shown as often as a limit allows in its period
    /// (`until`: when one of those deliveries leaves the period).
    case pacingLimit = "pacing-limit"
    /// Its pacing holds it back: its alert was shown once already, and may be shown once ever.
    case pacingOnce = "pacing-once"
    /// Its pacing holds it back: its alert was shown less than its minimum gap ago (`until`).
    case pacingGap = "pacing-gap"
    /// A modal or toast in the session's quiet hours (`until`: their end); HUDs still flow.
    case quietHours = "quiet-hours"
    /// A modal shown less than the session's least time between modals ago (`until`).
    case modalGap = "modal-gap"
    /// The session was shown its most modals today (`until`: the next day, in its time zone).
    case dailyCap = "daily-cap"
    /// For the session, not an item: nothing is queued.
    case queueEmpty = "queue-empty"
}

/// Why the winner of `next` beats the next best deliverable item.
public enum WinReason: String, Sendable, CaseIterable, Codable {
    /// Nothing else can be delivered now.
    case only
    /// It continues what the user just did (a chain), ahead of everything queued.
    case chain
    /// Its priority is higher than any other deliverable item's.
    case priority
    /// Others have its priority, and it was queued first.
    case older
}

extension ExplanationCode {
    /// The code of a pacing rule's part that holds an item back.
    public init(_ rule: PacingRule) {
        switch rule {
        case .limit: self = .pacingLimit
        case .once: self = .pacingOnce
        case .minGap: self = .pacingGap
        case .quietHours: self = .quietHours
        case .modalGap: self = .modalGap
        case .dailyCap: self = .dailyCap
        }
    }
}
