import AlertSpec
import Foundation

// What a step's rules ask of the deliveries (`Demand`, key by key `Needs`), and what a store
// read for them (`Read`): small lists, as a step judges a rule or two.
extension PacingHistory {
    /// A stretch a rule counts deliveries in: those after `start`, or from it on when `inclusive`.
    public struct Window: Hashable, Sendable {
        public var start: Date
        public var inclusive: Bool

        public init(after start: Date) { (self.start, inclusive) = (start, false) }
        public init(from start: Date) { (self.start, inclusive) = (start, true) }

        public func holds(_ time: Date) -> Bool { inclusive ? time >= start : time > start }
    }

    /// What the rules judged ask of one key: the windows they count, and the ranks (1: the newest
    /// delivery) whose times they need once a window holds that many. Its last delivery and
    /// whether there was ever one are always read.
    public struct Needs: Equatable, Sendable {
        public private(set) var windows: [Window] = []
        public private(set) var ranks: [Int] = []

        public init() {}

        public mutating func count(in window: Window) {
            if !windows.contains(window) { windows.append(window) }
        }

        public mutating func time(ofRank rank: Int) {
            if rank >= 1, !ranks.contains(rank) { ranks.append(rank) }
        }

        public mutating func formUnion(_ other: Needs) {
            for window in other.windows { count(in: window) }
            for rank in other.ranks { time(ofRank: rank) }
        }
    }

    /// What the rules judged in a step ask, key by key.
    public struct Demand: Sendable {
        public private(set) var keys: [(key: Key, needs: Needs)] = []

        public init() {}

        /// What judging `rules` (alert and rule) and `profile`'s session-wide rules asks at `now`.
        public init(rules: [(alert: String, pacing: Pacing)], profile: SessionProfile, now: Date) {
            for rule in rules { rule.pacing.ask(alert: rule.alert, now: now, in: &self) }
            profile.ask(now: now, in: &self)
        }

        /// What judging the rules of `items`' queued paced items, and `profile`'s, asks at `now`.
        public init(items: [QueueItem], profile: SessionProfile, now: Date) {
            let rules = items.filter { $0.state == .queued && !$0.pacing.isNone }.map { ($0.pacedAlert, $0.pacing) }
            self.init(rules: rules, profile: profile, now: now)
        }

        public var isEmpty: Bool { keys.isEmpty }

        /// Asks `change` of `key` (nothing but its last delivery when `change` asks nothing).
        public mutating func ask(_ key: Key, _ change: (inout Needs) -> Void = { _ in }) {
            if let index = keys.firstIndex(where: { $0.key == key }) {
                change(&keys[index].needs)
            } else {
                var needs = Needs()
                change(&needs)
                keys.append((key, needs))
            }
        }
    }

    /// What a store read of one key for its `Needs`.
    public struct Read: Equatable, Sendable {
        /// The deliveries in each window asked for.
        public private(set) var counts: [WindowCount] = []
        /// The times of the ranks asked for that there are deliveries of (1: the newest).
        public private(set) var newest: [RankTime] = []
        /// Whether the alert was ever shown in this scope.
        public var ever: Bool

        public struct WindowCount: Equatable, Sendable {
            public var window: Window
            public var count: Int
        }

        public struct RankTime: Equatable, Sendable {
            public var rank: Int
            public var at: Date
        }

        public init(ever: Bool = false) { self.ever = ever }

        public mutating func set(_ count: Int, in window: Window) {
            counts.removeAll { $0.window == window }
            counts.append(WindowCount(window: window, count: count))
        }

        public mutating func set(_ time: Date, ofRank rank: Int) {
            newest.removeAll { $0.rank == rank }
            newest.append(RankTime(rank: rank, at: time))
        }

        public func count(in window: Window) -> Int? { counts.first { $0.window == window }?.count }

        public func time(ofRank rank: Int) -> Date? { newest.first { $0.rank == rank }?.at }

        /// The most deliveries a window asked for holds.
        public var most: Int { counts.map(\.count).max() ?? 0 }
    }
}
