/// One alert's outcomes per day, read from the roll-up's counters: what
/// `GET /v1/alerts/{catalog}/{type}/outcomes` answers.
///
/// ```swift
/// let report = OutcomeReport(alert: "app/promo", days: from...to, counters: stored)
/// report.days.last?.delivered   // impressions on the last day
/// ```
public struct OutcomeReport: Sendable, Equatable {
    public var alert: String
    /// Every day asked for, oldest first, days without an outcome included (all zero).
    public var days: [Day]
    /// The days added up.
    public var total: Day

    /// One day's figures (or the total's, whose `day` is the first day).
    public struct Day: Sendable, Equatable {
        public var day: OutcomeDay
        public var enqueued = 0
        public var delivered = 0
        public var acknowledged = 0
        public var dismissed = 0
        public var expired = 0
        public var cancelled = 0
        public var dead = 0
        /// Dropped by their pacing rule.
        public var capped = 0
        /// Acks by action id and role, most frequent first (an ack without an action has an empty id).
        public var actions: [ActionCount] = []
        /// Seconds from delivery to answer, p50 and p90, from the acks' buckets; nil without acks.
        public var answerSeconds: (p50: Double, p90: Double)? {
            guard let p50 = quantile(0.5), let p90 = quantile(0.9) else { return nil }
            return (p50, p90)
        }

        /// Acks per answer-time bucket.
        var answerBuckets: [Int: Int] = [:]

        public init(day: OutcomeDay) { self.day = day }

        mutating func add(_ key: OutcomeKey, _ count: Int) {
            switch key.outcome {
            case .enqueued: enqueued += count
            case .delivered: delivered += count
            case .acknowledged:
                acknowledged += count
                if key.dismisses { dismissed += count }
                answerBuckets[key.bucket, default: 0] += count
                self.count(key.action, role: key.role, count)
            case .dismissed: break  // counted from the acks
            case .expired: expired += count
            case .cancelled: cancelled += count
            case .dead: dead += count
            case .capped: capped += count
            }
        }

        mutating func add(_ other: Day) {
            (enqueued, delivered, acknowledged, dismissed) =
                (enqueued + other.enqueued, delivered + other.delivered, acknowledged + other.acknowledged, dismissed + other.dismissed)
            (expired, cancelled, dead, capped) =
                (expired + other.expired, cancelled + other.cancelled, dead + other.dead, capped + other.capped)
            for action in other.actions { count(action.action, role: action.role, action.count) }
            answerBuckets.merge(other.answerBuckets, uniquingKeysWith: +)
        }

        private mutating func count(_ action: String, role: String, _ count: Int) {
            if let index = actions.firstIndex(where: { $0.action == action && $0.role == role }) {
                actions[index].count += count
            } else {
                actions.append(ActionCount(action: action, role: role, count: count))
            }
        }

        /// The bucket middle where the `q` quantile of the acks falls.
        func quantile(_ q: Double) -> Double? {
            let total = answerBuckets.values.reduce(0, +)
            guard total > 0 else { return nil }
            var seen = 0
            for bucket in answerBuckets.keys.sorted() {
                seen += answerBuckets[bucket]!
                if Double(seen) >= q * Double(total) { return AnswerTimeBuckets.seconds(ofBucket: bucket) }
            }
            return nil
        }
    }

    /// How many acks picked an action.
    public struct ActionCount: Sendable, Equatable {
        public var action: String
        public var role: String
        public var count: Int

        public init(action: String, role: String, count: Int) {
            self.action = action
            self.role = role
            self.count = count
        }
    }

    /// The report of `alert` over `days` from the stored counters (others' are ignored).
    public init(alert: String, days: ClosedRange<OutcomeDay>, counters: some Sequence<OutcomeCounter>) {
        self.alert = alert
        var byDay: [OutcomeDay: Day] = [:]
        for counter in counters where counter.key.alert == alert && days.contains(counter.key.day) {
            byDay[counter.key.day, default: Day(day: counter.key.day)].add(counter.key, counter.count)
        }
        self.days = (days.lowerBound.number...days.upperBound.number).map { number in
            let day = OutcomeDay(number: number)
            var figures = byDay[day] ?? Day(day: day)
            figures.actions.sort { ($0.count, $1.action) > ($1.count, $0.action) }
            return figures
        }
        var total = Day(day: days.lowerBound)
        for day in self.days { total.add(day) }
        total.actions.sort { ($0.count, $1.action) > ($1.count, $0.action) }
        self.total = total
    }
}
