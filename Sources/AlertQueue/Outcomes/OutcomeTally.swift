import AlertSpec

/// One counter of the daily roll-up: how often `alert` had `outcome` on `day`. An ack's counter
/// also names its action and role (empty when none) and the bucket of its time on screen
/// (`AnswerTimeBuckets`); other outcomes' are empty and 0.
public struct OutcomeKey: Sendable, Hashable {
    public var day: OutcomeDay
    /// `catalog/type`, or `AlertOutcome.adhoc`.
    public var alert: String
    public var outcome: AlertOutcome
    public var action: String
    public var role: String
    public var bucket: Int

    public init(day: OutcomeDay, alert: String, outcome: AlertOutcome, action: String = "", role: String = "", bucket: Int = 0) {
        self.day = day
        self.alert = alert
        self.outcome = outcome
        self.action = action
        self.role = role
        self.bucket = bucket
    }

    /// Whether an ack with this key closed the alert rather than picked an action.
    public var dismisses: Bool { outcome == .acknowledged && (action.isEmpty || role == "cancel") }
}

/// Events counted into roll-up counters: what one pass of the roll-up adds to the stored ones.
///
/// ```swift
/// let tally = OutcomeTally(page.events)
/// tally.counts   // [day 2026-12-05, app/promo, delivered]: 2, …
/// ```
public struct OutcomeTally: Sendable, Equatable {
    public private(set) var counts: [OutcomeKey: Int] = [:]

    public init() {}

    public init(_ events: some Sequence<FeedEvent>) {
        for event in events { add(event) }
    }

    public var isEmpty: Bool { counts.isEmpty }

    public mutating func add(_ feed: FeedEvent) {
        add(feed.event.kind, at: OutcomeDay(feed.event.at), alert: feed.alert, detail: feed.event.detail)
    }

    /// Counts an event of `kind` on `day` for `alert` (nil: an ad-hoc spec); `detail` is read for
    /// an ack only, so a store may leave it empty for the rest.
    public mutating func add(_ kind: ItemEvent.Kind, at day: OutcomeDay, alert: String?, detail: [String: ParameterValue]) {
        let answer = Self.answer(in: detail)
        add(kind, at: day, alert: alert, action: answer.action, role: answer.role, onScreen: answer.onScreen)
    }

    /// What an ack's count reads of its detail: the action, its role, the seconds on screen.
    public static func answer(in detail: [String: ParameterValue]) -> (action: String?, role: String?, onScreen: Double?) {
        let onScreen: Double? =
            switch detail["onScreen"] {
            case .number(let seconds)?: seconds
            case .integer(let seconds)?: Double(seconds)
            default: nil
            }
        let action = if case .string(let action)? = detail["action"] { action } else { nil as String? }
        let role = if case .string(let role)? = detail["role"] { role } else { nil as String? }
        return (action, role, onScreen)
    }

    /// Counts an event as `add(_:at:alert:detail:)` does, given the three details an ack's count
    /// reads (a store may read them alone, not the whole detail).
    public mutating func add(
        _ kind: ItemEvent.Kind, at day: OutcomeDay, alert: String?, action: String?, role: String?, onScreen: Double?
    ) {
        guard let outcome = AlertOutcome(kind) else { return }
        var key = OutcomeKey(day: day, alert: alert ?? AlertOutcome.adhoc, outcome: outcome)
        if outcome == .acknowledged {
            if let action { key.action = action }
            if let role { key.role = role }
            if let onScreen { key.bucket = AnswerTimeBuckets.bucket(seconds: onScreen) }
        }
        counts[key, default: 0] += 1
    }

    /// The counts by alert and outcome, `dismissed` included: what `/metrics` adds up.
    public var totals: [OutcomeTotal: Int] {
        var totals: [OutcomeTotal: Int] = [:]
        for (key, count) in counts {
            totals[OutcomeTotal(alert: key.alert, outcome: key.outcome), default: 0] += count
            if key.dismisses { totals[OutcomeTotal(alert: key.alert, outcome: .dismissed), default: 0] += count }
        }
        return totals
    }
}

/// An alert and an outcome: one series of `alertd_alert_outcomes_total`.
public struct OutcomeTotal: Sendable, Hashable {
    public var alert: String
    public var outcome: AlertOutcome

    public init(alert: String, outcome: AlertOutcome) {
        self.alert = alert
        self.outcome = outcome
    }
}
